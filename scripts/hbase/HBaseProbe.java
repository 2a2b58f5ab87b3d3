import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Checks that the local HBase really serves clients.
 *
 * <pre>
 * HBaseProbe ready ZK_PORT TIMEOUT_SECONDS [SERVER_PID]
 *   retries until the deadline: create a pre-split table, put a row, get it
 *   back, drop the table. Gives up early if SERVER_PID exits.
 * HBaseProbe ping ZK_PORT TIMEOUT_SECONDS
 *   one quick attempt: a live region server exists and hbase:meta is readable.
 * HBaseProbe servers ZK_PORT TIMEOUT_SECONDS N [SERVER_PID]
 *   retries until the deadline: at least N region servers are live.
 * </pre>
 *
 * Exit status 0 means success, 1 failure, 2 usage error.
 */
public final class HBaseProbe {
  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  private HBaseProbe() {
  }

  public static void main(String[] args) {
    if (args.length < 3) {
      System.err.println("usage: HBaseProbe ready|ping ZK_PORT TIMEOUT_SECONDS [SERVER_PID]");
      System.exit(2);
    }
    String mode = args[0];
    int zkPort = Integer.parseInt(args[1]);
    long timeoutMillis = Long.parseLong(args[2]) * 1000L;
    long serverPid = args.length > 3 ? Long.parseLong(args[3]) : -1;
    int rc;
    switch (mode) {
      case "servers":
        if (args.length < 4) {
          System.err.println("usage: HBaseProbe servers ZK_PORT TIMEOUT_SECONDS N [SERVER_PID]");
          System.exit(2);
        }
        rc = servers(clientConf(zkPort), timeoutMillis, Integer.parseInt(args[3]),
            args.length > 4 ? Long.parseLong(args[4]) : -1);
        break;
      case "ready":
        rc = ready(clientConf(zkPort), timeoutMillis, serverPid);
        break;
      case "ping":
        rc = ping(clientConf(zkPort), timeoutMillis);
        break;
      default:
        System.err.println("unknown mode " + mode);
        rc = 2;
    }
    System.exit(rc);
  }

  private static Configuration clientConf(int zkPort) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.set("zookeeper.znode.parent", "/hbase");
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("zookeeper.session.timeout", 10000);
    conf.setInt("hbase.client.retries.number", 3);
    conf.setInt("hbase.client.pause", 250);
    conf.setInt("hbase.rpc.timeout", 5000);
    conf.setInt("hbase.client.operation.timeout", 15000);
    conf.setInt("hbase.client.meta.operation.timeout", 10000);
    // A secure instance puts a keytab in the probe's hbase-site.xml.
    String keytab = conf.get("hbase.client.keytab.file");
    if (keytab != null) {
      try {
        UserGroupInformation.setConfiguration(conf);
        UserGroupInformation.loginUserFromKeytab(conf.get("hbase.client.keytab.principal"), keytab);
      } catch (IOException e) {
        System.err.println("kerberos login failed: " + e);
        System.exit(1);
      }
    }
    return conf;
  }

  private static int ping(Configuration conf, long timeoutMillis) {
    conf.setInt("hbase.client.operation.timeout", (int) Math.min(timeoutMillis, 10000));
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      ClusterMetrics metrics = admin.getClusterMetrics();
      Collection<ServerName> live = metrics.getLiveServerMetrics().keySet();
      if (live.isEmpty()) {
        System.err.println("no live region server");
        return 1;
      }
      try (RegionLocator locator = conn.getRegionLocator(TableName.META_TABLE_NAME)) {
        System.out.println("meta on " + locator.getRegionLocation(new byte[0], true)
            .getServerName());
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      System.err.println("HBase not answering: " + oneLine(e));
      return 1;
    }
  }

  private static int servers(Configuration conf, long timeoutMillis, int want, long serverPid) {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    String last = "no attempt made";
    while (System.currentTimeMillis() < deadline) {
      if (serverPid > 0 && !ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false)) {
        System.err.println("HBase process " + serverPid + " exited");
        return 1;
      }
      try (Connection conn = ConnectionFactory.createConnection(conf);
          Admin admin = conn.getAdmin()) {
        int live = admin.getClusterMetrics().getLiveServerMetrics().size();
        if (live >= want) {
          System.out.println(live + " region servers live");
          return 0;
        }
        last = live + " of " + want + " region servers live";
      } catch (IOException | RuntimeException e) {
        last = oneLine(e);
      }
      sleep(1000);
    }
    System.err.println("HBase region servers not live after " + timeoutMillis / 1000 + "s: " + last);
    return 1;
  }

  private static int ready(Configuration conf, long timeoutMillis, long serverPid) {
    long start = System.currentTimeMillis();
    long deadline = start + timeoutMillis;
    long nextReport = start + 5000;
    String lastError = "no attempt made";
    int attempt = 0;
    while (System.currentTimeMillis() < deadline) {
      if (serverPid > 0 && !ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false)) {
        System.err.println("HBase process " + serverPid + " exited");
        return 1;
      }
      attempt++;
      try {
        roundTrip(conf, attempt);
        return 0;
      } catch (IOException | RuntimeException e) {
        lastError = oneLine(e);
      }
      long now = System.currentTimeMillis();
      if (now >= nextReport) {
        System.out.println("waiting for HBase (" + (now - start) / 1000 + "s)…");
        nextReport = now + 5000;
      }
      sleep(1000);
    }
    System.err.println("HBase not ready after " + timeoutMillis / 1000 + "s: " + lastError);
    return 1;
  }

  /** Creates a pre-split table, writes and reads a row in each region, drops the table. */
  private static void roundTrip(Configuration conf, int attempt) throws IOException {
    TableName name = TableName.valueOf("rkql_probe_" + ProcessHandle.current().pid() + "_" + attempt);
    byte[][] splits = {bytes("g"), bytes("p")};
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      try {
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splits);
        try (Table table = conn.getTable(name)) {
          for (String row : new String[] {"a", "h", "z"}) {
            byte[] value = bytes("v-" + row);
            table.put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, value));
            Result got = table.get(new Get(bytes(row)));
            if (!Arrays.equals(value, got.getValue(FAMILY, QUALIFIER))) {
              throw new IOException("read back wrong value for row " + row);
            }
          }
        }
        int regions = admin.getRegions(name).size();
        if (regions != splits.length + 1) {
          throw new IOException("expected " + (splits.length + 1) + " regions, got " + regions);
        }
      } finally {
        dropQuietly(admin, name);
      }
    }
  }

  private static void dropQuietly(Admin admin, TableName name) {
    try {
      if (admin.tableExists(name)) {
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: the name is unique and scripts/hbase/down wipes the data.
    }
  }

  private static String oneLine(Throwable e) {
    String msg = e.getClass().getSimpleName() + ": " + e.getMessage();
    int nl = msg.indexOf('\n');
    return nl < 0 ? msg : msg.substring(0, nl);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

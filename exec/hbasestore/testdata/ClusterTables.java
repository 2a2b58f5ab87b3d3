import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Tables a program other than rkql made, in a namespace of their own, for
 * rkql's SHOW TABLES and DESCRIBE to meet.
 *
 * <pre>
 * ClusterTables setup ZK_QUORUM ZK_PORT NS
 *   creates namespace NS, table NS:plain (family a with HBase's defaults,
 *   family b with chosen settings, split at g and p) holding a few rows,
 *   and table NS:other (family x); then prints every family of both as
 *   the Java client reads its descriptor back, one line each:
 *   TABLE FAMILY KEY=VALUE ...
 * ClusterTables sample ZK_QUORUM ZK_PORT TABLE
 *   prints, in Bytes.toStringBinary form, the first 5 keys of the
 *   table's first region and the first key of each region after it.
 * ClusterTables drop ZK_QUORUM ZK_PORT NS
 *   drops every table of NS, then NS.
 * ClusterTables batch
 *   reads one command per line from standard input, printing "--" after
 *   each command's output.
 * </pre>
 */
public final class ClusterTables {
  private ClusterTables() {
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("batch")) {
      java.io.BufferedReader in = new java.io.BufferedReader(
          new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isEmpty()) {
          run(line.split(" "));
          System.out.println("--");
        }
      }
      return;
    }
    run(args);
  }

  private static void run(String[] args) throws Exception {
    try (Connection c = ConnectionFactory.createConnection(conf(args[1], args[2]));
        Admin a = c.getAdmin()) {
      switch (args[0]) {
        case "setup":
          setup(c, a, args[3]);
          return;
        case "sample":
          sample(c, TableName.valueOf(args[3]));
          return;
        case "drop":
          for (TableName t : a.listTableNamesByNamespace(args[3])) {
            if (a.isTableEnabled(t)) {
              a.disableTable(t);
            }
            a.deleteTable(t);
          }
          a.deleteNamespace(args[3]);
          return;
        default:
          throw new IllegalArgumentException("unknown mode " + args[0]);
      }
    }
  }

  private static void setup(Connection c, Admin a, String ns) throws Exception {
    a.createNamespace(NamespaceDescriptor.create(ns).build());
    TableName plain = TableName.valueOf(ns, "plain");
    a.createTable(TableDescriptorBuilder.newBuilder(plain)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of("a"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("b"))
            .setMaxVersions(3)
            .setTimeToLive(86400)
            .setCompressionType(Compression.Algorithm.GZ)
            .setBloomFilterType(BloomType.ROWCOL)
            .setBlocksize(16384)
            .setInMemory(true)
            .setBlockCacheEnabled(false)
            .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
            .build())
        .build(), new byte[][] {Bytes.toBytes("g"), Bytes.toBytes("p")});
    TableName other = TableName.valueOf(ns, "other");
    a.createTable(TableDescriptorBuilder.newBuilder(other)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of("x")).build());
    byte[][] keys = {
      Bytes.add(Bytes.toBytes("a"), new byte[] {0, 1}), Bytes.toBytes("b"), Bytes.toBytes("c"),
      Bytes.toBytes("d"), Bytes.toBytes("e"), Bytes.toBytes("f"),
      Bytes.toBytes("h-1"), Bytes.toBytes("h-2"), Bytes.add(Bytes.toBytes("q"), new byte[] {(byte) 0xff}),
      Bytes.add(Bytes.toBytes("r"), Bytes.toBytes(42L)),
    };
    try (Table t = c.getTable(plain)) {
      List<Put> puts = new ArrayList<>();
      for (byte[] k : keys) {
        puts.add(new Put(k).addColumn(Bytes.toBytes("a"), Bytes.toBytes("q"), Bytes.toBytes(1L)));
      }
      t.put(puts);
    }
    for (TableName t : new TableName[] {plain, other}) {
      for (ColumnFamilyDescriptor f : a.getDescriptor(t).getColumnFamilies()) {
        int ttl = f.getTimeToLive();
        System.out.println(t.getNameAsString() + " " + f.getNameAsString()
            + " VERSIONS=" + f.getMaxVersions()
            + " TTL=" + (ttl == Integer.MAX_VALUE ? "FOREVER" : Integer.toString(ttl))
            + " COMPRESSION=" + f.getCompressionType().name()
            + " BLOOMFILTER=" + f.getBloomFilterType().name()
            + " BLOCKSIZE=" + f.getBlocksize()
            + " IN_MEMORY=" + f.isInMemory()
            + " BLOCKCACHE=" + f.isBlockCacheEnabled()
            + " DATA_BLOCK_ENCODING=" + f.getDataBlockEncoding().name()
            + " KEEP_DELETED_CELLS=" + f.getKeepDeletedCells().name()
            + " MIN_VERSIONS=" + f.getMinVersions()
            + " REPLICATION_SCOPE=" + f.getScope());
      }
    }
  }

  private static void sample(Connection c, TableName name) throws Exception {
    try (RegionLocator l = c.getRegionLocator(name); Table t = c.getTable(name)) {
      boolean first = true;
      for (HRegionLocation loc : l.getAllRegionLocations()) {
        Scan s = new Scan().withStartRow(loc.getRegion().getStartKey())
            .withStopRow(loc.getRegion().getEndKey()).setLimit(first ? 5 : 1);
        try (ResultScanner rs = t.getScanner(s)) {
          for (Result r : rs) {
            System.out.println(Bytes.toStringBinary(r.getRow()));
          }
        }
        first = false;
      }
    }
  }

  private static Configuration conf(String quorum, String port) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.set("hbase.zookeeper.property.clientPort", port);
    conf.setInt("hbase.client.retries.number", 5);
    return conf;
  }
}

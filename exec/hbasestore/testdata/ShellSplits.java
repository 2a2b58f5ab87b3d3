import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;

/**
 * HBase's own answers for the split points rkql prints.
 *
 * <pre>
 * ShellSplits algorithm NAME N
 *   the split keys RegionSplitter's NAME algorithm gives for N regions, as
 *   the HBase shell's NUMREGIONS/SPLITALGO computes them: one hex line each.
 * ShellSplits create ZK_QUORUM ZK_PORT TABLE HEX...
 *   creates TABLE (family f) with the given split keys through the Java
 *   Admin API, as the shell's create does, then prints the start key of
 *   every region in hex, one per line (the first is empty).
 * ShellSplits drop ZK_QUORUM ZK_PORT TABLE
 * ShellSplits batch
 *   reads one command per line from standard input and runs each in this
 *   JVM, printing "--" after each command's output.
 * </pre>
 */
public final class ShellSplits {
  private ShellSplits() {
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("batch")) {
      java.io.BufferedReader in = new java.io.BufferedReader(
          new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
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
    switch (args[0]) {
      case "algorithm":
        RegionSplitter.SplitAlgorithm alg = RegionSplitter.newSplitAlgoInstance(
            HBaseConfiguration.create(), args[1]);
        for (byte[] k : alg.split(Integer.parseInt(args[2]))) {
          System.out.println(Bytes.toHex(k));
        }
        return;
      case "create":
        try (Connection c = ConnectionFactory.createConnection(conf(args[1], args[2]));
            Admin a = c.getAdmin()) {
          TableName name = TableName.valueOf(args[3]);
          List<byte[]> splits = new ArrayList<>();
          for (int i = 4; i < args.length; i++) {
            splits.add(Bytes.fromHex(args[i]));
          }
          a.createTable(TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f")).build(),
              splits.toArray(new byte[0][]));
          try (RegionLocator l = c.getRegionLocator(name)) {
            for (HRegionLocation loc : l.getAllRegionLocations()) {
              System.out.println(Bytes.toHex(loc.getRegion().getStartKey()));
            }
          }
        }
        return;
      case "drop":
        try (Connection c = ConnectionFactory.createConnection(conf(args[1], args[2]));
            Admin a = c.getAdmin()) {
          TableName name = TableName.valueOf(args[3]);
          a.disableTable(name);
          a.deleteTable(name);
        }
        return;
      default:
        throw new IllegalArgumentException("unknown mode " + args[0]);
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

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;

/**
 * HBase's own answers for the create statements rkql prints.
 *
 * <pre>
 * ShellSplits algorithm NAME N
 *   the split keys RegionSplitter's NAME algorithm gives for N regions, as
 *   the HBase shell's NUMREGIONS/SPLITALGO computes them: one hex line each.
 * ShellSplits create ZK_QUORUM ZK_PORT TABLE ARG...
 *   creates TABLE through the Java Admin API, as the shell's create does,
 *   then describes it as describe does. An ARG f:KEY=VALUE,KEY=VALUE... is
 *   a family, with the shell's keys NAME, VERSIONS, TTL, BLOCKCACHE,
 *   BLOCKSIZE, IN_MEMORY, BLOOMFILTER and COMPRESSION; an ARG s:HEX is a
 *   split key.
 * ShellSplits describe ZK_QUORUM ZK_PORT TABLE
 *   one line per family, "family NAME=… VERSIONS=… TTL=… BLOCKCACHE=…
 *   BLOCKSIZE=… IN_MEMORY=… BLOOMFILTER=… COMPRESSION=…", then the start
 *   key of every region, "region HEX" (the first is empty).
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
          TableDescriptorBuilder t = TableDescriptorBuilder.newBuilder(name);
          List<byte[]> splits = new ArrayList<>();
          for (int i = 4; i < args.length; i++) {
            if (args[i].startsWith("s:")) {
              splits.add(Bytes.fromHex(args[i].substring(2)));
            } else if (args[i].startsWith("f:")) {
              t.setColumnFamily(family(args[i].substring(2)));
            } else {
              throw new IllegalArgumentException("bad argument " + args[i]);
            }
          }
          a.createTable(t.build(), splits.toArray(new byte[0][]));
          describe(c, a, name);
        }
        return;
      case "describe":
        try (Connection c = ConnectionFactory.createConnection(conf(args[1], args[2]));
            Admin a = c.getAdmin()) {
          describe(c, a, TableName.valueOf(args[3]));
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

  /** A family from the shell's settings, as the shell's create sets them. */
  private static ColumnFamilyDescriptor family(String spec) {
    ColumnFamilyDescriptorBuilder f = null;
    for (String kv : spec.split(",")) {
      String[] p = kv.split("=", 2);
      String v = p[1];
      switch (p[0]) {
        case "NAME":
          f = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(v));
          break;
        case "VERSIONS":
          f.setMaxVersions(Integer.parseInt(v));
          break;
        case "TTL":
          f.setTimeToLive(Integer.parseInt(v));
          break;
        case "BLOCKCACHE":
          f.setBlockCacheEnabled(Boolean.parseBoolean(v));
          break;
        case "BLOCKSIZE":
          f.setBlocksize(Integer.parseInt(v));
          break;
        case "IN_MEMORY":
          f.setInMemory(Boolean.parseBoolean(v));
          break;
        case "BLOOMFILTER":
          f.setBloomFilterType(BloomType.valueOf(v.toUpperCase()));
          break;
        case "COMPRESSION":
          f.setCompressionType(Compression.Algorithm.valueOf(v.toUpperCase()));
          break;
        default:
          throw new IllegalArgumentException("unknown family setting " + p[0]);
      }
    }
    return f.build();
  }

  private static void describe(Connection c, Admin a, TableName name) throws Exception {
    for (ColumnFamilyDescriptor f : a.getDescriptor(name).getColumnFamilies()) {
      System.out.println("family NAME=" + f.getNameAsString()
          + " VERSIONS=" + f.getMaxVersions()
          + " TTL=" + f.getTimeToLive()
          + " BLOCKCACHE=" + f.isBlockCacheEnabled()
          + " BLOCKSIZE=" + f.getBlocksize()
          + " IN_MEMORY=" + f.isInMemory()
          + " BLOOMFILTER=" + f.getBloomFilterType()
          + " COMPRESSION=" + f.getCompressionType().getName().toUpperCase());
    }
    try (RegionLocator l = c.getRegionLocator(name)) {
      for (HRegionLocation loc : l.getAllRegionLocations()) {
        System.out.println("region " + Bytes.toHex(loc.getRegion().getStartKey()));
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

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The HBase Java client's best hand-written code for whole-table reads,
 * timed in one warm JVM.
 *
 * <pre>
 * BenchClient ZK_QUORUM TABLE RUNS MODE...
 *   count   key-only COUNT: FirstKeyOnlyFilter and KeyOnlyFilter
 *   group   rows per d:status value, reading only d:status
 *   filter  every column of the rows whose d:status is 'paid'
 *           (SingleColumnValueFilter), each row formatted as a CSV line
 *   scan    every column of every row, each row formatted as a CSV line
 * BenchClient ZK_QUORUM TABLE 0 import JSONL
 *   writes the orders rows of JSONL, and their entries in the two index
 *   tables, through one BufferedMutator per table, into fresh copies
 *   (TABLE_java, TABLE_by_buyer_java, TABLE_by_id_java) of the tables rkql
 *   made: same descriptors, same splits. Prints "import MS ROWS".
 * </pre>
 *
 * Each mode runs once to warm up, then RUNS times; it prints
 * "MODE MEDIAN_MS ROWS" on a line. Scans use caching 1000.
 */
public final class BenchClient {
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] STATUS = Bytes.toBytes("status");

  private BenchClient() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println("usage: BenchClient ZK_QUORUM TABLE RUNS MODE...");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    String[] hp = args[0].split(":");
    conf.set("hbase.zookeeper.quorum", hp[0]);
    conf.set("hbase.zookeeper.property.clientPort", hp.length > 1 ? hp[1] : "2181");
    conf.set("zookeeper.znode.parent", "/hbase");
    int runs = Integer.parseInt(args[2]);
    if (args[3].equals("import")) {
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        importRows(conn, args[1], args[4]);
      }
      return;
    }
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Table table = conn.getTable(TableName.valueOf(args[1]))) {
      for (int i = 3; i < args.length; i++) {
        String mode = args[i];
        long rows = run(table, mode);
        List<Long> times = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
          long start = System.nanoTime();
          rows = run(table, mode);
          times.add(System.nanoTime() - start);
        }
        Long[] sorted = times.toArray(new Long[0]);
        Arrays.sort(sorted);
        System.out.printf("%s %.3f %d%n", mode, sorted[sorted.length / 2] / 1e6, rows);
      }
    }
  }

  private static long run(Table table, String mode) throws IOException {
    Scan scan = new Scan().setCaching(1000);
    switch (mode) {
      case "count":
        scan.setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
        return consume(table, scan, false, null);
      case "group":
        scan.addColumn(D, STATUS);
        Map<String, Long> groups = new HashMap<>();
        long n = consume(table, scan, false, groups);
        if (groups.isEmpty() && n > 0) {
          throw new IOException("no groups");
        }
        return n;
      case "filter":
        SingleColumnValueFilter f =
            new SingleColumnValueFilter(D, STATUS, CompareOperator.EQUAL, Bytes.toBytes("paid"));
        f.setFilterIfMissing(true);
        scan.setFilter(f);
        return consume(table, scan, true, null);
      case "scan":
        return consume(table, scan, true, null);
      default:
        throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  /** Copies table src's descriptor and splits to a fresh table dst. */
  private static TableName copyTable(Admin admin, String src, String dst) throws IOException {
    TableName from = TableName.valueOf(src);
    TableName to = TableName.valueOf(dst);
    if (admin.tableExists(to)) {
      admin.disableTable(to);
      admin.deleteTable(to);
    }
    TableDescriptor d = TableDescriptorBuilder.copy(to, admin.getDescriptor(from));
    List<byte[]> splits = new ArrayList<>();
    for (RegionInfo r : admin.getRegions(from)) {
      if (r.getStartKey().length > 0) {
        splits.add(r.getStartKey());
      }
    }
    splits.sort(Bytes.BYTES_COMPARATOR);
    if (splits.isEmpty()) {
      admin.createTable(d);
    } else {
      admin.createTable(d, splits.toArray(new byte[0][]));
    }
    return to;
  }

  private static String field(String line, String name) {
    String k = "\"" + name + "\":";
    int i = line.indexOf(k);
    if (i < 0) {
      return null;
    }
    i += k.length();
    if (line.startsWith("null", i)) {
      return null;
    }
    if (line.charAt(i) == '"') {
      return line.substring(i + 1, line.indexOf('"', i + 1));
    }
    int e = i;
    while (e < line.length() && line.charAt(e) != ',' && line.charAt(e) != '}') {
      e++;
    }
    return line.substring(i, e);
  }

  private static byte[] cat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int o = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, o, p.length);
      o += p.length;
    }
    return out;
  }

  private static void importRows(Connection conn, String table, String jsonl) throws IOException {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IOException(e);
    }
    TableName data;
    TableName byBuyer;
    TableName byId;
    byte[] ixFamBuyer;
    byte[] ixFamId;
    try (Admin admin = conn.getAdmin()) {
      data = copyTable(admin, table, table + "_java");
      byBuyer = copyTable(admin, table + "_by_buyer", table + "_by_buyer_java");
      byId = copyTable(admin, table + "_by_id", table + "_by_id_java");
      ixFamBuyer = admin.getDescriptor(byBuyer).getColumnFamilies()[0].getName();
      ixFamId = admin.getDescriptor(byId).getColumnFamilies()[0].getName();
    }
    byte[] bar = Bytes.toBytes("|");
    byte[] v = Bytes.toBytes("_v");
    byte[] verified = {1};
    long rows = 0;
    long start = System.nanoTime();
    try (BufferedMutator md = conn.getBufferedMutator(data);
        BufferedMutator mb = conn.getBufferedMutator(byBuyer);
        BufferedMutator mi = conn.getBufferedMutator(byId);
        BufferedReader in = Files.newBufferedReader(Paths.get(jsonl), StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String seller = field(line, "seller");
        String buyer = field(line, "buyer");
        long orderId = Long.parseLong(field(line, "order_id"));
        long ts = Instant.parse(field(line, "ts")).toEpochMilli();
        String amount = field(line, "amount");
        String status = field(line, "status");
        byte[] sellerB = Bytes.toBytes(seller);
        byte[] hex = Bytes.toBytes(String.format("%032x", new java.math.BigInteger(1,
            md5.digest(sellerB))).substring(0, 4));
        byte[] tsDesc = Bytes.toBytes(Long.MAX_VALUE - ts);
        byte[] id = Bytes.toBytes(orderId);
        Put p = new Put(cat(hex, sellerB, bar, tsDesc, id));
        if (buyer != null) {
          p.addColumn(D, Bytes.toBytes("buyer"), Bytes.toBytes(buyer));
        }
        if (amount != null) {
          p.addColumn(D, Bytes.toBytes("amount"), Bytes.toBytes(Double.parseDouble(amount)));
        }
        if (status != null) {
          p.addColumn(D, STATUS, Bytes.toBytes(status));
        }
        if (p.isEmpty()) {
          p.addColumn(D, Bytes.toBytes("_0"), new byte[0]);
        }
        md.mutate(p);
        if (buyer != null) {
          Put b = new Put(cat(Bytes.toBytes(buyer), bar, tsDesc, id));
          b.addColumn(ixFamBuyer, Bytes.toBytes("seller"), sellerB);
          if (amount != null) {
            b.addColumn(ixFamBuyer, Bytes.toBytes("amount"), Bytes.toBytes(Double.parseDouble(amount)));
          }
          if (status != null) {
            b.addColumn(ixFamBuyer, STATUS, Bytes.toBytes(status));
          }
          b.addColumn(ixFamBuyer, v, verified);
          mb.mutate(b);
        }
        Put x = new Put(id);
        x.addColumn(ixFamId, Bytes.toBytes("seller"), sellerB);
        x.addColumn(ixFamId, Bytes.toBytes("ts"), Bytes.toBytes(ts));
        x.addColumn(ixFamId, v, verified);
        mi.mutate(x);
        rows++;
      }
      md.flush();
      mb.flush();
      mi.flush();
    }
    System.out.printf("import %.3f %d%n", (System.nanoTime() - start) / 1e6, rows);
  }

  private static long consume(Table table, Scan scan, boolean csv, Map<String, Long> groups)
      throws IOException {
    long rows = 0;
    long bytes = 0;
    StringBuilder line = new StringBuilder(256);
    try (ResultScanner rs = table.getScanner(scan)) {
      for (Result r : rs) {
        rows++;
        if (groups != null) {
          byte[] v = r.getValue(D, STATUS);
          groups.merge(v == null ? "" : Bytes.toString(v), 1L, Long::sum);
        } else if (csv) {
          line.setLength(0);
          line.append(Bytes.toStringBinary(r.getRow()));
          for (Cell c : r.rawCells()) {
            line.append(',').append(Bytes.toString(CellUtil.cloneValue(c)));
          }
          bytes += line.length();
        }
      }
    }
    return rows + (bytes < 0 ? 1 : 0);
  }
}

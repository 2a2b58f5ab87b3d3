import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The HBase Java client as the oracle of rkql's raw reads. Usage, one
 * command per line on standard input after the argument "batch" (each
 * command's output is followed by "--"):
 *
 * <pre>
 *   write QUORUM PORT TABLE
 *     creates TABLE with families f and g (5 versions each) and writes
 *     rows of several qualifiers, timestamps and versions;
 *   scan QUORUM PORT TABLE START STOP COLS FROM TO VERSIONS REVERSED
 *   get QUORUM PORT TABLE KEY COLS FROM TO VERSIONS
 *     print every cell the client's Scan or Get returns, one line each:
 *     key/family:qualifier/timestamp/value in Bytes.toStringBinary form.
 * </pre>
 *
 * START, STOP and KEY are hex ("-" for none); COLS is a comma list of
 * family or family:qualifier ("-" for all); FROM and TO are a time range
 * ("-" for none).
 */
public final class RawCells {
  private RawCells() {
  }

  public static void main(String[] args) throws Exception {
    java.io.BufferedReader in = new java.io.BufferedReader(
        new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!line.isEmpty()) {
        run(line.split(" "));
        System.out.println("--");
      }
    }
  }

  private static void run(String[] a) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", a[1]);
    conf.set("hbase.zookeeper.property.clientPort", a[2]);
    conf.setInt("hbase.client.retries.number", 5);
    try (Connection c = ConnectionFactory.createConnection(conf)) {
      TableName name = TableName.valueOf(a[3]);
      switch (a[0]) {
        case "write":
          write(c, name);
          break;
        case "scan": {
          Scan s = new Scan();
          if (!a[4].equals("-")) {
            s.withStartRow(Bytes.fromHex(a[4]));
          }
          if (!a[5].equals("-")) {
            s.withStopRow(Bytes.fromHex(a[5]));
          }
          columns(a[6], s, null);
          if (!a[7].equals("-")) {
            s.setTimeRange(Long.parseLong(a[7]), Long.parseLong(a[8]));
          }
          s.readVersions(Integer.parseInt(a[9]));
          s.setReversed(a[10].equals("1"));
          try (Table t = c.getTable(name); ResultScanner rs = t.getScanner(s)) {
            for (Result r : rs) {
              print(r);
            }
          }
          break;
        }
        case "get": {
          Get g = new Get(Bytes.fromHex(a[4]));
          columns(a[5], null, g);
          if (!a[6].equals("-")) {
            g.setTimeRange(Long.parseLong(a[6]), Long.parseLong(a[7]));
          }
          g.readVersions(Integer.parseInt(a[8]));
          try (Table t = c.getTable(name)) {
            print(t.get(g));
          }
          break;
        }
        default:
          throw new IllegalArgumentException("unknown command " + a[0]);
      }
    }
  }

  private static void columns(String cols, Scan s, Get g) {
    if (cols.equals("-")) {
      return;
    }
    for (String col : cols.split(",")) {
      int i = col.indexOf(':');
      if (i < 0) {
        if (s != null) {
          s.addFamily(Bytes.toBytes(col));
        } else {
          g.addFamily(Bytes.toBytes(col));
        }
        continue;
      }
      byte[] f = Bytes.toBytes(col.substring(0, i));
      byte[] q = Bytes.toBytesBinary(col.substring(i + 1));
      if (s != null) {
        s.addColumn(f, q);
      } else {
        g.addColumn(f, q);
      }
    }
  }

  private static void print(Result r) {
    for (Cell cell : r.rawCells()) {
      System.out.println(Bytes.toStringBinary(CellUtil.cloneRow(cell)) + "/"
          + Bytes.toStringBinary(CellUtil.cloneFamily(cell)) + ":"
          + Bytes.toStringBinary(CellUtil.cloneQualifier(cell)) + "/" + cell.getTimestamp() + "/"
          + Bytes.toStringBinary(CellUtil.cloneValue(cell)));
    }
  }

  private static void write(Connection c, TableName name) throws Exception {
    try (Admin admin = c.getAdmin()) {
      if (admin.tableExists(name)) {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f")).setMaxVersions(5).build())
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("g")).setMaxVersions(5).build())
          .build(), new byte[][] {Bytes.toBytes("u2")});
    }
    byte[][] keys = {
        Bytes.toBytes("u1"), Bytes.toBytes("u10"), Bytes.toBytes("u100"), Bytes.toBytes("u11"),
        Bytes.add(Bytes.toBytes("u1"), new byte[] {0, (byte) 0xff}), Bytes.toBytes("u2"), Bytes.toBytes("u20"),
        new byte[] {0, 1, 2}, new byte[] {(byte) 0xff, (byte) 0xfe}, Bytes.toBytes("v"),
        Bytes.add(Bytes.toBytes("u1"), Bytes.toBytes(42L)),
    };
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      for (int v = 0; v < 3; v++) {
        long ts = 1000L * (i + 1) + 100L * v;
        Put p = new Put(keys[i]);
        p.addColumn(Bytes.toBytes("f"), Bytes.toBytes("a"), ts, Bytes.toBytes((long) (i * 10 + v)));
        if (v < 2) {
          p.addColumn(Bytes.toBytes("f"), Bytes.toBytes("b"), ts + 1, Bytes.toBytes("text " + i + "." + v));
        }
        if (i % 2 == 0) {
          p.addColumn(Bytes.toBytes("g"), new byte[] {1, 'q'}, ts + 2, Bytes.toBytes(i * 1.5 + v));
          p.addColumn(Bytes.toBytes("g"), Bytes.toBytes("a"), ts + 3, Bytes.toBytes(i + v));
        }
        puts.add(p);
      }
    }
    try (Table t = c.getTable(name)) {
      t.put(puts);
    }
  }
}

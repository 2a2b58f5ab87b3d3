import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The HBase Java client as the oracle of rkql's reads as of a time.
 * Commands, one a line on standard input (each command's output is
 * followed by "--"):
 *
 * <pre>
 *   apply QUORUM PORT TABLE OP…
 *     creates TABLE with family f (1000 versions) and applies each OP in
 *     order, one mutation each: p,ROW,QUALIFIER,VALUE,TS is a Put;
 *     c,ROW,QUALIFIER,TS a Delete.addColumns (every version at or before
 *     TS); r,ROW,TS a row Delete at TS;
 *   scan QUORUM PORT TABLE TO
 *     prints every cell Scan.setTimeRange(0, TO) returns (one version),
 *     one line each: row/qualifier/timestamp/value.
 * </pre>
 */
public final class AsOfCells {
  private static final byte[] F = Bytes.toBytes("f");

  private AsOfCells() {
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
        case "apply":
          apply(c, name, a);
          break;
        case "scan": {
          Scan s = new Scan();
          s.setTimeRange(0, Long.parseLong(a[4]));
          try (Table t = c.getTable(name); ResultScanner rs = t.getScanner(s)) {
            for (Result r : rs) {
              for (Cell cell : r.rawCells()) {
                System.out.println(Bytes.toString(CellUtil.cloneRow(cell)) + "/"
                    + Bytes.toString(CellUtil.cloneQualifier(cell)) + "/" + cell.getTimestamp() + "/"
                    + Bytes.toString(CellUtil.cloneValue(cell)));
              }
            }
          }
          break;
        }
        default:
          throw new IllegalArgumentException("unknown command " + a[0]);
      }
    }
  }

  private static void apply(Connection c, TableName name, String[] a) throws Exception {
    try (Admin admin = c.getAdmin()) {
      if (admin.tableExists(name)) {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(1000).build())
          .build());
    }
    try (Table t = c.getTable(name)) {
      for (int i = 4; i < a.length; i++) {
        String[] op = a[i].split(",");
        byte[] row = Bytes.toBytes(op[1]);
        switch (op[0]) {
          case "p":
            t.put(new Put(row).addColumn(F, Bytes.toBytes(op[2]), Long.parseLong(op[4]), Bytes.toBytes(op[3])));
            break;
          case "c":
            t.delete(new Delete(row).addColumns(F, Bytes.toBytes(op[2]), Long.parseLong(op[3])));
            break;
          case "r":
            t.delete(new Delete(row, Long.parseLong(op[2])));
            break;
          default:
            throw new IllegalArgumentException("unknown op " + a[i]);
        }
      }
    }
  }
}

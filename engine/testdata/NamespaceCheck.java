import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What HBase's Java client sees of a namespace.
 *
 * <pre>
 * NamespaceCheck namespace HOST PORT NS
 *   "absent" when Admin.listNamespaceDescriptors does not list NS, else
 *   "tables:" and the names of its tables, sorted, comma-separated
 * NamespaceCheck rows HOST PORT TABLE
 *   each cell of the table, "row family:qualifier=value" a line
 * NamespaceCheck serve
 *   reads such commands a line each from standard input, and prints "--"
 *   after each answer
 * </pre>
 */
public final class NamespaceCheck {
  private NamespaceCheck() {
  }

  private static Connection conn;

  public static void main(String[] args) throws Exception {
    if (!args[0].equals("serve")) {
      System.out.println(check(args));
      return;
    }
    java.io.BufferedReader in = new java.io.BufferedReader(
        new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      System.out.println(check(line.trim().split(" ")));
      System.out.println("--");
      System.out.flush();
    }
  }

  private static String check(String[] args) throws Exception {
    if (conn == null) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", args[1]);
      conf.set("hbase.zookeeper.property.clientPort", args[2]);
      conn = ConnectionFactory.createConnection(conf);
    }
    try (Admin admin = conn.getAdmin()) {
      switch (args[0]) {
        case "namespace": {
          boolean found = false;
          for (NamespaceDescriptor d : admin.listNamespaceDescriptors()) {
            found |= d.getName().equals(args[3]);
          }
          if (!found) {
            return "absent";
          }
          List<String> names = new ArrayList<>();
          for (TableName tn : admin.listTableNamesByNamespace(args[3])) {
            names.add(tn.getNameAsString());
          }
          Collections.sort(names);
          return "tables:" + String.join(",", names);
        }
        case "rows": {
          StringBuilder b = new StringBuilder();
          try (Table t = conn.getTable(TableName.valueOf(args[3]));
              ResultScanner rs = t.getScanner(new Scan())) {
            for (Result r : rs) {
              for (Cell c : r.rawCells()) {
                if (b.length() > 0) {
                  b.append("\n");
                }
                b.append(Bytes.toStringBinary(CellUtil.cloneRow(c))).append(' ')
                    .append(Bytes.toStringBinary(CellUtil.cloneFamily(c))).append(':')
                    .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append('=')
                    .append(Bytes.toStringBinary(CellUtil.cloneValue(c)));
              }
            }
          }
          return b.toString();
        }
        default:
          System.err.println("usage: NamespaceCheck namespace|rows HOST PORT NAME");
          System.exit(2);
          return "";
      }
    }
  }
}

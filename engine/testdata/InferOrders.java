import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;

/**
 * Writes an orders table as a Java application keys it:
 * md5Hex(seller).substring(0, 4) + seller + "|" +
 * Bytes.toBytes(Long.MAX_VALUE - ts) + Bytes.toBytes(orderId), with cells
 * d:buyer (text), d:amount (Bytes.toBytes(double)) and d:status (text),
 * in 16 regions split by HexStringSplit. Prints each row it wrote:
 * seller, ts, orderId, buyer, amount, status, tab-separated.
 *
 * <pre>
 * InferOrders write ZK_QUORUM ZK_PORT TABLE N
 * InferOrders drop ZK_QUORUM ZK_PORT TABLE
 * </pre>
 */
public final class InferOrders {
  private InferOrders() {
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[1]);
    conf.set("hbase.zookeeper.property.clientPort", args[2]);
    TableName name = TableName.valueOf(args[3]);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (args[0].equals("drop")) {
        if (admin.tableExists(name)) {
          admin.disableTable(name);
          admin.deleteTable(name);
        }
        return;
      }
      byte[][] splits = new RegionSplitter.HexStringSplit().split(16);
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d")).build(), splits);
      int n = Integer.parseInt(args[4]);
      Random rnd = new Random(42);
      String[] statuses = {"new", "paid", "shipped", "cancelled"};
      List<Put> puts = new ArrayList<>();
      StringBuilder out = new StringBuilder();
      long epoch = 1714521600000L; // 2024-05-01
      for (int i = 0; i < n; i++) {
        String seller = "s" + rnd.nextInt(40);
        long ts = epoch + (long) (rnd.nextDouble() * 7 * 86400000L);
        long orderId = 1000L * (i + 1) + rnd.nextInt(1000);
        String buyer = "b" + rnd.nextInt(300);
        double amount = rnd.nextInt(100000) / 100.0;
        String status = statuses[rnd.nextInt(statuses.length)];
        byte[] key = Bytes.add(
            Bytes.toBytes(md5Hex(seller).substring(0, 4) + seller + "|"),
            Bytes.toBytes(Long.MAX_VALUE - ts), Bytes.toBytes(orderId));
        Put p = new Put(key);
        p.addColumn(Bytes.toBytes("d"), Bytes.toBytes("buyer"), Bytes.toBytes(buyer));
        p.addColumn(Bytes.toBytes("d"), Bytes.toBytes("amount"), Bytes.toBytes(amount));
        p.addColumn(Bytes.toBytes("d"), Bytes.toBytes("status"), Bytes.toBytes(status));
        puts.add(p);
        out.append(seller).append('\t').append(ts).append('\t').append(orderId).append('\t')
            .append(buyer).append('\t').append(amount).append('\t').append(status).append('\n');
      }
      try (Table t = conn.getTable(name)) {
        t.put(puts);
      }
      System.out.print(out);
    }
  }

  private static String md5Hex(String s) throws Exception {
    byte[] d = MessageDigest.getInstance("MD5").digest(s.getBytes("UTF-8"));
    StringBuilder b = new StringBuilder();
    for (byte x : d) {
      b.append(String.format("%02x", x));
    }
    return b.toString();
  }
}

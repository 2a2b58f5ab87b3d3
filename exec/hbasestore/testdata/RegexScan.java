import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The HBase Java client as the oracle of REGEXP_LIKE's pushdown. Usage:
 *
 * <pre>
 *   RegexScan QUORUM PORT TABLE FAMILY QUALIFIER PATTERN
 * </pre>
 *
 * scans TABLE with a SingleColumnValueFilter (EQUAL, filterIfMissing,
 * latest version only) of a RegexStringComparator of PATTERN over
 * FAMILY:QUALIFIER and prints each row key it returns, as UTF-8, one a
 * line.
 */
public final class RegexScan {
  private RegexScan() {
  }

  public static void main(String[] a) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", a[0]);
    conf.set("hbase.zookeeper.property.clientPort", a[1]);
    conf.setInt("hbase.client.retries.number", 5);
    SingleColumnValueFilter f = new SingleColumnValueFilter(Bytes.toBytes(a[3]), Bytes.toBytes(a[4]),
        CompareOperator.EQUAL, new RegexStringComparator(a[5]));
    f.setFilterIfMissing(true);
    f.setLatestVersionOnly(true);
    try (Connection c = ConnectionFactory.createConnection(conf);
        Table t = c.getTable(TableName.valueOf(a[2]));
        ResultScanner rs = t.getScanner(new Scan().setFilter(f))) {
      for (Result r : rs) {
        System.out.println(Bytes.toString(r.getRow()));
      }
    }
  }
}

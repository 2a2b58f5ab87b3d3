import java.io.IOException;
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
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import net.opentsdb.core.Aggregators;
import net.opentsdb.core.DataPoint;
import net.opentsdb.core.DataPoints;
import net.opentsdb.core.Query;
import net.opentsdb.core.TSDB;
import net.opentsdb.utils.Config;
import net.opentsdb.utils.DateTime;

/**
 * Runs OpenTSDB 2.4.1's own code against an HBase, for rkql's
 * interoperability test. Arguments: the ZooKeeper quorum, the data table
 * (its uid, tree and meta tables are named table-uid, table-tree and
 * table-meta), then a command:
 *
 * <pre>
 * read METRIC TAGK=TAGV START END
 *     prints each point of the series from START to END (seconds) through
 *     TsdbQuery with the none aggregator, one a line:
 *     "MILLIS i LONG" for an integer, "MILLIS f BITS" for a float, BITS
 *     being Double.doubleToRawLongBits in hex
 * query AGGREGATOR DOWNSAMPLE METRIC TAGS START END
 *     runs TsdbQuery with AGGREGATOR (none, sum, avg, ...), downsampled
 *     by DOWNSAMPLE (1h-avg, or - for none), over the series whose tags
 *     are TAGS (- for every series), and prints each time series it
 *     answers as "series {k=v, ...}" (its tags) and then its points as
 *     read does
 * write APPENDS METRIC TAGK=TAGV
 *     reads points from standard input, one a line, "TIME i LONG",
 *     "TIME d DOUBLE" or "TIME f FLOAT" (TIME in seconds, or milliseconds
 *     as OpenTSDB tells them), and writes them with TSDB.addPoint, with
 *     tsd.storage.enable_appends set to APPENDS; prints "ok"
 * </pre>
 *
 * TAGK=TAGV may be several pairs, joined by commas.
 *
 * Salting is OpenTSDB's with width 1 and 20 buckets, as rkql's
 * examples/opentsdb.yaml has it; compaction is off, so that a read
 * rewrites nothing.
 */
public final class OpenTSDBHarness {
  private static final long DEADLINE_MS = 180_000;

  public static void main(final String[] args) throws Exception {
    if (args.length < 3) {
      throw new IllegalArgumentException("usage: OpenTSDBHarness ZK TABLE read|write ...");
    }
    final String zk = args[0];
    final String table = args[1];
    final String cmd = args[2];
    // A deadline: an HBase or ZooKeeper that never answers fails the run
    // instead of hanging it.
    final Thread deadline = new Thread(() -> {
      try {
        Thread.sleep(DEADLINE_MS);
      } catch (InterruptedException e) {
        return;
      }
      System.err.println("OpenTSDBHarness: no answer within " + DEADLINE_MS / 1000 + " s");
      Runtime.getRuntime().halt(2);
    });
    deadline.setDaemon(true);
    deadline.start();
    final boolean appends = cmd.equals("write") && Boolean.parseBoolean(args[3]);
    final TSDB tsdb = new TSDB(config(zk, table, appends));
    try {
      switch (cmd) {
        case "read":
          read(tsdb, args[3], tags(args[4]), Long.parseLong(args[5]), Long.parseLong(args[6]));
          break;
        case "write":
          write(tsdb, args[4], tags(args[5]));
          break;
        case "query":
          query(tsdb, args[3], args[4], args[5], args[6].equals("-") ? new HashMap<String, String>() : tags(args[6]),
              Long.parseLong(args[7]), Long.parseLong(args[8]));
          break;
        default:
          throw new IllegalArgumentException("unknown command " + cmd);
      }
    } finally {
      tsdb.shutdown().joinUninterruptibly();
    }
  }

  private static Config config(final String zk, final String table, final boolean appends) throws Exception {
    final Config c = new Config(false);
    c.overrideConfig("tsd.storage.hbase.zk_quorum", zk);
    c.overrideConfig("tsd.storage.hbase.data_table", table);
    c.overrideConfig("tsd.storage.hbase.uid_table", table + "-uid");
    c.overrideConfig("tsd.storage.hbase.tree_table", table + "-tree");
    c.overrideConfig("tsd.storage.hbase.meta_table", table + "-meta");
    c.overrideConfig("tsd.storage.salt.width", "1");
    c.overrideConfig("tsd.storage.salt.buckets", "20");
    c.overrideConfig("tsd.storage.enable_compaction", "false");
    c.overrideConfig("tsd.storage.enable_appends", Boolean.toString(appends));
    c.overrideConfig("tsd.core.auto_create_metrics", "true");
    return c;
  }

  private static Map<String, String> tags(final String pairs) {
    final Map<String, String> tags = new HashMap<String, String>();
    for (final String pair : pairs.split(",")) {
      final int eq = pair.indexOf('=');
      tags.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return tags;
  }

  private static void query(final TSDB tsdb, final String agg, final String downsample, final String metric,
      final Map<String, String> tags, final long start, final long end) throws Exception {
    final Query q = tsdb.newQuery();
    q.setStartTime(start);
    q.setEndTime(end);
    q.setTimeSeries(metric, tags, Aggregators.get(agg), false);
    if (!downsample.equals("-")) {
      final int dash = downsample.indexOf('-');
      q.downsample(DateTime.parseDuration(downsample.substring(0, dash)), Aggregators.get(downsample.substring(dash + 1)));
    }
    final StringBuilder out = new StringBuilder();
    for (final DataPoints dps : q.run()) {
      out.append("series ").append(new TreeMap<String, String>(dps.getTags())).append('\n');
      points(out, dps);
    }
    System.out.print(out);
  }

  private static void points(final StringBuilder out, final DataPoints dps) {
    for (final DataPoint dp : dps) {
      if (dp.isInteger()) {
        out.append(dp.timestamp()).append(" i ").append(dp.longValue()).append('\n');
      } else {
        out.append(dp.timestamp()).append(" f ")
            .append(Long.toHexString(Double.doubleToRawLongBits(dp.doubleValue()))).append('\n');
      }
    }
  }

  private static void read(final TSDB tsdb, final String metric, final Map<String, String> tags,
      final long start, final long end) throws Exception {
    final Query q = tsdb.newQuery();
    q.setStartTime(start);
    q.setEndTime(end);
    q.setTimeSeries(metric, tags, Aggregators.NONE, false);
    final StringBuilder out = new StringBuilder();
    for (final DataPoints dps : q.run()) {
      for (final DataPoint dp : dps) {
        if (dp.isInteger()) {
          out.append(dp.timestamp()).append(" i ").append(dp.longValue()).append('\n');
        } else {
          out.append(dp.timestamp()).append(" f ")
              .append(Long.toHexString(Double.doubleToRawLongBits(dp.doubleValue()))).append('\n');
        }
      }
    }
    System.out.print(out);
  }

  private static void write(final TSDB tsdb, final String metric, final Map<String, String> tags)
      throws Exception {
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isEmpty()) {
        continue;
      }
      final String[] f = line.split(" ");
      final long ts = Long.parseLong(f[0]);
      switch (f[1]) {
        case "i":
          tsdb.addPoint(metric, ts, Long.parseLong(f[2]), tags).joinUninterruptibly();
          break;
        case "d":
          tsdb.addPoint(metric, ts, Double.parseDouble(f[2]), tags).joinUninterruptibly();
          break;
        case "f":
          tsdb.addPoint(metric, ts, Float.parseFloat(f[2]), tags).joinUninterruptibly();
          break;
        default:
          throw new IllegalArgumentException("unknown value kind in " + line);
      }
    }
    tsdb.flush().joinUninterruptibly();
    System.out.println("ok");
  }
}

// PhoenixSQL runs SQL statements through Apache Phoenix's JDBC driver and
// prints what each one did as JSON lines, for rkql's tests against a
// Phoenix HBase (scripts/phoenix/sql is its wrapper; scripts/hbase/up runs
// it once to make the first connection).
//
// Usage: PhoenixSQL --url jdbc:phoenix:HOST:PORT [--continue] [--batch N]
//                   [--timeout SECONDS] [SQL ...]
//
// The statements come from the arguments, or from stdin when there are
// none, separated by ';' (outside quotes and comments). They are numbered
// from 1 in order. Each is committed when it has run, unless --batch N:
// then the writes are committed every N statements, before each query and
// at the end. Output, one JSON object a line:
//
//   {"stmt":N,"columns":[{"name":"K","type":"VARCHAR"},...]}  a query's columns
//   {"stmt":N,"row":[v,...]}                                  one row per line
//   {"stmt":N,"end":true,"rows":R}                            the query's end
//   {"stmt":N,"update":C}                                     any other statement
//   {"stmt":N,"error":"message"}                              a failed statement
//
// Values are typed: SQL NULL is null; integers and DECIMAL are JSON
// numbers, exact (DECIMAL in plain notation); FLOAT and DOUBLE are JSON
// numbers as Java prints them (Float.toString for FLOAT), or the strings
// "NaN", "Infinity", "-Infinity"; BOOLEAN is true or false; CHAR and
// VARCHAR are strings; BINARY and VARBINARY are strings of lower-case
// hex; DATE, TIME and TIMESTAMP are ISO 8601 UTC strings
// (2024-05-01T12:00:00.123Z, a TIMESTAMP with its nanoseconds, no
// fraction when it is zero); ARRAYs are JSON arrays of such values.
//
// A failed statement stops the run (exit status 1) unless --continue, which
// goes on with the next one and still exits 1. --timeout makes the program
// exit with status 3 after that many seconds. A failed connection is one
// line on stderr and exit status 1.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

public class PhoenixSQL {
  static PrintStream out;

  public static void main(String[] args) throws Exception {
    out = new PrintStream(System.out, false, "UTF-8");
    String url = null;
    boolean cont = false;
    int batch = 1;
    long timeout = 0;
    StringBuilder text = new StringBuilder();
    boolean fromArgs = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--url":
          url = args[++i];
          break;
        case "--continue":
          cont = true;
          break;
        case "--batch":
          batch = Integer.parseInt(args[++i]);
          if (batch < 1) usage("--batch wants a number from 1");
          break;
        case "--timeout":
          timeout = Long.parseLong(args[++i]);
          break;
        default:
          if (args[i].startsWith("--")) usage("unknown flag " + args[i]);
          text.append(args[i]).append(";\n");
          fromArgs = true;
      }
    }
    if (url == null) usage("--url is required");
    if (timeout > 0) {
      final long ms = timeout * 1000;
      Thread t = new Thread(() -> {
        try {
          Thread.sleep(ms);
        } catch (InterruptedException e) {
          return;
        }
        System.err.println("phoenix-sql: timed out after " + (ms / 1000) + "s");
        Runtime.getRuntime().halt(3);
      });
      t.setDaemon(true);
      t.start();
    }
    if (!fromArgs) {
      BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      char[] buf = new char[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) text.append(buf, 0, n);
    }
    List<String> stmts = split(text.toString());
    int rc = run(url, stmts, cont, batch);
    out.flush();
    System.out.flush();
    // Phoenix's client leaves non-daemon threads behind.
    System.exit(rc);
  }

  static void usage(String msg) {
    System.err.println("phoenix-sql: " + msg);
    System.err.println("usage: PhoenixSQL --url jdbc:phoenix:HOST:PORT [--continue] [--batch N] [--timeout S] [SQL ...]");
    System.exit(2);
  }

  static int run(String url, List<String> stmts, boolean cont, int batch) {
    Connection conn;
    try {
      conn = DriverManager.getConnection(url);
      conn.setAutoCommit(false);
    } catch (Throwable e) {
      System.err.println("phoenix-sql: connect " + url + ": " + oneLine(e));
      return 1;
    }
    int rc = 0, pending = 0;
    for (int i = 0; i < stmts.size(); i++) {
      int n = i + 1;
      String sql = stmts.get(i);
      try (Statement st = conn.createStatement()) {
        if (isQuery(sql) && pending > 0) {
          conn.commit();
          pending = 0;
        }
        if (st.execute(sql)) {
          try (ResultSet rs = st.getResultSet()) {
            query(n, rs);
          }
        } else {
          int count = st.getUpdateCount();
          pending++;
          if (pending >= batch || i == stmts.size() - 1) {
            conn.commit();
            pending = 0;
          }
          out.println("{\"stmt\":" + n + ",\"update\":" + count + "}");
        }
      } catch (Throwable e) {
        out.println("{\"stmt\":" + n + ",\"error\":" + str(oneLine(e)) + "}");
        out.flush();
        rc = 1;
        pending = 0;
        try {
          conn.rollback();
        } catch (Throwable ignored) {
          // The statement's error is the one to report.
        }
        if (!cont) break;
      }
      out.flush();
    }
    if (pending > 0) {
      try {
        conn.commit();
      } catch (Throwable e) {
        out.println("{\"stmt\":" + stmts.size() + ",\"error\":" + str("commit: " + oneLine(e)) + "}");
        rc = 1;
      }
    }
    try {
      conn.close();
    } catch (Throwable ignored) {
      // Closing cannot lose committed work.
    }
    return rc;
  }

  static boolean isQuery(String sql) {
    String s = sql.stripLeading().toUpperCase();
    return s.startsWith("SELECT") || s.startsWith("EXPLAIN") || s.startsWith("WITH");
  }

  static void query(int n, ResultSet rs) throws Exception {
    ResultSetMetaData md = rs.getMetaData();
    int cols = md.getColumnCount();
    StringBuilder b = new StringBuilder("{\"stmt\":").append(n).append(",\"columns\":[");
    for (int c = 1; c <= cols; c++) {
      if (c > 1) b.append(',');
      b.append("{\"name\":").append(str(md.getColumnLabel(c)))
        .append(",\"type\":").append(str(md.getColumnTypeName(c))).append('}');
    }
    out.println(b.append("]}"));
    long rows = 0;
    while (rs.next()) {
      b = new StringBuilder("{\"stmt\":").append(n).append(",\"row\":[");
      for (int c = 1; c <= cols; c++) {
        if (c > 1) b.append(',');
        Object v = rs.getObject(c);
        if (v instanceof java.sql.Array) {
          v = ((java.sql.Array) v).getArray();
        }
        value(b, v);
      }
      out.println(b.append("]}"));
      rows++;
    }
    out.println("{\"stmt\":" + n + ",\"end\":true,\"rows\":" + rows + "}");
  }

  static void value(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      b.append(v);
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        b.append(str(v.toString()));
      } else {
        b.append(v);
      }
    } else if (v instanceof BigDecimal) {
      b.append(((BigDecimal) v).toPlainString());
    } else if (v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof byte[]) {
      b.append('"');
      for (byte x : (byte[]) v) b.append(String.format("%02x", x & 0xff));
      b.append('"');
    } else if (v instanceof Timestamp) {
      b.append(str(((Timestamp) v).toInstant().toString()));
    } else if (v instanceof java.util.Date) {
      b.append(str(Instant.ofEpochMilli(((java.util.Date) v).getTime()).toString()));
    } else if (v.getClass().isArray()) {
      b.append('[');
      for (int i = 0; i < Array.getLength(v); i++) {
        if (i > 0) b.append(',');
        value(b, Array.get(v, i));
      }
      b.append(']');
    } else {
      b.append(str(v.toString()));
    }
  }

  static String oneLine(Throwable e) {
    String m = e.getMessage();
    if (m == null || m.isEmpty()) m = e.getClass().getName();
    return m.replaceAll("\\s*\\n\\s*", " ").trim();
  }

  static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }

  // split cuts text into statements at each ';' outside '...' strings,
  // "..." identifiers, -- line comments and /* */ comments; it drops
  // statements that are only blanks and comments.
  static List<String> split(String text) {
    List<String> stmts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean content = false;
    int i = 0, n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\'' || c == '"') {
        int j = i + 1;
        while (j < n) {
          if (text.charAt(j) == c) {
            if (j + 1 < n && text.charAt(j + 1) == c) {
              j += 2;
              continue;
            }
            break;
          }
          j++;
        }
        j = Math.min(j + 1, n);
        cur.append(text, i, j);
        content = true;
        i = j;
      } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
        int j = text.indexOf('\n', i);
        i = j < 0 ? n : j;
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int j = text.indexOf("*/", i + 2);
        i = j < 0 ? n : j + 2;
        cur.append(' ');
      } else if (c == ';') {
        if (content) stmts.add(cur.toString().trim());
        cur.setLength(0);
        content = false;
        i++;
      } else {
        if (!Character.isWhitespace(c)) content = true;
        cur.append(c);
        i++;
      }
    }
    if (content) stmts.add(cur.toString().trim());
    return stmts;
  }
}

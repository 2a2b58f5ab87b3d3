// PhoenixBytes prints the bytes Apache Phoenix writes, for rkql's tests of
// its Phoenix encodings (catalog/phoenix_java_test.go). It needs no HBase
// server: values go through Phoenix's own PDataType classes, and rows
// through a connectionless Phoenix connection, whose uncommitted mutations
// are the keys and cells an UPSERT would send.
//
// It reads requests from stdin, one a line, fields separated by tabs, and
// answers each with one line on stdout ("ERR <message>" when Phoenix
// refuses):
//
//   enc <TYPE> <ASC|DESC> <value>   the bytes of toBytes(value, order), hex
//   dec <TYPE> <ASC|DESC> <hex>     the value toObject reads from the bytes
//   sql <statement>                 runs a statement; answers "ok"
//   rows                            the uncommitted cells, then rolls back:
//                                   "row <key> <family> <qualifier> <value> <type>"
//                                   per cell (all hex but the type: Put,
//                                   DeleteColumn, DeleteFamily, …), then "end"
//
// Values are written as the Go test writes them: integers in decimal,
// FLOAT and DOUBLE as the hex of their IEEE bits, DECIMAL as text,
// BOOLEAN as true or false, DATE and TIME as milliseconds, TIMESTAMP as
// milliseconds and nanoseconds within the millisecond ("ms,ns"), VARCHAR
// and CHAR as the hex of their UTF-8, BINARY and VARBINARY as hex.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Timestamp;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.phoenix.schema.SortOrder;
import org.apache.phoenix.schema.types.PDataType;
import org.apache.phoenix.util.PhoenixRuntime;

public class PhoenixBytes {
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    BufferedReader in =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Connection conn = null;
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.split("\t", -1);
      try {
        switch (f[0]) {
          case "enc": {
            PDataType t = PDataType.fromSqlTypeName(f[1]);
            out.println(hex(t.toBytes(parse(f[1], f[3]), SortOrder.valueOf(f[2]))));
            break;
          }
          case "dec": {
            PDataType t = PDataType.fromSqlTypeName(f[1]);
            byte[] b = unhex(f[3]);
            out.println(render(f[1], t.toObject(b, 0, b.length, t, SortOrder.valueOf(f[2]))));
            break;
          }
          case "sql":
            if (conn == null) {
              conn = DriverManager.getConnection("jdbc:phoenix:none");
              conn.setAutoCommit(false);
            }
            conn.createStatement().execute(f[1]);
            out.println("ok");
            break;
          case "rows": {
            Iterator<Pair<byte[], List<Cell>>> it = PhoenixRuntime.getUncommittedDataIterator(conn);
            while (it.hasNext()) {
              for (Cell c : it.next().getSecond()) {
                out.println("row " + hex(CellUtil.cloneRow(c)) + " " + hex(CellUtil.cloneFamily(c))
                  + " " + hex(CellUtil.cloneQualifier(c)) + " " + hex(CellUtil.cloneValue(c))
                  + " " + c.getType());
              }
            }
            conn.rollback();
            out.println("end");
            break;
          }
          default:
            out.println("ERR unknown request " + f[0]);
        }
      } catch (Throwable e) {
        out.println("ERR " + String.valueOf(e).replace('\n', ' '));
      }
      out.flush();
    }
    out.flush();
  }

  static Object parse(String type, String v) {
    switch (type) {
      case "TINYINT":
      case "UNSIGNED_TINYINT":
        return Byte.valueOf(Byte.parseByte(v));
      case "SMALLINT":
      case "UNSIGNED_SMALLINT":
        return Short.valueOf(Short.parseShort(v));
      case "INTEGER":
      case "UNSIGNED_INT":
        return Integer.valueOf(Integer.parseInt(v));
      case "BIGINT":
      case "UNSIGNED_LONG":
        return Long.valueOf(Long.parseLong(v));
      case "FLOAT":
      case "UNSIGNED_FLOAT":
        return Float.valueOf(Float.intBitsToFloat((int) Long.parseLong(v, 16)));
      case "DOUBLE":
      case "UNSIGNED_DOUBLE":
        return Double.valueOf(Double.longBitsToDouble(Long.parseUnsignedLong(v, 16)));
      case "DECIMAL":
        return new BigDecimal(v);
      case "BOOLEAN":
        return Boolean.valueOf(v);
      case "DATE":
      case "UNSIGNED_DATE":
        return new java.sql.Date(Long.parseLong(v));
      case "TIME":
      case "UNSIGNED_TIME":
        return new java.sql.Time(Long.parseLong(v));
      case "TIMESTAMP":
      case "UNSIGNED_TIMESTAMP": {
        String[] p = v.split(",");
        Timestamp ts = new Timestamp(Long.parseLong(p[0]));
        ts.setNanos(ts.getNanos() + Integer.parseInt(p[1]));
        return ts;
      }
      case "VARCHAR":
      case "CHAR":
        return new String(unhex(v), StandardCharsets.UTF_8);
      default:
        return unhex(v);
    }
  }

  static String render(String type, Object o) {
    if (o == null) {
      return "NULL";
    }
    switch (type) {
      case "FLOAT":
      case "UNSIGNED_FLOAT":
        return Integer.toHexString(Float.floatToRawIntBits((Float) o));
      case "DOUBLE":
      case "UNSIGNED_DOUBLE":
        return Long.toHexString(Double.doubleToRawLongBits((Double) o));
      case "DECIMAL":
        return ((BigDecimal) o).toPlainString();
      case "DATE":
      case "UNSIGNED_DATE":
      case "TIME":
      case "UNSIGNED_TIME":
        return Long.toString(((java.util.Date) o).getTime());
      case "TIMESTAMP":
      case "UNSIGNED_TIMESTAMP": {
        Timestamp ts = (Timestamp) o;
        return ts.getTime() + "," + (ts.getNanos() % 1000000);
      }
      case "VARCHAR":
      case "CHAR":
        return hex(((String) o).getBytes(StandardCharsets.UTF_8));
      case "BINARY":
      case "VARBINARY":
        return hex((byte[]) o);
      default:
        return String.valueOf(o);
    }
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xFF));
    }
    return s.length() == 0 ? "-" : s.toString();
  }

  static byte[] unhex(String s) {
    if (s.equals("-")) {
      return new byte[0];
    }
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }
}

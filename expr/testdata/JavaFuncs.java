import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Pattern;

// Reads lines of tab-separated hex-encoded UTF-8 fields: an operation
// and its arguments; writes one hex-encoded result a line.
//   md5 s | hash s | find pattern s | replace pattern replacement s
public class JavaFuncs {
    static String unhex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        MessageDigest md = MessageDigest.getInstance("MD5");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            String out;
            switch (f[0]) {
                case "md5":
                    out = hex(md.digest(unhex(f[1]).getBytes(StandardCharsets.UTF_8)));
                    break;
                case "hash":
                    out = Integer.toString(unhex(f[1]).hashCode());
                    break;
                case "find":
                    out = Boolean.toString(Pattern.compile(unhex(f[1])).matcher(unhex(f[2])).find());
                    break;
                case "replace":
                    out = unhex(f[3]).replaceAll(unhex(f[1]), unhex(f[2]));
                    break;
                default:
                    throw new IllegalArgumentException(f[0]);
            }
            System.out.println(hex(out.getBytes(StandardCharsets.UTF_8)));
        }
    }
}

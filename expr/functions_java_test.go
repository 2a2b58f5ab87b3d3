package expr

import (
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// runJava compiles testdata/JavaFuncs.java and feeds it lines; it skips
// without a JDK, and fails instead when RKQL_REQUIRE_HBASE=1.
func runJava(t *testing.T, lines [][]string) []string {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err == nil {
		_, err = exec.LookPath("java")
	}
	if err != nil {
		if os.Getenv("RKQL_REQUIRE_HBASE") == "1" {
			t.Fatalf("a JDK is required (RKQL_REQUIRE_HBASE=1): %v", err)
		}
		t.Skipf("no JDK: %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(javac, "-d", dir, "testdata/JavaFuncs.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	var in strings.Builder
	for _, l := range lines {
		for i, f := range l {
			if i > 0 {
				in.WriteByte('\t')
				f = hex.EncodeToString([]byte(f))
			}
			in.WriteString(f)
		}
		in.WriteByte('\n')
	}
	cmd := exec.Command("java", "-cp", dir, "JavaFuncs")
	cmd.Stdin = strings.NewReader(in.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, stderr.String())
	}
	res := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(res) != len(lines) {
		t.Fatalf("java gave %d results for %d lines", len(res), len(lines))
	}
	for i, h := range res {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = string(b)
	}
	return res
}

// javaPatterns are accepted patterns; the random ones are built from
// javaAtoms.
var javaPatterns = []string{
	`a`, `^a`, `a.b`, `(?s)a.b`, `\s+`, `[\s_]`, `\S\S`, `[2-4]{4}`, `[^ab]+`, `(a|ab)(c|bcd)`, `a*?b`, `(?<w>[a-z]+)-(\d+)`,
	`\x41|\u00e9`, `\w+\z`, `\Aab`, `[.]\.`, `x{2,}`, `(é|e)+`, `\t|\n`, `a+?`, `\e`,
}

var javaAtoms = []string{`a`, `b`, `é`, `.`, `\s`, `\S`, `\d`, `\w`, `[ab]`, `[^a\s]`, `(a|b)`, `(?:ab)`, `\n`, `\r`, ` `, `^`, `\z`}
var javaQuants = []string{``, ``, `*`, `+`, `?`, `{2}`, `{1,2}`, `*?`, `+?`}

func randomPattern(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(4) {
		b.WriteString(javaAtoms[rng.IntN(len(javaAtoms))] + javaQuants[rng.IntN(len(javaQuants))])
	}
	return b.String()
}

func randomText(rng *rand.Rand) string {
	rs := []rune("abé1 _-\r\n\u0085\u2028\x0b\t\U0001F600")
	var b strings.Builder
	for range rng.IntN(8) {
		b.WriteRune(rs[rng.IntN(len(rs))])
	}
	return b.String()
}

func call(t *testing.T, name string, args ...catalog.Value) (catalog.Value, error) {
	t.Helper()
	sc := make([]Scalar, len(args))
	for i, a := range args {
		sc[i] = &Lit{V: a}
	}
	f, err := LookupFunction(name).Build(Call{Args: sc})
	if err != nil {
		return catalog.Value{}, err
	}
	return f.Value(nil)
}

// MD5, HASHCODE, REGEXP_LIKE and REGEXP_REPLACE give what Java gives:
// MessageDigest, String.hashCode, Matcher.find and String.replaceAll.
func TestFunctionsAgainstJava(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	type tc struct {
		line []string
		rkql string
	}
	var cases []tc
	str := func(v catalog.Value, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		return v.Text()
	}
	for range 200 {
		s := randomText(rng)
		cases = append(cases,
			tc{[]string{"md5", s}, str(call(t, "MD5", catalog.String(s)))},
			tc{[]string{"hash", s}, str(call(t, "HASHCODE", catalog.String(s)))})
	}
	pats := append([]string(nil), javaPatterns...)
	for range 150 {
		pats = append(pats, randomPattern(rng))
	}
	reps := []string{`-`, `<$0>`, `$1$1`, `\$`, `[$10]`, ``}
	for _, p := range pats {
		re, err := CompileJavaRegex(p)
		if err != nil {
			t.Errorf("%q refused: %v", p, err)
			continue
		}
		for range 6 {
			s := randomText(rng)
			cases = append(cases, tc{[]string{"find", p, s}, strings.ToLower(str(call(t, "REGEXP_LIKE", catalog.String(s), catalog.String(p))))})
			rep := reps[rng.IntN(len(reps))]
			if re.re.NumSubexp() == 0 && strings.Contains(rep, "$1") {
				rep = "$0"
			}
			v, err := call(t, "REGEXP_REPLACE", catalog.String(s), catalog.String(p), catalog.String(rep))
			if err != nil {
				var rerr *RegexError
				if errors.As(err, &rerr) && strings.Contains(err.Error(), "empty string") {
					continue // refused: the pattern can match nothing
				}
				t.Fatalf("%q %q: %v", p, rep, err)
			}
			cases = append(cases, tc{[]string{"replace", p, rep, s}, v.Text()})
		}
	}
	lines := make([][]string, len(cases))
	for i, c := range cases {
		lines[i] = c.line
	}
	got := runJava(t, lines)
	for i, c := range cases {
		if want := got[i]; c.rkql != want {
			t.Errorf("%q: rkql %q, Java %q", c.line, c.rkql, want)
		}
	}
}

// Patterns Java and Go would run differently are refused, with the
// character where the difference starts.
func TestJavaRegexRefused(t *testing.T) {
	for pat, at := range map[string]int{
		`(a)\1`: 4, `a*+`: 3, `a++`: 3, `a?+`: 3, `(?=a)`: 1, `(?!a)`: 1, `(?<=a)b`: 1, `(?<!a)b`: 1, `(?>a)`: 1,
		`\p{L}`: 1, `\Qa\E`: 1, `(?i)a`: 1, `a(?s)b`: 2, `(?m)^a`: 1, `\bx`: 1, `a$`: 2, `[[:alpha:]]`: 2, `[a&&b]`: 3,
		`a{,2}`: 2, `x{`: 2, `\Z`: 1, `\v`: 1, `[\S]`: 2, `[]a]`: 2, `\`: 1, `[ab`: 3,
	} {
		_, err := CompileJavaRegex(pat)
		var re *RegexError
		if !errors.As(err, &re) {
			t.Errorf("%q: accepted (%v)", pat, err)
			continue
		}
		if re.At != at || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want the message at character %d", pat, err, at)
		}
	}
}

// A NULL argument gives NULL, in every position of every function but
// COALESCE and CONCAT's (documented apart) and NOW's (none).
func TestFunctionsNullIn(t *testing.T) {
	sample := map[string][]catalog.Value{
		"REPLACE": {catalog.String("a"), catalog.String("b"), catalog.String("c")}, "TRIM": {catalog.String("a"), catalog.String("b")},
		"LTRIM": {catalog.String("a"), catalog.String("b")}, "RTRIM": {catalog.String("a"), catalog.String("b")},
		"LPAD": {catalog.String("a"), catalog.Bigint(3), catalog.String("b")}, "RPAD": {catalog.String("a"), catalog.Bigint(3), catalog.String("b")},
		"REVERSE": {catalog.String("a")}, "ROUND": {catalog.Double(1.5), catalog.Bigint(1)}, "FLOOR": {catalog.Double(1.5)},
		"CEIL": {catalog.Double(1.5)}, "ABS": {catalog.Bigint(-1)}, "MOD": {catalog.Bigint(5), catalog.Bigint(3)},
		"TO_TIMESTAMP": {catalog.Bigint(5)}, "MD5": {catalog.String("a")}, "HASHCODE": {catalog.String("a")},
		"DATE_PART": {catalog.String("hour"), catalog.TimestampMillis(0)}, "STRFTIME": {catalog.String("%Y"), catalog.TimestampMillis(0)},
		"REGEXP_LIKE": {catalog.String("a"), catalog.String("a")}, "REGEXP_REPLACE": {catalog.String("a"), catalog.String("a"), catalog.String("b")},
	}
	for name, args := range sample {
		fn := LookupFunction(name)
		for i := range args {
			if fn.Param(i).Literal {
				continue // a literal argument cannot be a column's NULL
			}
			a := append([]catalog.Value(nil), args...)
			a[i] = catalog.Null(a[i].Type)
			v, err := call(t, name, a...)
			if err != nil || !v.Null {
				t.Errorf("%s with argument %d NULL: %v, %v", name, i+1, v, err)
			}
		}
		if v, err := call(t, name, args...); err != nil || v.Null {
			t.Errorf("%s%v: %v, %v", name, args, v, err)
		}
	}
}

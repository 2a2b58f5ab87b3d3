package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// The functions sqlite3 has with the same meaning give sqlite3's results
// on random arguments: each case is one SELECT run by the sqlite3 CLI
// and one call built from the function table.
func TestFunctionsAgainstSqlite(t *testing.T) {
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed")
	}
	rng := rand.New(rand.NewPCG(7, 25))
	word := func() string {
		const alpha = "ab -xé_%"
		rs := []rune(alpha)
		n := rng.IntN(7)
		var b strings.Builder
		for range n {
			b.WriteRune(rs[rng.IntN(len(rs))])
		}
		return b.String()
	}
	sq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	type tc struct {
		sql  string // sqlite's expression
		name string
		args []catalog.Value
	}
	var cases []tc
	for range 300 {
		a, b, c := word(), word(), word()
		i, j := rng.Int64N(2001)-1000, rng.Int64N(41)-20
		f := float64(rng.Int64N(2_000_001)-1_000_000) / 1000
		ms := rng.Int64N(4_102_444_800_000)
		cases = append(cases,
			tc{fmt.Sprintf("replace(%s, %s, %s)", sq(a), sq(b), sq(c)), "REPLACE", []catalog.Value{catalog.String(a), catalog.String(b), catalog.String(c)}},
			tc{fmt.Sprintf("trim(%s)", sq(a)), "TRIM", []catalog.Value{catalog.String(a)}},
			tc{fmt.Sprintf("trim(%s, %s)", sq(a), sq(b)), "TRIM", []catalog.Value{catalog.String(a), catalog.String(b)}},
			tc{fmt.Sprintf("ltrim(%s, %s)", sq(a), sq(b)), "LTRIM", []catalog.Value{catalog.String(a), catalog.String(b)}},
			tc{fmt.Sprintf("rtrim(%s)", sq(a)), "RTRIM", []catalog.Value{catalog.String(a)}},
			tc{fmt.Sprintf("abs(%d)", i), "ABS", []catalog.Value{catalog.Bigint(i)}},
			tc{fmt.Sprintf("printf('%%.17g', abs(%v))", f), "ABS", []catalog.Value{catalog.Double(f)}},
			tc{fmt.Sprintf("printf('%%.17g', round(%v))", f), "ROUND", []catalog.Value{catalog.Double(f)}},
			tc{fmt.Sprintf("printf('%%.17g', round(%v, %d))", f, j%4), "ROUND", []catalog.Value{catalog.Double(f), catalog.Bigint(j % 4)}},
			tc{fmt.Sprintf("%d %% %d", i, j), "MOD", []catalog.Value{catalog.Bigint(i), catalog.Bigint(j)}},
			tc{fmt.Sprintf("strftime('%%Y-%%m-%%d %%H:%%M:%%S %%f %%j %%w %%s %%%%', %d / 1000.0, 'unixepoch')", ms), "STRFTIME",
				[]catalog.Value{catalog.String("%Y-%m-%d %H:%M:%S %f %j %w %s %%"), catalog.TimestampMillis(ms)}},
			tc{fmt.Sprintf("datetime(%d, 'unixepoch')", i*1_000_000), "TO_TIMESTAMP", []catalog.Value{catalog.Bigint(i * 1_000_000)}},
		)
	}
	var script strings.Builder
	for _, c := range cases {
		script.WriteString("SELECT coalesce(" + c.sql + ", 'NULL');\n")
	}
	cmd := exec.Command(bin, "-batch", "-noheader")
	cmd.Stdin = strings.NewReader(script.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sqlite3: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("sqlite3 gave %d lines for %d cases", len(lines), len(cases))
	}
	for k, c := range cases {
		args := make([]Scalar, len(c.args))
		types := make([]catalog.Type, len(c.args))
		for i, v := range c.args {
			args[i], types[i] = &Lit{V: v}, v.Type
		}
		fn := LookupFunction(c.name)
		rt, _ := fn.Result.Of(types)
		s, err := fn.Build(Call{Args: args, T: rt})
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		v, err := s.Value(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var got string
		switch {
		case v.Null:
			got = "NULL"
		case v.Type == catalog.TypeDouble:
			got = strconv.FormatFloat(v.F, 'g', 17, 64)
			// sqlite3's printf writes 16 significant digits at most; a
			// wrong rounding is off by 10^-d, far more than this.
			if want, err := strconv.ParseFloat(lines[k], 64); err == nil && math.Abs(want-v.F) <= 1e-13*math.Abs(want) {
				got = lines[k]
			}
		case v.Type == catalog.TypeTimestamp:
			got = strings.Replace(strings.TrimSuffix(v.Text(), ".000"), "T", " ", 1)
		default:
			got = v.Text()
		}
		if got != lines[k] {
			t.Errorf("%s: rkql %s, sqlite3 %s", c.sql, got, lines[k])
		}
	}
}

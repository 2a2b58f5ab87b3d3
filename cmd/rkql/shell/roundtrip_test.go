package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
)

// roundTripCatalog has a table of every column type, keyed by a BIGINT
// and a text that may be anything, even empty.
const roundTripCatalog = `
tables:
  - name: rt
    families: [{name: d}]
    columns:
      - {name: n, type: BIGINT}
      - {name: k, type: STRING}
      - {name: s, type: STRING, column: "d:s"}
      - {name: raw, type: BYTES, column: "d:raw"}
      - {name: i, type: BIGINT, column: "d:i"}
      - {name: i32, type: INT, column: "d:i32"}
      - {name: f, type: DOUBLE, column: "d:f"}
      - {name: ft, type: DOUBLE, column: "d:ft", encoding: text}
      - {name: b, type: BOOLEAN, column: "d:b"}
      - {name: ts, type: TIMESTAMP, column: "d:ts"}
      - {name: d, type: DATE, column: "d:d"}
    rowkey:
      - {field: n, encoding: binary}
      - {field: k}
`

// adversarialTexts are texts each format has to escape, quote or tell
// from NULL. They are valid UTF-8: a JSON string holds nothing else.
var adversarialTexts = []string{
	"", "a", `\N`, `\E`, `\.`, "NULL", "null", "tab\there", "nl\nx", "cr\rx", "crlf\r\nx", "\r\n", "\n", "\t", " ",
	`back\slash`, `\`, `\\`, `\t`, `\n`, `\x41`, `\u0041`, `\\N`, `"quoted"`, `"`, `""`, "comma,x", ",", " lead", "trail ",
	"ü日本🎉", "\x00nul", "\x1b[2J", "\x7f", "\u202e", "\u0085", "\ufffd", "\u2028", "'", "[", "{", "#", "=1+1", "a\tb\\tc",
}

// adversarialRows are rows of rt with the values above, NULLs, extreme
// and negative numbers, -0.0, NaN and infinities, bytes of every value,
// and times before 1970 and at the ends of the years rkql writes.
func adversarialRows() []catalog.Row {
	nums := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, -9007199254740993, 9007199254740993, math.MinInt32}
	i32s := []int64{math.MinInt32, math.MaxInt32, 0, -1, 1}
	floats := []float64{math.Copysign(0, -1), 0, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0.1, 1e21, 1e-7, -2.5e-7, 9007199254740993, 1.0 / 3}
	times := []int64{0, -1, 1, -62135596800000, 253402300799999, 1714564800123, -86400001, -30610224000000, 253402300800000, -62135596800001, -62167219200000,
		-1e15, math.MaxInt64, math.MinInt64}
	days := []int64{0, -1, -719162, 2932896, -25567, 19844, 2932897, -719163, -1000000, 100000000}
	var rows []catalog.Row
	for j := range 3 * len(adversarialTexts) {
		i := j % len(adversarialTexts)
		raw := []byte(adversarialTexts[(i+3)%len(adversarialTexts)])
		if j%4 == 1 {
			raw = make([]byte, j%17)
			for x := range raw {
				raw[x] = byte(j*31 + x*97)
			}
		}
		r := catalog.Row{
			catalog.Bigint(int64(j) - 40), catalog.String(adversarialTexts[i]),
			catalog.String(adversarialTexts[(i*7+j)%len(adversarialTexts)]), catalog.Bytes(raw),
			catalog.Bigint(nums[j%len(nums)]), catalog.Int(int32(i32s[j%len(i32s)])),
			catalog.Double(floats[j%len(floats)]), catalog.Double(floats[(j+5)%len(floats)]), catalog.Bool(j%2 == 0),
			catalog.TimestampMillis(times[j%len(times)]), catalog.DateDays(days[j%len(days)]),
		}
		for c := 2; c < len(r); c++ {
			if (j+c)%5 == 0 {
				r[c] = catalog.Null(r[c].Type)
			}
		}
		rows = append(rows, r)
	}
	rows[0][0], rows[1][0] = catalog.Bigint(math.MinInt64), catalog.Bigint(math.MaxInt64)
	return rows
}

// Each output format reads back, through import into a fresh table,
// exactly what it wrote: the whole table compares equal, value by value
// (NULL, ” and x” apart, -0.0 apart from 0).
func TestFormatsRoundTrip(t *testing.T) {
	cat, err := catalog.Parse([]byte(roundTripCatalog))
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := cat.Table("rt")
	ctx := context.Background()
	session := func(t *testing.T) *Session {
		st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return New(Config{Catalog: cat, CreateOnDemand: true, Open: engine.Opened(st)})
	}
	src := session(t)
	rows := adversarialRows()
	if _, err := src.Engine().Import(ctx, strings.NewReader(""), engine.ImportOptions{Table: "rt", Format: "jsonl"}); err != nil {
		t.Fatal(err) // creates the table
	}
	if err := src.Engine().Write(ctx, tab, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	const all = "SELECT * FROM rt ALLOW FULL SCAN"
	want := selectTexts(t, src, all)
	if len(want) != len(rows) {
		t.Fatalf("the table holds %d rows, want %d", len(want), len(rows))
	}
	for _, f := range []Format{FormatCSV, FormatTSV, FormatJSON, FormatJSONL} {
		t.Run(f.String(), func(t *testing.T) {
			src.set.Format = f
			out := &stmtIO{in: []string{all + ";"}}
			if err := src.Run(ctx, out); err != nil || out.err.Len() > 0 {
				t.Fatalf("export: %v %s", err, out.err.String())
			}
			dst := session(t)
			n, err := dst.Engine().Import(ctx, &out.out, engine.ImportOptions{Table: "rt", Name: "rt." + f.String()})
			if err != nil || n != int64(len(rows)) {
				t.Fatalf("import: %d rows, %v", n, err)
			}
			got := selectTexts(t, dst, all)
			for i := range max(len(got), len(want)) {
				if i >= len(got) || i >= len(want) || got[i] != want[i] {
					t.Fatalf("row %d differs:\n got %q\nwant %q", i, got[i:min(i+1, len(got))], want[i:min(i+1, len(want))])
				}
			}
		})
	}
	// A result of one column, where a lone NULL or empty string must not
	// be a blank line.
	for _, f := range []Format{FormatCSV, FormatTSV, FormatJSON, FormatJSONL} {
		for _, v := range []catalog.Value{catalog.Null(catalog.TypeString), catalog.String(""), catalog.String(`\N`), catalog.String(`\E`)} {
			s := oneSession(t)
			if err := s.Run(ctx, &stmtIO{in: []string{"INSERT INTO one (v) VALUES (" + v.String() + ");"}}); err != nil {
				t.Fatal(err)
			}
			s.set.Format = f
			out := &stmtIO{in: []string{"SELECT v FROM one ALLOW FULL SCAN;"}}
			if err := s.Run(ctx, out); err != nil {
				t.Fatal(err)
			}
			dst := oneSession(t)
			if _, err := dst.Engine().Import(ctx, &out.out, engine.ImportOptions{Table: "one", Name: "one." + f.String()}); err != nil {
				t.Fatalf("%s %s: %v", f, v, err)
			}
			if got := selectTexts(t, dst, "SELECT v FROM one ALLOW FULL SCAN"); len(got) != 1 || got[0] != v.String() {
				t.Errorf("%s: wrote %s, read back %q", f, v, got)
			}
		}
	}
}

// Any text and any bytes read back through each format's writer and
// reader as they were written (json and jsonl only for UTF-8 text, as
// JSON holds nothing else), in a row of several columns and alone.
func FuzzFormatRoundTrip(f *testing.F) {
	for i, s := range adversarialTexts {
		f.Add(s, []byte(adversarialTexts[(i+1)%len(adversarialTexts)]), int64(i))
	}
	f.Add("\xff\xfe", []byte{0, 0xff}, int64(math.MinInt64))
	cat, err := catalog.Parse([]byte(roundTripCatalog))
	if err != nil {
		f.Fatal(err)
	}
	tab, _ := cat.Table("rt")
	cols := make([]column, len(tab.Columns))
	for i, c := range tab.Columns {
		cols[i] = column{Name: c.Name, Type: c.Type}
	}
	f.Fuzz(func(t *testing.T, s string, raw []byte, n int64) {
		row := tab.NewRow()
		row[0], row[1], row[2], row[3] = catalog.Bigint(n), catalog.String(s), catalog.String(s), catalog.Bytes(raw)
		row[9] = catalog.TimestampMillis(n)
		for _, fm := range []Format{FormatCSV, FormatTSV, FormatJSON, FormatJSONL} {
			if (fm == FormatJSON || fm == FormatJSONL) && !utf8.ValidString(s) {
				continue
			}
			var b bytes.Buffer
			writeRows(t, newRowWriter(fm, &b, false), cols, []catalog.Row{row})
			src, err := engine.NewRowReader(tab, fm.String(), "", bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatalf("%s: %v in %q", fm, err, b.String())
			}
			got, _, err := src.Next()
			if err != nil {
				t.Fatalf("%s: %v in %q", fm, err, b.String())
			}
			for i := range row {
				if got[i].String() != row[i].String() {
					t.Fatalf("%s: column %s wrote %s, read %s, from %q", fm, cols[i].Name, row[i], got[i], b.String())
				}
			}
			if _, _, err := src.Next(); !errors.Is(err, io.EOF) {
				t.Fatalf("%s: a second row: %v", fm, err)
			}
		}
	})
}

package design_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/examples"
)

func loadCatalog(t *testing.T, name string) *catalog.Catalog {
	t.Helper()
	src := examples.CatalogYAML
	if name != "example" {
		file := "testdata/" + name + ".yaml"
		if name == "opentsdb" {
			file = "../examples/opentsdb.yaml"
		}
		var err error
		if src, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	c, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGolden checks LINT and SHOW CREATE TABLE output against
// testdata/golden; regenerate with go test ./design -rewrite.
func TestGolden(t *testing.T) {
	datadriven.RunTest(t, "testdata/golden", func(t *testing.T, d *datadriven.TestData) string {
		var catName, table string
		d.ScanArgs(t, "catalog", &catName)
		if d.HasArg("table") {
			d.ScanArgs(t, "table", &table)
		}
		c := loadCatalog(t, catName)
		switch d.Cmd {
		case "lint":
			var fs []design.Finding
			if table == "" {
				fs = design.LintCatalog(c)
			} else {
				tb, ok := c.Table(table)
				if !ok {
					t.Fatalf("no table %s", table)
				}
				fs = design.Lint(tb)
			}
			var b strings.Builder
			for _, f := range fs {
				fmt.Fprintf(&b, "%s\n", f)
			}
			e, w := design.Count(fs)
			fmt.Fprintf(&b, "%d errors, %d warnings\n", e, w)
			return b.String()
		case "create":
			tb, ok := c.Table(table)
			if !ok {
				t.Fatalf("no table %s", table)
			}
			return design.ShowCreate(tb)
		}
		return "unknown command " + d.Cmd
	})
}

// TestEachRuleFiresOnce lints a catalog built so that every rule fires
// exactly once, each with a fix.
func TestEachRuleFiresOnce(t *testing.T) {
	fs := design.LintCatalog(loadCatalog(t, "bad"))
	got := map[string]int{}
	for _, f := range fs {
		got[f.Rule]++
		if f.Fix == "" || f.Reason == "" {
			t.Errorf("%s: finding without a reason or a fix: %+v", f.Rule, f)
		}
	}
	for _, r := range design.Rules {
		if got[r] != 1 {
			t.Errorf("rule %s fired %d times, want 1", r, got[r])
		}
	}
	if len(got) != len(design.Rules) {
		t.Errorf("rules fired: %v; want exactly %v", got, design.Rules)
	}
}

// TestExamplesHaveNoErrors: the example layouts are common, working
// rowkey designs, so LINT may advise on them but never calls one broken.
func TestExamplesHaveNoErrors(t *testing.T) {
	fs := design.LintCatalog(loadCatalog(t, "example"))
	for _, f := range fs {
		if f.Severity == design.Error {
			t.Errorf("example layout judged broken: %s", f)
		}
	}
}

// calendarCreate is the HBase shell statement that creates the calendar
// table, as the guide that describes it writes it (BLOOMFILTER in lower
// case), on one line.
const calendarCreate = "create 'user_calendar_record', {NAME => 'f', VERSIONS => '1', BLOCKCACHE => 'true', " +
	"BLOCKSIZE => '65536', BLOOMFILTER => 'row', COMPRESSION => 'SNAPPY'}, " +
	"{SPLITS => ['1', '2', '3', '4', '5', '6', '7', '8', '9']}\n"

func TestHBaseShellCalendar(t *testing.T) {
	tb, _ := loadCatalog(t, "example").Table("user_calendar_record")
	if got := design.HBaseShell(tb); got != calendarCreate {
		t.Errorf("HBase shell statement of user_calendar_record:\n%s\nwant:\n%s", got, calendarCreate)
	}
}

// presplitExperiment returns a pre-splitting experiment: keys led by a
// 3-digit decimal prefix, over 500 custom split points '100'…'599' or over 500
// HexStringSplit regions, of which such keys reach only about a fifth.
func presplitExperiment(t *testing.T) (custom, hex *catalog.Table) {
	var splits []string
	for i := 100; i < 600; i++ {
		splits = append(splits, fmt.Sprintf("%q", fmt.Sprint(i)))
	}
	const table = `
  - name: %s
    families: [{name: f}]
    columns:
      - {name: prefix, type: INT}
      - {name: id, type: BIGINT}
      - {name: x, type: STRING, column: "f:x"}
    rowkey:
      - {field: prefix, encoding: decimal, width: 3}
      - {field: id, encoding: binary}
    %s
`
	src := "tables:" + fmt.Sprintf(table, "custom", "splits: ["+strings.Join(splits, ", ")+"]") +
		fmt.Sprintf(table, "hex", "split: {algorithm: HexStringSplit, regions: 500}")
	c, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	custom, _ = c.Table("custom")
	hex, _ = c.Table("hex")
	return custom, hex
}

func TestSimulatePresplit(t *testing.T) {
	custom, hex := presplitExperiment(t)
	gens := map[string]design.Gen{"prefix": {Kind: design.GenUniform, Lo: 100, Hi: 600}}
	a, err := design.Simulate(custom, 100_000, gens, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := design.Simulate(hex, 100_000, gens, 4)
	if err != nil {
		t.Fatal(err)
	}
	// 501 regions: the one before '100' receives nothing.
	if len(a.Counts) != 501 || a.Used() != 500 {
		t.Errorf("custom splits: %d of %d regions used, want 500 of 501", a.Used(), len(a.Counts))
	}
	// The busiest of 500 regions at 200 rows each stays within a few
	// standard deviations (about 14 rows) of the mean.
	if s := a.Skew(); s > 1.4 {
		t.Errorf("custom splits: max/mean %.2f, want near 1", s)
	}
	// Only prefixes '1'…'5' followed by a digit reach the hex regions:
	// 5 first characters x 10/16 of their ~31 regions, about a fifth.
	if u := b.Used(); u < 80 || u > 120 {
		t.Errorf("HexStringSplit: %d of 500 regions used, want about a fifth", u)
	}
	if s := b.Skew(); s < 3 {
		t.Errorf("HexStringSplit: max/mean %.2f, want several times the share", s)
	}
	out := design.CompareText(a, b)
	for _, want := range []string{"regions used", "500", "max / mean"} {
		if !strings.Contains(out, want) {
			t.Errorf("COMPARE output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulateHotspotAndBuckets(t *testing.T) {
	c := loadCatalog(t, "example")
	logs, _ := c.Table("logs")
	s, err := design.Simulate(logs, 64_000, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Used() != 16 || s.Skew() > 1.01 {
		t.Errorf("logs: %d of 16 regions used, max/mean %.2f; want an even spread over its buckets", s.Used(), s.Skew())
	}
	bad, err := catalog.Parse([]byte(`tables:
  - name: ts_first
    families: [{name: f}]
    columns:
      - {name: ts, type: TIMESTAMP}
      - {name: host, type: STRING}
      - {name: x, type: STRING, column: "f:x"}
    rowkey:
      - {field: ts, encoding: java}
      - {field: host}
    split: {algorithm: UniformSplit, regions: 16}
`))
	if err != nil {
		t.Fatal(err)
	}
	tf, _ := bad.Table("ts_first")
	h, err := design.Simulate(tf, 10_000, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h.Used() != 1 || h.Skew() != 16 {
		t.Errorf("[ts][host]: %d regions used, max/mean %.2f; want every write in one region", h.Used(), h.Skew())
	}
}

func TestSimulateErrors(t *testing.T) {
	c := loadCatalog(t, "example")
	orders, _ := c.Table("orders")
	for _, tc := range []struct {
		rows int64
		gens map[string]design.Gen
		want string
	}{
		{0, nil, "ROWS must be between"},
		{10, map[string]design.Gen{"nope": {}}, "has no column nope"},
		{10, map[string]design.Gen{"buyer": {}}, "not in orders's rowkey"},
		{10, map[string]design.Gen{"seller": {Kind: design.GenUniform, Lo: 5, Hi: 5}}, "draws from no values"},
	} {
		_, err := design.Simulate(orders, tc.rows, tc.gens, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Simulate(%d, %v) = %v, want an error with %q", tc.rows, tc.gens, err, tc.want)
		}
	}
}

func TestSummary(t *testing.T) {
	if got := design.Summary(loadCatalog(t, "bad")); got != "LINT finds 2 error(s) and 7 warning(s) in the catalog's layouts; type LINT to see them" {
		t.Errorf("summary of the bad catalog: %q", got)
	}
	clean, err := catalog.Parse([]byte("tables:\n  - name: t\n    families: [{name: f}]\n    columns:\n      - {name: id, type: STRING}\n      - {name: v, type: STRING, column: \"f:v\"}\n    rowkey:\n      - {field: id}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := design.Summary(clean); got != "" {
		t.Errorf("summary of a clean catalog: %q", got)
	}
}

// TestSimulateOpenTSDB: a base time counted in seconds is drawn in whole
// seconds, and OpenTSDB's salt spreads the writes over its 20 buckets.
func TestSimulateOpenTSDB(t *testing.T) {
	c, err := catalog.Parse(examples.OpenTSDBPairsYAML)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := c.Table("tsdb")
	s, err := design.Simulate(tb, 2000, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range s.Counts {
		if n == 0 {
			t.Errorf("bucket %d has no rows", i)
		}
	}
	if len(s.Counts) != 20 {
		t.Fatalf("%d regions, want 20", len(s.Counts))
	}
}

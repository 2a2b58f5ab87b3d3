package exectest

import (
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// The reference models every function of the table, and only those: a
// function added to expr.Functions without a reference reading fails
// here, not silently in the differential suite.
func TestReferenceCoversFunctions(t *testing.T) {
	models := ref.Functions()
	for _, f := range expr.Functions {
		if !slices.Contains(models, f.Name) {
			t.Errorf("%s is in expr.Functions but the reference (exec/exectest/ref/func.go) does not model it", f.Name)
		}
	}
	for _, name := range models {
		if expr.LookupFunction(name) == nil {
			t.Errorf("the reference models %s, which expr.Functions does not list", name)
		}
	}
}

// Each function's documented example evaluates in the reference, and
// the readings the differential generator does not reach give the
// documented values.
func TestReferenceFunctions(t *testing.T) {
	cat, err := catalog.LoadFile("../../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("orders")
	ts := time.Date(2024, 5, 17, 13, 45, 30, 250_000_000, time.UTC)
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	row := catalog.Row{catalog.String("s1"), catalog.String("b1"), catalog.Bigint(7), catalog.Timestamp(ts),
		catalog.Double(2.5), catalog.String("Paid"), catalog.TimestampMillis(1)}
	one := func(item string) catalog.Value {
		t.Helper()
		res, err := ref.EvaluateAt(tb, parseSel(t, "SELECT "+item+" FROM orders"), []catalog.Row{row}, now)
		if err != nil {
			t.Fatalf("%s: %v", item, err)
		}
		if len(res.Groups) != 1 || len(res.Groups[0]) != 1 {
			t.Fatalf("%s: %d groups", item, len(res.Groups))
		}
		return res.Groups[0][0][0]
	}
	for _, f := range expr.Functions {
		one(f.Example)
	}
	stamp := func(y int, mo time.Month, d, h, mi, s int) string {
		return catalog.Timestamp(time.Date(y, mo, d, h, mi, s, 0, time.UTC)).Text()
	}
	for item, want := range map[string]string{
		"DATE_TRUNC('second', ts)":  stamp(2024, 5, 17, 13, 45, 30),
		"DATE_TRUNC('MINUTE', ts)":  stamp(2024, 5, 17, 13, 45, 0),
		"DATE_TRUNC('month', ts)":   stamp(2024, 5, 1, 0, 0, 0),
		"DATE_TRUNC('year', ts)":    stamp(2024, 1, 1, 0, 0, 0),
		"NOW()":                     stamp(2025, 1, 2, 3, 4, 5),
		"LENGTH(x'00ff10')":         "3",
		"LENGTH('héllo')":           "5",
		"SUBSTRING(status, 2)":      "aid",
		"COALESCE(NULL, status)":    "Paid",
		"CONCAT(seller, '/', NULL)": "NULL",
	} {
		if got := one(item).Text(); got != want {
			t.Errorf("%s = %s, want %s", item, got, want)
		}
	}
	if _, err := ref.Evaluate(tb, parseSel(t, "SELECT NOW() FROM orders"), []catalog.Row{row}); err == nil {
		t.Error("NOW() without the statement's time evaluated")
	}
}

func parseSel(t *testing.T, q string) *parser.SelectStmt {
	t.Helper()
	s, err := parseSelect(q)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

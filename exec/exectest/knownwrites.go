package exectest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// WriteDivergence is a write sequence whose result through rkql is known
// to differ from the model, with a reproduction. RunWrites leaves out a
// DELETE of its shape, and excuses a query of its shape that differs,
// counting both, so that the run stays green and checks everything else;
// TestKnownWriteDivergences (in exec/embedded and exec/hbasestore) fails once a
// reproduction no longer differs, so that the entry is removed when the
// cause is fixed.
type WriteDivergence struct {
	Name string
	// Why says what the model answers and what rkql answers.
	Why string
	// Markers says the divergence shows on a store that keeps delete
	// markers (HBase), not on the embedded store.
	Markers bool
	// Catalog is the catalog file of the reproduction, relative to the
	// module root. Statements run on an empty store with the clock at
	// Start (ms; 0 for the wall clock); Query then returns Got, where
	// the model answers Want (rows as the shell prints them, values
	// separated by spaces, one row a line).
	Catalog    string
	Start      int64
	Statements []string
	Query      string
	Want, Got  string
	// Shape reports whether a statement with condition where over t is
	// of the divergent shape; nil when the model finds the shape itself.
	Shape func(t *catalog.Table, where parser.Expr) bool
}

// KnownWriteDivergences is the to-do list of write fixes. Keep it short
// by fixing them; never add an entry without a reproduction.
var KnownWriteDivergences = []WriteDivergence{}

// knownWrite returns the known write divergence a statement with
// condition where over t is an instance of, or nil.
func knownWrite(t *catalog.Table, where parser.Expr, markers bool) *WriteDivergence {
	for i := range KnownWriteDivergences {
		d := &KnownWriteDivergences[i]
		if d.Shape != nil && d.Markers == markers && d.Shape(t, where) {
			return d
		}
	}
	return nil
}

// ReproduceWrite runs d's statements and then its query on sess, and
// returns the query's rows as the shell prints them: values separated by
// spaces, one row a line.
func ReproduceWrite(ctx context.Context, sess Session, d *WriteDivergence) (string, error) {
	for _, q := range d.Statements {
		if _, _, err := sess.Exec(ctx, q); err != nil {
			return "", fmt.Errorf("%s: %w", q, err)
		}
	}
	rows, _, err := sess.Exec(ctx, d.Query)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Query, err)
	}
	var lines []string
	for _, r := range rows {
		var cells []string
		for _, v := range r {
			cells = append(cells, v.Text())
		}
		lines = append(lines, strings.Join(cells, " "))
	}
	return strings.Join(lines, "\n"), nil
}

// CheckWriteDivergence runs d's reproduction on sess and fails t unless
// it still gives d's known wrong answer: one that gives the model's
// answer has been fixed, and its entry must go.
func CheckWriteDivergence(t *testing.T, sess Session, d *WriteDivergence) {
	t.Helper()
	got, err := ReproduceWrite(context.Background(), sess, d)
	if err != nil {
		t.Fatal(err)
	}
	if got == d.Want {
		t.Fatalf("%s: gives the model's answer now; remove it from exectest.KnownWriteDivergences\n  %s", d.Name, d.Query)
	}
	if got != d.Got {
		t.Fatalf("%s: %s gives\n%s\nwhich is neither the known wrong answer\n%s\nnor the model's\n%s", d.Name, d.Query, got, d.Got, d.Want)
	}
	t.Logf("%s\n  %s\n  got %q, want %q", d.Why, d.Query, got, d.Want)
}

package planner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

const phoenixCatalog = `tables:
  - name: p
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: b, type: STRING}
      - {name: v, type: DOUBLE, column: "0:V", encoding: phoenix}
    rowkey:
      - {field: a, encoding: phoenix}
      - {field: b, encoding: phoenix}
`

// Phoenix writes (x, NULL) as the key x, without the separator after x,
// so the scan for a = 'x' starts at x itself, not at x\x00; a point lookup
// of both fields has no separator at its end.
func TestPhoenixTrailingNullScan(t *testing.T) {
	cat, err := catalog.Parse([]byte(phoenixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	for _, tc := range []struct{ q, want string }{
		{"SELECT * FROM p WHERE a = 'x'", "BYTES  x - x\\x01\n"},
		{"SELECT * FROM p WHERE a = 'x' AND b = 'y'", "BYTES  x\\x00y\n"},
	} {
		stmt, err := parser.ParseOne("EXPLAIN " + tc.q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatal(err)
		}
		text := p.(*planner.Explain).Select.String()
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s:\n%s\nwant %s", tc.q, text, tc.want)
		}
	}
}

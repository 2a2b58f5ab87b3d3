package exec_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// aggStore is a Store that places as HBase does and computes every
// aggregate where the data lives; placing calls nothing else of it.
type aggStore struct{ exec.Store }

func (aggStore) Pushdown() exec.Pushdown { return hbasestore.Pushdown{} }

func (aggStore) CanAggregate(context.Context, *catalog.Table, exec.Aggregation) (string, error) {
	return "coprocessor test", nil
}

// TestPlaceLeavesPlan places each plan twice, with pushdown on and off,
// and wants the plan exactly as it was, each placement its own (the
// second does not undo or repeat the first), and placing again with
// pushdown on to give the same placed plan as the first time.
func TestPlaceLeavesPlan(t *testing.T) {
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	st := aggStore{}
	ctx := context.Background()
	for _, q := range []string{
		"SELECT * FROM orders WHERE seller = 's1' AND status = 'paid' LIMIT 5",
		"SELECT * FROM orders WHERE seller = 's1' AND UPPER(status) = 'PAID' AND status = 'paid'",
		"SELECT COUNT(*) FROM orders WHERE seller = 's1' AND status = 'paid'",
		"SELECT COUNT(*), SUM(amount), MAX(amount) FROM orders WHERE seller = 's1'",
		"SELECT * FROM orders WHERE seller IN ('s1', 's2', 's3') AND status = 'paid'",
		"SELECT * FROM orders WHERE seller IN ('s1', 's2') ORDER BY ts DESC LIMIT 5",
		"SELECT amount FROM orders WHERE buyer = 'b7' AND amount > 100 ORDER BY ts DESC LIMIT 20",
		"SELECT * FROM orders WHERE seller = 's1' OR buyer = 'b2'",
		"SELECT DISTINCT seller FROM orders WHERE status = 'paid' ALLOW FULL SCAN",
		"SELECT status, COUNT(*) FROM orders WHERE seller = 's1' AND status > 'a' GROUP BY status",
	} {
		t.Run(q, func(t *testing.T) {
			stmt, err := parser.ParseOne(q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pl.Plan(context.Background(), stmt)
			if err != nil {
				t.Fatal(err)
			}
			sel := p.(*planner.Select)
			before, text := dump(sel), sel.String()
			on, err := exec.Place(ctx, st, sel, exec.PlaceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			off, err := exec.Place(ctx, st, sel, exec.PlaceOptions{NoPushdown: true})
			if err != nil {
				t.Fatal(err)
			}
			if after := dump(sel); after != before {
				t.Fatalf("placing changed the plan:\nbefore %s\nafter  %s", before, after)
			}
			if sel.String() != text {
				t.Fatalf("placing changed the plan's EXPLAIN:\n%s\nnow\n%s", text, sel.String())
			}
			onText, offText := explain(on.Explain), explain(off.Explain)
			if on.Select() != sel || off.Select() != sel {
				t.Fatal("a placed plan does not hold the plan it placed")
			}
			if onText == offText || strings.Contains(offText, "SERVER") || !strings.Contains(offText, "PUSHDOWN") {
				t.Fatalf("pushdown on:\n%s\npushdown off:\n%s", onText, offText)
			}
			again, err := exec.Place(ctx, st, sel, exec.PlaceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := explain(again.Explain); got != onText {
				t.Fatalf("placing the plan again gives\n%s\nnot\n%s", got, onText)
			}
		})
	}
}

func explain(f func(planner.ExplainEnv, *planner.Analysis) *planner.Explained) string {
	return f(planner.ExplainEnv{}, nil).Text()
}

// dump writes out every value a plan holds, following pointers,
// interfaces, slices and maps, but not into catalog tables and indexes,
// which are shared and only named: two dumps are equal when nothing of
// the plan was changed.
func dump(v any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(v), map[uintptr]bool{})
	return b.String()
}

var (
	tableType = reflect.TypeFor[*catalog.Table]()
	indexType = reflect.TypeFor[*catalog.Index]()
	exprType  = reflect.TypeFor[expr.Expr]()
)

func dumpValue(b *strings.Builder, v reflect.Value, seen map[uintptr]bool) {
	switch {
	case !v.IsValid():
		b.WriteString("nil")
		return
	case v.Type() == tableType || v.Type() == indexType:
		fmt.Fprintf(b, "%p", v.Interface())
		return
	case v.Type().Implements(exprType) && v.Kind() != reflect.Interface && v.CanInterface():
		fmt.Fprintf(b, "expr(%v)", v.Interface())
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "&%x", v.Pointer())
		if seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		dumpValue(b, v.Elem(), seen)
	case reflect.Interface:
		dumpValue(b, v.Elem(), seen)
	case reflect.Struct:
		b.WriteString(v.Type().String() + "{")
		for i := range v.NumField() {
			b.WriteString(v.Type().Field(i).Name + ":")
			dumpValue(b, v.Field(i), seen)
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "[%d:", v.Len())
		for i := range v.Len() {
			dumpValue(b, v.Index(i), seen)
			b.WriteString(",")
		}
		b.WriteString("]")
	case reflect.Map:
		fmt.Fprintf(b, "map[%d]", v.Len())
	case reflect.Func:
		fmt.Fprintf(b, "func(%v)", v.IsNil())
	default:
		fmt.Fprintf(b, "%v", v)
	}
}

// TestPlaceReadBoundLimit: a LIMIT that bounds the read of the whole
// table is the store's with pushdown off too (a row limit is no filter),
// and EXPLAIN says so; a LIMIT the client needs rows past stays the
// client's.
func TestPlaceReadBoundLimit(t *testing.T) {
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	ctx := context.Background()
	cases := []struct {
		q     string
		limit int64
	}{
		{"SELECT * FROM orders LIMIT 5", 5},
		{"SELECT RAW * FROM orders LIMIT 3", 3},
		{"SELECT * FROM orders LIMIT 2 OFFSET 4", 6},
		{"SELECT * FROM orders WHERE status = 'paid' LIMIT 5 ALLOW FULL SCAN", 0},
		{"SELECT * FROM orders ORDER BY amount LIMIT 5 ALLOW FULL SCAN", 0},
		{"SELECT * FROM orders WHERE seller = 's1' LIMIT 5", 0},
	}
	for _, c := range cases {
		stmt, err := parser.ParseOne(c.q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(ctx, stmt)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		sel := p.(*planner.Select)
		off, err := exec.Place(ctx, aggStore{}, sel, exec.PlaceOptions{NoPushdown: true})
		if err != nil {
			t.Fatal(err)
		}
		text := explain(off.Explain)
		if got := off.Scan(sel.Access).Limit; got != c.limit {
			t.Errorf("%s: pushdown off gives the store a limit of %d rows, want %d:\n%s", c.q, got, c.limit, text)
		}
		said := strings.Contains(text, "the store only reads and stops at the LIMIT")
		server := strings.Contains(text, fmt.Sprintf("SERVER %d ROW LIMIT", c.limit))
		if said != (c.limit > 0) || server != (c.limit > 0) {
			t.Errorf("%s: pushdown off: EXPLAIN does not say what the store does:\n%s", c.q, text)
		}
	}
}

package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// counterModel is what random counter and conditional UPDATEs must
// leave, kept by plain arithmetic: the rows that exist, and each one's
// visits (nil: no cell) and state.
type counterModel struct {
	visits map[string]*int64
	state  map[string]*string
}

func (m *counterModel) pages() []string {
	var out []string
	for p := range m.visits {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (m *counterModel) text() string {
	var rows []string
	for _, p := range m.pages() {
		v, s := "NULL", "NULL"
		if m.visits[p] != nil {
			v = fmt.Sprint(*m.visits[p])
		}
		if m.state[p] != nil {
			s = *m.state[p]
		}
		rows = append(rows, p+" "+v+" "+s)
	}
	return strings.Join(rows, "; ")
}

// runCounterDiff runs random INSERTs, counter UPDATEs over points,
// ranges and prefixes, conditional single-row UPDATEs and plain ones
// against e, and checks each tag and, often, the whole table against the
// model.
func runCounterDiff(t *testing.T, e *engine.Engine, seed uint64, ops int) {
	r := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	m := &counterModel{visits: map[string]*int64{}, state: map[string]*string{}}
	page := func() string { return fmt.Sprintf("p%d%d", r.IntN(3), r.IntN(4)) }
	states := []string{"a", "b", "c"}
	ptr := func(n int64) *int64 { return &n }
	for i := range ops {
		var stmt string
		var want int
		switch op := r.IntN(10); {
		case op == 0 || len(m.visits) == 0:
			p := page()
			var v *int64
			vs := "NULL"
			if r.IntN(3) > 0 {
				v = ptr(int64(r.IntN(100) - 50))
				vs = fmt.Sprint(*v)
			}
			s := states[r.IntN(3)]
			stmt = fmt.Sprintf("INSERT INTO hits (page, visits, state) VALUES ('%s', %s, '%s')", p, vs, s)
			m.visits[p], m.state[p] = v, &s
			if _, tag, err := e.Exec(context.Background(), stmt); err != nil || tag != "INSERT 1" {
				t.Fatalf("op %d: %s: %q %v", i, stmt, tag, err)
			}
			continue
		case op <= 5:
			k := int64(r.IntN(21) - 10)
			sign, abs := "+", k
			if k < 0 && r.IntN(2) == 0 {
				sign, abs = "-", -k
			}
			var where string
			var match func(string) bool
			switch r.IntN(3) {
			case 0:
				p := page()
				where, match = "page = '"+p+"'", func(x string) bool { return x == p }
			case 1:
				a, b := page(), page()
				if a > b {
					a, b = b, a
				}
				where, match = fmt.Sprintf("page >= '%s' AND page <= '%s'", a, b), func(x string) bool { return x >= a && x <= b }
			default:
				pre := fmt.Sprintf("p%d", r.IntN(3))
				where, match = "page LIKE '"+pre+"%'", func(x string) bool { return strings.HasPrefix(x, pre) }
			}
			stmt = fmt.Sprintf("UPDATE hits SET visits = visits %s %d WHERE %s", sign, abs, where)
			for _, p := range m.pages() {
				if match(p) {
					want++
					old := int64(0)
					if m.visits[p] != nil {
						old = *m.visits[p]
					}
					m.visits[p] = ptr(old + k)
				}
			}
		case op <= 8:
			p, to := page(), states[r.IntN(3)]
			cond, holds := "state IS NULL", func(s *string) bool { return s == nil }
			if r.IntN(4) > 0 {
				want := states[r.IntN(3)]
				cond, holds = "state = '"+want+"'", func(s *string) bool { return s != nil && *s == want }
			}
			stmt = fmt.Sprintf("UPDATE hits SET state = '%s' WHERE page = '%s' AND %s", to, p, cond)
			if _, ok := m.visits[p]; ok && holds(m.state[p]) {
				want = 1
				m.state[p] = &to
			}
		default:
			p := page()
			stmt = fmt.Sprintf("UPDATE hits SET state = NULL WHERE page = '%s'", p)
			if _, ok := m.visits[p]; ok {
				want = 1
				m.state[p] = nil
			}
		}
		_, tag, err := e.Exec(context.Background(), stmt)
		if err != nil || tag != fmt.Sprintf("UPDATE %d", want) {
			t.Fatalf("op %d: %s: tag %q, error %v; the model says UPDATE %d", i, stmt, tag, err, want)
		}
		if i%10 == 9 || i == ops-1 {
			if got := readAll(t, e, "SELECT page, visits, state FROM hits ALLOW FULL SCAN"); got != m.text() {
				t.Fatalf("op %d (after %s):\n got %s\nwant %s", i, stmt, got, m.text())
			}
		}
	}
}

func TestCounterDifferential(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			runCounterDiff(t, counterEngine(t, tempStore(t)), seed, 200)
		})
	}
}

// TestIntegrationCounterDifferential is TestCounterDifferential on the
// test HBase.
func TestIntegrationCounterDifferential(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	name := hbasetest.TableName("counters_diff")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := st.DropTable(ctx, name); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
			t.Errorf("clean-up: %v", err)
		}
	})
	cat, err := catalog.Parse([]byte(strings.Replace(counterCatalog, "  - name: hits\n", "  - name: hits\n    hbase: "+name+"\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	runCounterDiff(t, e, 7, 200)
}

package hbase

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// cacheModel is the region cache as a plain list, searched linearly: what
// regionCache must answer, written without its sorting.
type cacheModel struct{ rs []*Region }

// modelOverlap reports whether a and b share a key.
func modelOverlap(a, b *Region) bool {
	if a.Table != b.Table {
		return false
	}
	aBeforeB := len(a.EndKey) > 0 && string(a.EndKey) <= string(b.StartKey)
	bBeforeA := len(b.EndKey) > 0 && string(b.EndKey) <= string(a.StartKey)
	return !aBeforeB && !bBeforeA
}

func (m *cacheModel) add(r *Region) {
	m.rs = slices.DeleteFunc(m.rs, func(o *Region) bool { return modelOverlap(o, r) })
	m.rs = append(m.rs, r)
}

func (m *cacheModel) remove(r *Region) {
	m.rs = slices.DeleteFunc(m.rs, func(o *Region) bool { return o.Table == r.Table && string(o.Name) == string(r.Name) })
}

func (m *cacheModel) removeServer(addr string) {
	m.rs = slices.DeleteFunc(m.rs, func(o *Region) bool { return o.Server == addr })
}

func (m *cacheModel) removeTable(t string) {
	m.rs = slices.DeleteFunc(m.rs, func(o *Region) bool { return o.Table == t })
}

func (m *cacheModel) lookup(table string, key []byte, before bool) *Region {
	for _, r := range m.rs {
		if r.Table == table && ((!before && r.Contains(key)) || (before && r.containsBefore(key))) {
			return r
		}
	}
	return nil
}

// checkSorted fails unless c keeps its invariants.
func checkSorted(t *testing.T, c *regionCache) {
	t.Helper()
	for table, rs := range c.tables {
		if len(rs) == 0 {
			t.Fatalf("table %s: empty slice kept", table)
		}
		for i := 1; i < len(rs); i++ {
			a, b := rs[i-1], rs[i]
			if len(a.EndKey) == 0 || bytes.Compare(a.EndKey, b.StartKey) > 0 {
				t.Fatalf("table %s: [%q,%q) and [%q,%q) out of order or overlapping", table, a.StartKey, a.EndKey, b.StartKey, b.EndKey)
			}
		}
	}
}

// TestRegionCacheModel runs random adds (fresh regions, splits, merges,
// moves, stale parents coming back after their daughters), invalidations
// and lookups on the sorted cache and on the linear model, and fails at
// the first lookup where they differ.
func TestRegionCacheModel(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) { runCacheModel(t, seed, 600) })
	}
}

// keySpace is the row keys of the model test: few enough that regions
// touch and overlap often.
var keySpace = func() []string {
	ks := []string{""}
	for _, a := range "bdfhjlnp" {
		ks = append(ks, string(a))
		for _, b := range "ckr" {
			ks = append(ks, string(a)+string(b))
		}
	}
	return ks // sorted
}()

type cacheGen struct {
	r    *rand.Rand
	id   uint64
	seen []*Region // every region made, for stale re-adds
}

func (g *cacheGen) region(table, start, end string) *Region {
	g.id++
	r := &Region{
		Table: table, StartKey: []byte(start), EndKey: []byte(end), ID: g.id,
		Name:   []byte(fmt.Sprintf("%s,%s,%d.", table, start, g.id)),
		Server: fmt.Sprintf("rs%d:16020", g.r.IntN(4)),
	}
	g.seen = append(g.seen, r)
	return r
}

// span picks a random region [start, end) of keySpace; end "" is the end
// of the table.
func (g *cacheGen) span(table string) *Region {
	i := g.r.IntN(len(keySpace))
	j := i + 1 + g.r.IntN(len(keySpace)-i)
	end := ""
	if j < len(keySpace) {
		end = keySpace[j]
	}
	return g.region(table, keySpace[i], end)
}

// split returns the daughters of r at a key inside it, or nil when r
// holds one key of keySpace only.
func (g *cacheGen) split(r *Region) []*Region {
	var mids []string
	for _, k := range keySpace {
		if k > string(r.StartKey) && (len(r.EndKey) == 0 || k < string(r.EndKey)) {
			mids = append(mids, k)
		}
	}
	if len(mids) == 0 {
		return nil
	}
	mid := mids[g.r.IntN(len(mids))]
	return []*Region{g.region(r.Table, string(r.StartKey), mid), g.region(r.Table, mid, string(r.EndKey))}
}

func runCacheModel(t *testing.T, seed uint64, ops int) {
	g := &cacheGen{r: rand.New(rand.NewPCG(seed, seed*7919))}
	c, m := newRegionCache(), &cacheModel{}
	tables := []string{"t", "ns:u"}
	pick := func() *Region {
		if len(m.rs) == 0 {
			return nil
		}
		return m.rs[g.r.IntN(len(m.rs))]
	}
	for op := 0; op < ops; op++ {
		table := tables[g.r.IntN(len(tables))]
		var did string
		switch n := g.r.IntN(100); {
		case n < 30:
			r := g.span(table)
			c.add(r)
			m.add(r)
			did = fmt.Sprintf("add [%q,%q)", r.StartKey, r.EndKey)
		case n < 45:
			if p := pick(); p != nil {
				ds := g.split(p)
				if g.r.IntN(2) == 0 {
					slices.Reverse(ds)
				}
				// Often only one daughter is looked up: the cache then
				// holds it and misses the other half of the parent.
				ds = ds[:min(len(ds), 1+g.r.IntN(2))]
				for _, d := range ds {
					c.add(d)
					m.add(d)
				}
				did = fmt.Sprintf("split %s into %d", p.Name, len(ds))
			}
		case n < 52:
			if len(g.seen) > 0 {
				s := g.seen[g.r.IntN(len(g.seen))]
				c.add(s)
				m.add(s)
				did = "re-add " + string(s.Name)
			}
		case n < 60:
			if p := pick(); p != nil {
				moved := *p
				moved.Server = "rs9:16020"
				c.add(&moved)
				m.add(&moved)
				did = "move " + string(p.Name)
			}
		case n < 75:
			var r *Region
			if g.r.IntN(3) == 0 && len(g.seen) > 0 {
				r = g.seen[g.r.IntN(len(g.seen))] // perhaps no longer cached
			} else {
				r = pick()
			}
			if r != nil {
				c.remove(r)
				m.remove(r)
				did = "remove " + string(r.Name)
			}
		case n < 78:
			addr := fmt.Sprintf("rs%d:16020", g.r.IntN(4))
			c.removeServer(addr)
			m.removeServer(addr)
			did = "remove server " + addr
		case n < 79:
			c.removeTable(table)
			m.removeTable(table)
			did = "remove table " + table
		}
		checkSorted(t, c)
		for range 8 {
			key := keySpace[g.r.IntN(len(keySpace))]
			if g.r.IntN(2) == 0 {
				key += "a" // between the keys of keySpace
			}
			lt := tables[g.r.IntN(len(tables))]
			before := g.r.IntN(3) == 0
			got, want := c.lookup(lt, []byte(key), before), m.lookup(lt, []byte(key), before)
			if got != want {
				t.Fatalf("op %d (%s): lookup(%s, %q, before=%v) = %v, model has %v", op, did, lt, key, before, got, want)
			}
		}
	}
}

// syntheticRegions caches n regions of one table, rows "r%08d" split
// evenly, and returns the keys to look up.
func syntheticRegions(n int) (*regionCache, [][]byte) {
	c := newRegionCache()
	start := func(i int) []byte {
		if i == 0 {
			return nil
		}
		return []byte(fmt.Sprintf("r%08d", i*1000))
	}
	for i := range n {
		var end []byte
		if i+1 < n {
			end = start(i + 1)
		}
		s := start(i)
		c.add(&Region{Table: "t", Name: []byte(fmt.Sprintf("t,%s,%d.", s, i+1)), StartKey: s, EndKey: end, ID: uint64(i + 1), Server: "rs:16020"})
	}
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, 4096)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("r%08d", r.IntN(n*1000)))
	}
	return c, keys
}

// BenchmarkRegionCache measures a lookup, and the invalidation and
// re-caching of one region, in caches of 100 and 100,000 regions.
func BenchmarkRegionCache(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		c, keys := syntheticRegions(n)
		b.Run(fmt.Sprintf("lookup/regions=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if c.lookup("t", keys[i%len(keys)], false) == nil {
					b.Fatal("miss")
				}
			}
		})
		b.Run(fmt.Sprintf("invalidate+add/regions=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				r := c.lookup("t", keys[i%len(keys)], false)
				c.remove(r)
				c.add(r)
			}
		})
	}
}

package hbase

import (
	"bytes"
	"slices"
	"sort"
	"sync"
)

// regionCache holds known region locations per table. Lookups take a
// binary search; adding or invalidating a region takes a binary search
// and moves the slice's tail, so a cache of 100,000 regions costs about
// 17 comparisons a lookup (BenchmarkRegionCache).
//
// Invariants, per table: the slice is sorted by StartKey, its regions
// hold at least one key each (StartKey < EndKey, or an empty EndKey) and
// never overlap, so it is sorted by EndKey too (an empty EndKey, the
// end of the table, last); no slice is empty; a region's Name determines
// its StartKey, as HBase's region names do.
type regionCache struct {
	mu     sync.RWMutex
	tables map[string][]*Region
}

func newRegionCache() *regionCache {
	return &regionCache{tables: make(map[string][]*Region)}
}

// lookup finds the cached region holding key (before=false) or the keys
// just below key (before=true).
func (c *regionCache) lookup(table string, key []byte, before bool) *Region {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rs := c.tables[table]
	var i int
	if before && len(key) == 0 {
		i = len(rs) - 1
	} else {
		// First region whose start key is > key (or >= key when before).
		i = sort.Search(len(rs), func(i int) bool {
			cmp := bytes.Compare(rs[i].StartKey, key)
			return cmp > 0 || (before && cmp == 0)
		}) - 1
	}
	if i < 0 {
		return nil
	}
	r := rs[i]
	if (!before && r.Contains(key)) || (before && r.containsBefore(key)) {
		return r
	}
	return nil
}

// add caches r, evicting the cached regions it overlaps (a split parent
// its daughters replace, the old location of a moved region).
func (c *regionCache) add(r *Region) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rs := c.tables[r.Table]
	lo, hi := overlapping(rs, r)
	c.tables[r.Table] = slices.Replace(rs, lo, hi, r)
}

// overlapping returns the cached regions rs[lo:hi] that overlap r: those
// that end after r starts and start before r ends.
func overlapping(rs []*Region, r *Region) (lo, hi int) {
	lo = sort.Search(len(rs), func(i int) bool {
		return len(rs[i].EndKey) == 0 || bytes.Compare(rs[i].EndKey, r.StartKey) > 0
	})
	if len(r.EndKey) == 0 {
		return lo, len(rs)
	}
	hi = lo + sort.Search(len(rs)-lo, func(i int) bool {
		return bytes.Compare(rs[lo+i].StartKey, r.EndKey) >= 0
	})
	return lo, hi
}

// remove forgets r if it is still cached: the cached region of r's Name,
// and no other.
func (c *regionCache) remove(r *Region) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rs := c.tables[r.Table]
	i, found := sort.Find(len(rs), func(i int) int { return bytes.Compare(r.StartKey, rs[i].StartKey) })
	if !found || !bytes.Equal(rs[i].Name, r.Name) {
		return
	}
	if rs = slices.Delete(rs, i, i+1); len(rs) == 0 {
		delete(c.tables, r.Table)
		return
	}
	c.tables[r.Table] = rs
}

// removeServer forgets every region cached on addr. It walks the whole
// cache, as only a dead server calls for.
func (c *regionCache) removeServer(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for t, rs := range c.tables {
		rs = slices.DeleteFunc(rs, func(o *Region) bool { return o.Server == addr })
		if len(rs) == 0 {
			delete(c.tables, t)
			continue
		}
		c.tables[t] = rs
	}
}

// removeTable forgets every region of table.
func (c *regionCache) removeTable(table string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.tables, table)
}

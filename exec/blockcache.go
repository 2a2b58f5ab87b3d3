package exec

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// BlockCache is the session's choice of whether reads fill the region
// servers' block cache. The zero value is BlockCacheAuto.
type BlockCache int

const (
	// BlockCacheAuto keeps the block cache for point reads and small
	// range reads, and skips it for a read that may return more than
	// BigReadRows rows (see placeBlockCache).
	BlockCacheAuto BlockCache = iota
	// BlockCacheOn keeps the block cache for every read.
	BlockCacheOn
	// BlockCacheOff skips the block cache for every read.
	BlockCacheOff
)

// BigReadRows is the number of rows above which a read counts as big:
// it skips the block cache under BlockCacheAuto, so that its blocks do
// not push out the hot data of other readers.
const BigReadRows = 10_000

// BlockCacheNames lists the values ParseBlockCache takes.
const BlockCacheNames = "auto|on|off"

func (b BlockCache) String() string {
	switch b {
	case BlockCacheOn:
		return "on"
	case BlockCacheOff:
		return "off"
	}
	return "auto"
}

// ParseBlockCache reads auto, on or off, in any case.
func ParseBlockCache(s string) (BlockCache, error) {
	switch strings.ToLower(s) {
	case "auto":
		return BlockCacheAuto, nil
	case "on":
		return BlockCacheOn, nil
	case "off":
		return BlockCacheOff, nil
	}
	return 0, fmt.Errorf("block cache takes %s, not %q", strings.ReplaceAll(BlockCacheNames, "|", ", "), s)
}

// placeBlockCache decides whether the store reads sc with the block cache,
// for a store with Features.BlockCache and pushdown on; other stores, and
// a session with pushdown off, read as they do. Under BlockCacheAuto a
// read is big, and skips the cache, when nothing bounds its rows below
// BigReadRows and it reads the whole table or a range open at one end; a
// loose scan, a short read per distinct key prefix, is not big. The stores keep no statistics, so a range
// bounded at both ends (one seller's day, a key prefix) counts as small
// whatever it holds; BlockCacheOff covers a big one.
func placeBlockCache(sc *placed.Scan, sel *planner.Select, mode BlockCache, f Features) {
	if !f.BlockCache || sc.Kind == planner.EmptyResult {
		return
	}
	switch mode {
	case BlockCacheOn:
		sc.BlockCacheWhy = "set on for this session"
		return
	case BlockCacheOff:
		sc.NoBlockCache, sc.BlockCacheWhy = true, "set off for this session"
		return
	}
	if sc.Kind == planner.PointLookup || sc.Loose > 0 {
		return
	}
	if n := readBound(sc, sel); n > 0 && n <= BigReadRows {
		return
	}
	switch {
	case sc.Kind == planner.FullScan:
		sc.NoBlockCache, sc.BlockCacheWhy = true, "a whole-table scan"
	case openRange(sc.Access):
		sc.NoBlockCache, sc.BlockCacheWhy = true, "a range open at one end"
	}
}

// readBound is how many rows the store returns for sc at most: its row
// limit per scan times the scans, or the plan's LIMIT where it bounds a
// whole-table read; 0 when nothing bounds them.
func readBound(sc *placed.Scan, sel *planner.Select) int64 {
	if sc.Limit > 0 {
		scans := int64(len(sc.Ranges))
		if sc.MultiRange || scans == 0 {
			scans = 1
		}
		return sc.Limit * scans
	}
	if sel.Access == sc.Access {
		return planner.ReadBound(sel)
	}
	return 0
}

// openRange reports whether a range of a is open at its start or its end.
func openRange(a *planner.Access) bool {
	for _, r := range a.Ranges {
		if r.Start == nil || r.Stop == nil {
			return true
		}
	}
	return false
}

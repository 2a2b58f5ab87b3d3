package planner

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// AccessKind is how a table is read.
type AccessKind int

// Access kinds, named as EXPLAIN names them.
const (
	PointLookup AccessKind = iota
	RangeScan
	SkipScan
	FullScan
	EmptyResult
)

// kindWords names the access kind without counts or table.
func (a *Access) kindWords() string {
	return [...]string{"POINT LOOKUP", "RANGE SCAN", "SKIP SCAN", "FULL SCAN", "EMPTY RESULT"}[a.Kind]
}

// Header is the access path's first EXPLAIN line, without bounds.
func (a *Access) Header() string {
	var parts []string
	if a.Ways > 1 && a.Kind != PointLookup {
		parts = append(parts, fmt.Sprintf("PARALLEL %d-WAY", a.Ways))
	}
	switch a.Kind {
	case PointLookup:
		parts = append(parts, fmt.Sprintf("POINT LOOKUP ON %d %s", len(a.Ranges), plural(len(a.Ranges), "KEY", "KEYS")))
	case RangeScan:
		parts = append(parts, "RANGE SCAN")
	case SkipScan:
		parts = append(parts, fmt.Sprintf("SKIP SCAN ON %d RANGES", len(a.Ranges)))
	case FullScan:
		parts = append(parts, "FULL SCAN")
	case EmptyResult:
		return "EMPTY RESULT OVER " + a.Table.Name
	}
	if a.Reverse {
		parts = append(parts, "REVERSE")
	}
	if a.Loose > 0 {
		parts = append([]string{"LOOSE"}, parts...)
	}
	parts = append(parts, "OVER", a.Table.Name)
	return strings.Join(parts, " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func bracket(vals []string) string { return "[" + strings.Join(vals, ",") + "]" }

// bounds shows the first range's start and the last range's end.
func (a *Access) bounds() string {
	if len(a.Ranges) == 0 || a.Kind == FullScan {
		return ""
	}
	first, last := a.Ranges[0], a.Ranges[len(a.Ranges)-1]
	if a.Kind == PointLookup {
		if len(a.Ranges) == 1 {
			return " " + bracket(first.From)
		}
		return " " + bracket(first.From) + " … " + bracket(last.From)
	}
	return " " + bracket(first.From) + " - " + bracket(last.To)
}

func (a *Access) bytesLine() string {
	if len(a.Ranges) == 0 || a.Kind == FullScan {
		return ""
	}
	r := a.Ranges[0]
	s := catalog.ToStringBinary(r.Start)
	if !r.Point {
		stop := "<end>"
		if r.Stop != nil {
			stop = catalog.ToStringBinary(r.Stop)
		}
		if r.Start == nil {
			s = "<start>"
		}
		s += " - " + stop
	}
	if n := len(a.Ranges); n > 1 {
		s += fmt.Sprintf("  (+%d more)", n-1)
	}
	return s
}

// cost counts the reads an access makes: gets or scans, and the regions
// they touch according to env's region boundaries, as pl places the
// access (one scan of several ranges, parallel parts). It counts; it does
// not estimate rows, since the stores keep no statistics.
func (a *Access) cost(env ExplainEnv, pl Placing) string {
	c := a.serialCost(env, pl.MultiRange(a))
	if parts, workers := pl.Parallel(a); parts > 1 && workers > 1 {
		// Each part is one scanner, and so at least one RPC; a worker
		// reads its parts one after another.
		deep := (parts + workers - 1) / workers
		c += fmt.Sprintf(", as %d parts on %d workers side by side: at least %d %s one after another on the busiest worker", parts, workers, deep, plural(deep, "RPC", "RPCs"))
	}
	return c
}

// serialCost is cost without the parallel parts: multiRange says the
// store reads the ranges with one scan.
func (a *Access) serialCost(env ExplainEnv, multiRange bool) string {
	starts := env.Regions[a.Table.Physical]
	switch a.Kind {
	case EmptyResult:
		return "0 reads"
	case PointLookup:
		regions := map[int]bool{}
		for _, r := range a.Ranges {
			regions[regionOf(starts, r.Start)] = true
		}
		return fmt.Sprintf("%d %s in %d %s, one multi-get RPC per region server per batch", len(a.Ranges), plural(len(a.Ranges), "get", "gets"),
			len(regions), plural(len(regions), "region", "regions"))
	}
	total := map[int]bool{}
	touched := 0
	for _, r := range a.Ranges {
		lo, hi := regionOf(starts, r.Start), len(starts)-1
		if r.Stop != nil {
			hi = regionOf(starts, r.Stop)
			if hi > lo && hi < len(starts) && bytes.Equal(starts[hi], r.Stop) {
				hi-- // the stop key is exclusive
			}
		}
		hi = max(hi, lo)
		for i := lo; i <= hi; i++ {
			total[i] = true
		}
		touched += hi - lo + 1
	}
	scans := len(a.Ranges)
	if a.Loose > 0 {
		return fmt.Sprintf("1 scan per distinct key prefix, and 1 more per range (%d), over %d %s", scans, len(total), plural(len(total), "region", "regions"))
	}
	if multiRange {
		return fmt.Sprintf("1 scan of %d ranges over %d %s, at least %d %s", scans, len(total), plural(len(total), "region", "regions"), len(total), plural(len(total), "RPC", "RPCs"))
	}
	return fmt.Sprintf("%d %s over %d %s, at least %d %s", scans, plural(scans, "scan", "scans"), len(total), plural(len(total), "region", "regions"), touched, plural(touched, "RPC", "RPCs"))
}

// regionOf returns the index of the region holding key among regions
// starting at starts (sorted, the first empty); 0 when there are none.
func regionOf(starts [][]byte, key []byte) int {
	i := 0
	for j := 1; j < len(starts); j++ {
		if bytes.Compare(starts[j], key) <= 0 {
			i = j
		} else {
			break
		}
	}
	return i
}

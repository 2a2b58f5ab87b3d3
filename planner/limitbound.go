package planner

import (
	"errors"
	"fmt"

	"github.com/rkql/rkql/parser"
)

// ErrFullScan is the cause of the error of a statement that would read a
// whole table without ALLOW FULL SCAN: errors.Is tells it apart.
var ErrFullScan = errors.New("planner: the statement would read the whole table")

// ReadBound is how many stored rows a plan that reads the whole table
// reads at most, because its LIMIT stops the read: 0 when nothing bounds
// it. Such a plan needs no ALLOW FULL SCAN.
//
// A LIMIT bounds the read when nothing between the access and the LIMIT
// needs more rows than the LIMIT passes on: no filter the store would scan
// past, no sort, DISTINCT, count or aggregate, no index lookup (an index
// entry may dangle), and one stored row is one result row (a table whose
// rows expand into several is left out, and so is SELECT RAW, whose scan
// takes no row limit). A merge of the access's ranges reads at most the
// LIMIT from each range, so the bound is the LIMIT (with its OFFSET)
// times the ranges.
func ReadBound(sel *Select) int64 {
	acc := sel.Access
	if acc == nil || acc.Kind != FullScan || acc.Loose > 0 || sel.Raw || acc.Table.Expands() {
		return 0
	}
	path := Path(sel.Root)
	if len(path) == 0 || path[0] != Node(acc) {
		return 0
	}
	var want int64
	for _, n := range path[1:] {
		switch n := n.(type) {
		case *MergeSort, *Project:
			if want > 0 {
				return 0
			}
		case *Limit:
			if want > 0 || n.N == NoLimit || n.N <= 0 {
				return 0
			}
			want = n.Want()
		default:
			return 0
		}
	}
	return want * int64(max(len(acc.Ranges), 1))
}

// readBoundNote is the EXPLAIN note of a plan whose LIMIT bounds the read
// of the whole table.
func readBoundNote(sel *Select) string {
	n := ReadBound(sel)
	lim, _ := Find[*Limit](sel.Root)
	ranges := max(len(sel.Access.Ranges), 1)
	msg := fmt.Sprintf("nothing binds the start of the key, but LIMIT %d bounds the read: at most %d rows", lim.N, lim.Want())
	if lim.Offset > 0 {
		msg = fmt.Sprintf("nothing binds the start of the key, but LIMIT %d OFFSET %d bounds the read: at most %d rows", lim.N, lim.Offset, lim.Want())
	}
	if ranges > 1 {
		msg += fmt.Sprintf(" (x %d ranges, %d in all)", ranges, n)
	}
	return msg + "."
}

// fullScanRefused is the error of a read of the whole table that neither
// the statement nor the session allows, at pos.
func fullScanRefused(pos parser.Pos, msg string) error {
	return &parser.Error{Pos: pos, Msg: msg, Err: ErrFullScan}
}

// withRetry adds to a full-scan refusal of stmt the statement to type to
// read the table anyway: stmt with ALLOW FULL SCAN.
func withRetry(stmt parser.Stmt, err error) error {
	var pe *parser.Error
	if !errors.Is(err, ErrFullScan) || !errors.As(err, &pe) {
		return err
	}
	if again := allowingFullScan(stmt); again != nil {
		return &parser.Error{Pos: pe.Pos, Line: pe.Line, Col: pe.Col, Msg: pe.Msg + ": " + again.String(), Err: pe.Err}
	}
	return err
}

// allowingFullScan is a copy of stmt with ALLOW FULL SCAN, or nil for a
// statement that takes none.
func allowingFullScan(stmt parser.Stmt) parser.Stmt {
	switch s := stmt.(type) {
	case *parser.SelectStmt:
		c := *s
		c.AllowFullScan = true
		return &c
	case *parser.DeleteStmt:
		c := *s
		c.AllowFullScan = true
		return &c
	case *parser.UpdateStmt:
		c := *s
		c.AllowFullScan = true
		return &c
	case *parser.ExplainStmt:
		in := allowingFullScan(s.Stmt)
		if in == nil {
			return nil
		}
		c := *s
		c.Stmt = in
		return &c
	}
	return nil
}

// limitUnbounded says why the statement's LIMIT does not bound the read
// of the whole table, as a clause after "(FULL SCAN)"; "" when it has no
// LIMIT.
func limitUnbounded(sel *Select) string {
	lim, ok := Find[*Limit](sel.Root)
	if !ok || lim.N == NoLimit {
		return ""
	}
	why := "its rows expand into several, counted in the client"
	switch {
	case sel.Raw:
		why = "the scan of SELECT RAW takes no row limit"
	case !sel.Access.Table.Expands():
		why = pathObstacle(sel)
	}
	if why == "" {
		return ""
	}
	return fmt.Sprintf(", which LIMIT %d does not bound (%s)", lim.N, why)
}

// pathObstacle names the first node between the access and the LIMIT
// that needs more rows than the LIMIT passes on.
func pathObstacle(sel *Select) string {
	for _, n := range Path(sel.Root)[1:] {
		switch n := n.(type) {
		case *Filter:
			return "the store would scan past every row that fails " + n.Cond.String()
		case *IndexLookup:
			return "the index's entries are checked against the table"
		case *Sort:
			return "the client sorts every row first"
		case *Distinct:
			return "DISTINCT reads every row"
		case *Count, *Aggregate:
			return "the aggregate reads every row"
		case *Limit:
			if n.N == 0 {
				return "LIMIT 0 is not a bound the read can use"
			}
			return ""
		}
	}
	return ""
}

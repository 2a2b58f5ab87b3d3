package planner

import (
	"math"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// AsOf is the time a read sees its table as of (SELECT … FROM t AS OF
// TIMESTAMP '…'): each cell's newest version written at or before At.
// The store applies it as the read's time range [0, At+1), before it
// counts versions (HBase's Scan.setTimeRange and Get.setTimeRange), so
// a row none of whose cells is that old is not read at all. Delete
// markers are not in the range's reach: on HBase a marker at any time
// hides the versions it covers, so a deleted version stays deleted as
// of any earlier time, and the embedded store, which removes what a
// delete covers, reads the same.
type AsOf struct {
	// At is the time in milliseconds since the epoch.
	At int64
}

// From and To are the bounds of the read's time range, [From, To).
func (a *AsOf) From() int64 { return 0 }

// To is past the last time the read sees.
func (a *AsOf) To() int64 { return satAdd(a.At, 1) }

// String is the time as EXPLAIN shows it, with the range.
func (a *AsOf) String() string {
	return catalog.TimestampMillis(a.At).Text() + " (time range [0, " + strconv.FormatInt(a.To(), 10) + "))"
}

// asOf reads the time of a SELECT's AS OF clause: a TIMESTAMP, a string
// a TIMESTAMP reads, or milliseconds since the epoch. nil when absent.
func asOf(s *parser.SelectStmt) (*AsOf, error) {
	if s.AsOf == nil {
		return nil, nil
	}
	var at int64
	switch e := s.AsOf.(type) {
	case *parser.IntLit:
		at = e.Val
	case *parser.TimestampLit:
		at = e.Val.UnixMilli()
	case *parser.StringLit:
		v, err := catalog.ParseText(catalog.TypeTimestamp, e.Val)
		if err != nil {
			return nil, errAt(e.Pos(), "AS OF: %v", err)
		}
		at = v.I
	default:
		return nil, errAt(s.AsOf.Pos(), "AS OF takes a TIMESTAMP '…' or milliseconds since the epoch, not %s", s.AsOf)
	}
	if at < 0 || at == math.MaxInt64 {
		return nil, errAt(s.AsOf.Pos(), "AS OF %s is before 1970 or past the last time a cell can have", s.AsOf)
	}
	return &AsOf{At: at}, nil
}

// TimeRange is the range of cell times the store keeps for the access,
// [from, to): its AS OF and the lower bound of _ts where that is exact
// (see tsFrom). ok is false when the access reads every time.
func (a *Access) TimeRange() (from, to int64, ok bool) {
	if a.AsOf == nil && a.TsFrom == 0 {
		return 0, 0, false
	}
	to = math.MaxInt64
	if a.AsOf != nil {
		to = a.AsOf.To()
	}
	return a.TsFrom, max(to, a.TsFrom), true
}

// TimeRangeText is the access's time range as EXPLAIN shows it, and
// why it is read.
func (a *Access) TimeRangeText() (string, bool) {
	from, to, ok := a.TimeRange()
	if !ok {
		return "", false
	}
	text := "[" + strconv.FormatInt(from, 10) + ", "
	if to == math.MaxInt64 {
		text += "∞)"
	} else {
		text += strconv.FormatInt(to, 10) + ")"
	}
	var why []string
	if a.AsOf != nil {
		why = append(why, "as of "+catalog.TimestampMillis(a.AsOf.At).Text())
	}
	if a.TsFrom > 0 {
		why = append(why, "_ts from "+catalog.TimestampMillis(a.TsFrom).Text()+": only keys and _ts are read, and a row's newest cell is in the range exactly when its _ts is")
	}
	return text + " (" + strings.Join(why, "; ") + ")", true
}

// tsFrom is the lower bound the WHERE clause's conjuncts put on _ts, as
// the start of the read's time range, where that is exact: when the
// query needs no stored column (only key fields and _ts), one version,
// of a table whose stored rows are its rows. A row's _ts is its newest
// cell's time, so the range keeps a cell of the row exactly when _ts
// passes the bound, and _ts itself is unchanged. The conjunct stays a
// row filter too. Where it is not exact (a stored column is read, whose
// older cells the range would drop), note says so.
func tsFrom(t *catalog.Table, conj []expr.Expr, needed []int, versions int) (from int64, note string) {
	ts := t.TsIndex()
	for _, c := range conj {
		var lo int64
		switch c := c.(type) {
		case *expr.Cmp:
			if c.Col != ts || c.Val.Null || c.Val.Type != catalog.TypeTimestamp {
				continue
			}
			switch c.Op {
			case expr.Eq, expr.Ge:
				lo = c.Val.I
			case expr.Gt:
				lo = satAdd(c.Val.I, 1)
			default:
				continue
			}
		case *expr.Between:
			if c.Col != ts || c.Not || c.Lo.Null || c.Lo.Type != catalog.TypeTimestamp {
				continue
			}
			lo = c.Lo.I
		default:
			continue
		}
		from = max(from, lo)
	}
	if from <= 0 {
		return 0, ""
	}
	if versions > 1 || t.Expands() {
		return 0, "the bound on _ts stays a row filter: a time range would change the versions or cells read"
	}
	for _, i := range needed {
		if i != ts && (i >= len(t.Columns) || !t.Columns[i].KeyField) {
			return 0, "the bound on _ts stays a row filter: the query reads stored columns, whose cells older than the bound a time range would drop"
		}
	}
	return from, ""
}

package planner

import (
	"math"
	"strconv"

	"github.com/rkql/rkql/catalog"
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

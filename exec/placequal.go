package exec

import (
	"bytes"

	"github.com/rkql/rkql/exec/placed"
)

// placeQualifiers hands the store the qualifier ranges of a read of a
// wide family whose qualifier is a field, when it is a
// QualifierPushdown. The conditions they come from stay in the client
// filter, which tests every row read; the store only reads fewer cells.
func placeQualifiers(sc *placed.Scan, pd Pushdown) {
	qp, ok := pd.(QualifierPushdown)
	if !ok || sc.Access.Qualifiers == nil {
		return
	}
	sc.Qualifiers = true
	sc.QualifierHow = qp.QualifierFilter(qualifierRanges(sc))
}

// projectedEntries are the MAP entries a projected read of sc needs;
// nil when the read is not projected.
func projectedEntries(sc *placed.Scan) map[int][][]byte {
	if sc.Columns == nil || sc.KeysOnly {
		return nil
	}
	return sc.Access.Entries
}

// qualifierRanges are the qualifier ranges the store keeps of sc's
// read; nil when it keeps every cell.
func qualifierRanges(sc *placed.Scan) *QualifierRanges {
	if !sc.Qualifiers {
		return nil
	}
	t := sc.Access.Table
	q := &QualifierRanges{Family: t.Wide.Family, Alone: len(t.Families) == 1}
	for _, r := range sc.Access.Qualifiers {
		if r.Point {
			q.Ranges = append(q.Ranges, Range{Start: r.Start, Stop: append(bytes.Clone(r.Start), 0)})
			continue
		}
		q.Ranges = append(q.Ranges, Range{Start: r.Start, Stop: r.Stop})
	}
	return q
}

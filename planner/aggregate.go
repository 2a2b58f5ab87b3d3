package planner

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// AggFunc is an aggregate function.
type AggFunc int

// The aggregate functions.
const (
	AggCount AggFunc = iota // COUNT(*) when Arg is nil, else the non-NULL values
	AggSum
	AggMin
	AggMax
	AggAvg
)

var aggNames = [...]string{"COUNT", "SUM", "MIN", "MAX", "AVG"}

func (f AggFunc) String() string { return aggNames[f] }

// AggCall is one aggregate an Aggregate computes. NULL values are
// ignored; over no values COUNT is 0 and the others are NULL. The result
// types: COUNT is BIGINT; SUM of integers is BIGINT (a sum that does not
// fit is an error) and of doubles DOUBLE; AVG is DOUBLE; MIN and MAX keep
// their argument's type.
//
// Every aggregate has a partial state that merges (AVG as a sum and a
// count), so that a store computing partial aggregates per region could
// feed the same node.
type AggCall struct {
	Func AggFunc
	// Arg is the aggregated value over the input rows; nil for COUNT(*).
	Arg      expr.Scalar
	Distinct bool
	// Type is the result type.
	Type catalog.Type
	// Text is the call as written, for EXPLAIN and column names.
	Text string
}

// AggStrategy is how an Aggregate groups its rows.
type AggStrategy int

// The strategies, as EXPLAIN names them.
const (
	// OneGroup aggregates every row into one result row, even when
	// there are none (no GROUP BY).
	OneGroup AggStrategy = iota
	// StreamAggregate relies on its input arriving grouped (the key
	// order serves the GROUP BY): it holds one group at a time.
	StreamAggregate
	// HashAggregate holds every group in memory, bounded by the
	// executor's group budget.
	HashAggregate
)

// Aggregate groups its input's rows by Groups and computes Aggs for each
// group. Its rows hold the group values, then the aggregates, in order.
type Aggregate struct {
	Strategy AggStrategy
	Groups   []expr.Scalar
	// GroupNames are the GROUP BY expressions as written.
	GroupNames []string
	Aggs       []AggCall
	In         Node
}

// Width is the number of values in each of the node's rows.
func (n *Aggregate) Width() int { return len(n.Groups) + len(n.Aggs) }

// Project computes each row's values from its input row: the select
// list, and the ORDER BY expressions a sort above reads.
type Project struct {
	Exprs []expr.Scalar
	// Names name the values, for EXPLAIN.
	Names []string
	// Shown is how many of Exprs the statement returns; the rest are for
	// a sort.
	Shown int
	In    Node
}

// step is the node's EXPLAIN step; server, when not "", says how the
// store computes the aggregates where the data lives.
func (n *Aggregate) step(server string) Step {
	aggs := make([]string, len(n.Aggs))
	for i, a := range n.Aggs {
		aggs[i] = a.Text
	}
	st := Step{Attrs: []Attr{{Label: "aggregates", Value: aggs, Detail: true}, {Label: "group by", Value: n.GroupNames, Detail: true}}}
	on := strings.Join(n.GroupNames, ", ")
	switch {
	case server != "":
		st.Op, st.Title = "SERVER AGGREGATE", "SERVER AGGREGATE INTO ONE ROW"
		st.Attrs = append(st.Attrs, Attr{Label: "BY", Value: server},
			Attr{Label: "NOTE", Value: "each region computes its part and rkql combines them; the regions count every row in the ranges, including rows whose key does not fit the layout"})
	case n.Strategy == OneGroup:
		st.Op, st.Title = "CLIENT AGGREGATE", "CLIENT AGGREGATE INTO ONE ROW"
	case n.Strategy == StreamAggregate:
		st.Op, st.Title = "STREAM AGGREGATE", "CLIENT STREAM AGGREGATE ON "+on
		st.Attrs = append(st.Attrs, Attr{Label: "GROUPS", Value: "arrive in key order: one group is held at a time"})
	default:
		st.Op, st.Title = "HASH AGGREGATE", "CLIENT HASH AGGREGATE ON "+on
		st.Attrs = append(st.Attrs, Attr{Label: "GROUPS", Value: "held in memory, at most the group budget"})
	}
	if len(aggs) > 0 {
		st.Attrs = append(st.Attrs, Attr{Label: "COMPUTE", Value: strings.Join(aggs, ", ")})
	}
	return st
}

func (n *Project) step() Step {
	names := n.Names[:n.Shown]
	st := Step{Op: "CLIENT PROJECT", Title: "CLIENT PROJECT " + strings.Join(names, ", "),
		Attrs: []Attr{{Label: "columns", Value: names, Detail: true}}}
	if n.Shown < len(n.Names) {
		st.Attrs = append(st.Attrs, Attr{Label: "FOR SORT", Value: strings.Join(n.Names[n.Shown:], ", ")})
	}
	return st
}

func (n *Limit) step() Step {
	st := Step{Op: "CLIENT LIMIT", Attrs: []Attr{{Label: "rows", Value: n.N, Detail: true}}}
	if n.Offset > 0 {
		st.Attrs = append(st.Attrs, Attr{Label: "offset", Value: n.Offset, Detail: true})
	}
	switch {
	case n.N == NoLimit:
		st.Op, st.Title = "CLIENT OFFSET", fmt.Sprintf("CLIENT OFFSET %d ROWS", n.Offset)
	case n.Offset > 0:
		st.Title = fmt.Sprintf("CLIENT %d ROW LIMIT OFFSET %d", n.N, n.Offset)
	default:
		st.Title = fmt.Sprintf("CLIENT %d ROW LIMIT", n.N)
	}
	return st
}

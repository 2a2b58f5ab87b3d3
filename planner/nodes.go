package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// Node is an operator of a SELECT's plan tree. Rows flow from the leaf, an
// Access, up to the root; each node's Input is the node below it. EXPLAIN
// prints the tree from the leaf up, as Phoenix does: the read first, then
// each step the client applies to its rows.
//
// The set is sealed: Access, Union, MergeSort, IndexLookup, Filter,
// Aggregate, Project, Distinct, Sort, Count, Limit, Join and Derived.
type Node interface {
	// Input is the node whose rows this one consumes; nil for a leaf.
	Input() Node
	node()
}

var (
	_ Node = (*Access)(nil)
	_ Node = (*MergeSort)(nil)
	_ Node = (*IndexLookup)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Distinct)(nil)
	_ Node = (*Union)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Count)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*Aggregate)(nil)
	_ Node = (*Project)(nil)
	_ Node = (*Join)(nil)
	_ Node = (*Derived)(nil)
)

// NoLimit is a Limit that does not limit: the statement has no LIMIT.
const NoLimit int64 = -1

// Access is the leaf of a plan: the key ranges or points of one table,
// and the stored columns the plan reads of each row.
//
// The planner leaves every filter, limit and count to the client: what a
// store takes of that work is not part of the plan but of its placement
// (exec.Place), a value of its own that leaves the plan as it is.
type Access struct {
	Table  *catalog.Table
	Kind   AccessKind
	Ranges []KeyRange
	// Ways is the fan-out over hash, bucket, salt or random components
	// (1 when none): the ranges are read in parallel.
	Ways int64
	// Reverse reads every range backwards.
	Reverse bool
	// Loose, when above 0, makes the access a loose scan: it reads the
	// first row (that passes the filters) of each distinct value of the
	// key's first Loose components, then reads on from past that prefix.
	// A Distinct node above keeps each distinct row once.
	Loose int
	// Union is the number of branches of an OR whose key ranges the
	// access unites (0 when none); the whole WHERE clause is then tested
	// on every row it reads.
	Union int
	// Versions per cell; 0 means the newest only.
	Versions int
	// Columns are the stored columns the plan reads (value columns; key
	// fields come from the key); nil means every column. Empty and
	// non-nil means the key alone serves the query.
	Columns []int
	// KeyText appends the _key pseudo-column to each row read: its raw
	// key as Bytes.toStringBinary shows it, after _ts.
	KeyText bool
	// AsOf, when set, reads each cell as of that time: the store's time
	// range [0, AsOf.At+1) (see AsOf).
	AsOf *AsOf
	// TsFrom, when above 0, is the start of the read's time range: the
	// lower bound of _ts in WHERE, where that is exact (see tsFrom).
	TsFrom int64
	// Entries, for a MAP column among Columns that the statement reads
	// only as m['key'] with constant keys, are the qualifiers of those
	// keys: the read needs only those cells of its family.
	Entries map[int][][]byte
	// Qualifiers, for a wide family whose qualifier is a field, are the
	// qualifier ranges (or points) that the WHERE clause's conditions on
	// that field allow, planned as a one-field key; nil reads every
	// cell. The conditions stay in the filter above: a store that
	// applies the ranges only reads fewer cells.
	Qualifiers []KeyRange
}

// MergeSort merges the sorted streams of its input's ranges on the key
// bytes from component From onwards (CLIENT MERGE SORT).
type MergeSort struct {
	From int
	Desc bool
	// On names the fields the merge orders by, for EXPLAIN.
	On []string
	In *Access
}

// IndexLookup turns the index entries its input reads back into data
// rows: from the covered copy when the entry is verified and covers every
// column the query needs, otherwise by a batched Get of the data row.
type IndexLookup struct {
	Index *catalog.Index
	// Data is the data table.
	Data *catalog.Table
	// Covered means no data-table read is needed for verified entries.
	Covered bool
	// ToData maps each index-table column to its data-table column.
	ToData []int
	// Filter is the condition, over data-table columns, that a row must
	// pass after the lookup; nil when none.
	Filter expr.Expr
	// DataOnly is the part of Filter the index cannot test (CLIENT FILTER
	// BY in EXPLAIN).
	DataOnly expr.Expr
	In       Node
}

// Filter drops the rows its condition does not hold for, in the client.
type Filter struct {
	Cond expr.Expr
	In   Node
}

// Union is a leaf that reads, one after another, the plans of the
// branches of an OR that no single access serves, and passes each data
// row once: a row two branches reach is recognised by the values of the
// data table's key fields (Key). Each branch yields whole data rows; the
// whole WHERE clause is tested above the union.
type Union struct {
	Branches []*Select
	Key      []int
}

// Distinct passes each row whose values in Cols it has not passed yet
// (CLIENT DISTINCT), holding those values in memory.
type Distinct struct {
	Cols  []int
	Names []string
	In    Node
}

// SortKey is one column of a client sort.
type SortKey struct {
	Col  int
	Name string
	Desc bool
}

// Sort is a client sort; with a Limit other than NoLimit it keeps only
// the top rows.
type Sort struct {
	Keys  []SortKey
	Limit int64
	// Keep lists the columns the nodes above read (outputs and sort
	// keys): a sort holding many rows keeps only their values.
	Keep []int
	In   Node
}

// Count replaces its input's rows with one row holding their number.
type Count struct {
	In Node
}

// Limit skips the first Offset rows, then passes at most N (all of them
// when N is NoLimit).
type Limit struct {
	N      int64
	Offset int64
	In     Node
}

// Want is how many rows the nodes below must yield for the limit: N
// plus Offset, or NoLimit.
func (n *Limit) Want() int64 {
	if n.N == NoLimit {
		return NoLimit
	}
	return n.N + n.Offset
}

// Input returns nil: an access is a leaf.
func (*Access) Input() Node { return nil }

// Input returns nil: a union is a leaf; its branches are plans of their
// own.
func (*Union) Input() Node { return nil }

// Input is the access whose ranges are merged.
func (n *MergeSort) Input() Node { return n.In }

// Input is the read of the index table.
func (n *IndexLookup) Input() Node { return n.In }

// Input is the filtered node.
func (n *Filter) Input() Node { return n.In }

// Input is the node whose rows are deduplicated.
func (n *Distinct) Input() Node { return n.In }

// Input is the sorted node.
func (n *Sort) Input() Node { return n.In }

// Input is the counted node.
func (n *Count) Input() Node { return n.In }

// Input is the limited node.
func (n *Limit) Input() Node { return n.In }

// Input is the aggregated node.
func (n *Aggregate) Input() Node { return n.In }

// Input is the projected node.
func (n *Project) Input() Node { return n.In }

func (*Aggregate) node()   {}
func (*Project) node()     {}
func (*Access) node()      {}
func (*MergeSort) node()   {}
func (*IndexLookup) node() {}
func (*Filter) node()      {}
func (*Distinct) node()    {}
func (*Union) node()       {}
func (*Sort) node()        {}
func (*Count) node()       {}
func (*Limit) node()       {}

// Accesses lists the reads of a plan: its access, or those of its union's
// branches, or of a join's sides (a lookup join's as EXPLAIN shows one
// batch).
func (s *Select) Accesses() []*Access {
	if s.Access != nil {
		return []*Access{s.Access}
	}
	var out []*Access
	if d, ok := Find[*Derived](s.Root); ok {
		return d.Inner.Accesses()
	}
	if j, ok := Find[*Join](s.Root); ok {
		out = append(out, j.First.Accesses()...)
		for _, st := range j.Steps {
			out = append(out, st.Right.Accesses()...)
		}
		return out
	}
	if u, ok := Find[*Union](s.Root); ok {
		for _, b := range u.Branches {
			out = append(out, b.Accesses()...)
		}
	}
	return out
}

// Leaf returns the access at the bottom of a plan tree.
func Leaf(n Node) *Access {
	for n != nil {
		if a, ok := n.(*Access); ok {
			return a
		}
		n = n.Input()
	}
	return nil
}

// Find returns the first node of type T on the path from n to its leaf.
func Find[T Node](n Node) (T, bool) {
	for n != nil {
		if t, ok := n.(T); ok {
			return t, true
		}
		n = n.Input()
	}
	var zero T
	return zero, false
}

// Path lists the nodes from the leaf up to n.
func Path(n Node) []Node {
	var out []Node
	for ; n != nil; n = n.Input() {
		out = append(out, n)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

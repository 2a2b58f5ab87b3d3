package planner

import (
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The maintenance plans: the store acts on a table's regions, or on the
// cluster's balancer.

// Flush is FLUSH t: the table's memstores written out to store files.
type Flush struct{ Table *catalog.Table }

// Compact is COMPACT t, or MAJOR COMPACT t when Major.
type Compact struct {
	Table *catalog.Table
	Major bool
}

// Split is SPLIT t AT …: a new region boundary at Key.
type Split struct {
	Table *catalog.Table
	Key   []byte
	// Fields are the field values the key was computed from, as written
	// ("seller = 's5'"); empty for a key given as bytes.
	Fields string
}

// Merge is MERGE REGIONS t …: the regions starting at Starts merged into
// one.
type Merge struct {
	Table  *catalog.Table
	Starts [][]byte
}

// Snapshot is SNAPSHOT t AS name.
type Snapshot struct {
	Table *catalog.Table
	Name  string
}

// ShowSnapshots is SHOW SNAPSHOTS.
type ShowSnapshots struct{}

// RestoreSnapshot is RESTORE SNAPSHOT name.
type RestoreSnapshot struct{ Name string }

func (*RestoreSnapshot) plan() {}

// CloneSnapshot is CLONE SNAPSHOT name AS t [HBASE 'table'].
type CloneSnapshot struct {
	Name  string
	Table string // the catalog name of the new table
	HBase string // its HBase table: Table when not given
}

func (*CloneSnapshot) plan() {}

// DropSnapshot is DROP SNAPSHOT name.
type DropSnapshot struct{ Name string }

func (*Snapshot) plan()      {}
func (*ShowSnapshots) plan() {}
func (*DropSnapshot) plan()  {}

// ShowStatus is SHOW CLUSTER.
type ShowStatus struct{}

func (*ShowStatus) plan() {}

// CheckCluster is CHECK CLUSTER [t]: the regions in hbase:meta of the
// HBase tables of t (its own and its indexes'), of the HBase table HBase
// that no catalog table names, or of every HBase table when both are
// empty.
type CheckCluster struct {
	Table *catalog.Table
	HBase string
}

func (*CheckCluster) plan() {}

// Balancer is BALANCER ON|OFF, or BALANCER (Switch "") to show its state.
type Balancer struct{ Switch string }

func (*Flush) plan()    {}
func (*Compact) plan()  {}
func (*Split) plan()    {}
func (*Merge) plan()    {}
func (*Balancer) plan() {}

// maintPlan plans the maintenance statements; ok is false for any other.
func (pl *Planner) maintPlan(stmt parser.Stmt) (p Plan, ok bool, err error) {
	switch s := stmt.(type) {
	case *parser.FlushStmt:
		t, err := pl.table(s.Table)
		return &Flush{Table: t}, true, err
	case *parser.CompactStmt:
		t, err := pl.table(s.Table)
		return &Compact{Table: t, Major: s.Major}, true, err
	case *parser.SplitStmt:
		p, err := pl.split(s)
		return p, true, err
	case *parser.MergeStmt:
		t, err := pl.table(s.Table)
		if err != nil {
			return nil, true, err
		}
		m := &Merge{Table: t}
		for _, k := range s.Keys {
			b, err := keyBytes(k, "MERGE REGIONS")
			if err != nil {
				return nil, true, err
			}
			if slices.ContainsFunc(m.Starts, func(x []byte) bool { return string(x) == string(b) }) {
				return nil, true, errAt(k.Pos(), "MERGE REGIONS names the region starting at %s twice", catalog.ToStringBinary(b))
			}
			m.Starts = append(m.Starts, b)
		}
		return m, true, nil
	case *parser.BalancerStmt:
		return &Balancer{Switch: s.Switch}, true, nil
	case *parser.ShowStatusStmt:
		return &ShowStatus{}, true, nil
	case *parser.CheckClusterStmt:
		if s.Table == nil {
			return &CheckCluster{}, true, nil
		}
		if t, ok := pl.cat.Table(s.Table.Name); ok {
			return &CheckCluster{Table: t}, true, nil
		}
		return &CheckCluster{HBase: s.Table.Name}, true, nil
	case *parser.SnapshotStmt:
		t, err := pl.table(s.Table)
		return &Snapshot{Table: t, Name: s.Name.Name}, true, err
	case *parser.ShowSnapshotsStmt:
		return &ShowSnapshots{}, true, nil
	case *parser.RestoreSnapshotStmt:
		return &RestoreSnapshot{Name: s.Name.Name}, true, nil
	case *parser.CloneSnapshotStmt:
		if _, ok := pl.cat.Table(s.Table.Name); ok {
			return nil, true, errAt(s.Table.NamePos, "CLONE SNAPSHOT: table %s is in the catalog already", s.Table.Name)
		}
		hb := s.HBase
		if hb == "" {
			hb = s.Table.Name
		}
		return &CloneSnapshot{Name: s.Name.Name, Table: s.Table.Name, HBase: hb}, true, nil
	case *parser.DropSnapshotStmt:
		return &DropSnapshot{Name: s.Name.Name}, true, nil
	}
	return nil, false, nil
}

// keyBytes reads a key written as a string in Bytes.toStringBinary form
// ('r\x00') or as bytes (x'7200').
func keyBytes(e parser.Expr, what string) ([]byte, error) {
	switch k := e.(type) {
	case *parser.StringLit:
		v, err := catalog.ParseText(catalog.TypeBytes, k.Val)
		if err != nil {
			return nil, errAt(k.Pos(), "%v", err)
		}
		return v.B, nil
	case *parser.BytesLit:
		return k.Val, nil
	}
	return nil, errAt(e.Pos(), "%s takes a key as a string such as 'r\\x00' or as bytes such as x'7200'", what)
}

// split computes the split key: the bytes given, or the leading key
// components of the fields given, encoded as an INSERT encodes them.
func (pl *Planner) split(s *parser.SplitStmt) (*Split, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	if len(s.Fields) == 0 {
		key, err := keyBytes(s.Key, "SPLIT … AT")
		if err == nil && len(key) == 0 {
			err = errAt(s.Key.Pos(), "a split key cannot be empty: the first region starts there")
		}
		return &Split{Table: t, Key: key}, err
	}
	c := &compiler{t: t}
	row := t.NewRow()
	var given []int
	var texts []string
	for _, a := range s.Fields {
		col, err := c.column(a.Column.NamePos, a.Column.Name)
		if err != nil {
			return nil, err
		}
		if col == len(t.Columns) || !t.Columns[col].KeyField && !isHashInput(t, col) {
			return nil, errAt(a.Column.NamePos, "%s is not a key field of %s (key: %s)", a.Column.Name, t.Name, t.Key)
		}
		if row[col], err = c.exactValue(col, a.Value); err != nil {
			return nil, err
		}
		given = append(given, col)
		texts = append(texts, a.String())
	}
	key, used, err := t.EncodeKeyPrefix(row)
	if err != nil {
		return nil, errAt(s.Table.NamePos, "%v", err)
	}
	for i, col := range given {
		if !slices.Contains(used, col) {
			return nil, errAt(s.Fields[i].Column.NamePos, "%s is not in the key's leading fields that SPLIT … AT was given (key: %s): give the fields before it too", t.Columns[col].Name, t.Key)
		}
	}
	if len(key) == 0 {
		return nil, errAt(s.Split, "the split key of %s is empty", t.Name)
	}
	return &Split{Table: t, Key: key, Fields: strings.Join(texts, ", ")}, nil
}

package parser

import "strings"

// The maintenance statements act on a table's regions and the cluster's
// balancer; the store runs them.

// FlushStmt is FLUSH t.
type FlushStmt struct {
	Flush Pos
	Table Ident
}

// CompactStmt is COMPACT t or MAJOR COMPACT t.
type CompactStmt struct {
	Compact Pos
	Major   bool
	Table   Ident
}

// SplitStmt is SPLIT t AT (field = value, …), the key computed from the
// layout, or SPLIT t AT 'key' | x'…', the key as given.
type SplitStmt struct {
	Split  Pos
	Table  Ident
	Fields []Assignment
	Key    Expr // *StringLit or *BytesLit when Fields is empty
}

// MergeStmt is MERGE REGIONS t key, key…: the regions starting at the
// keys (each a *StringLit or *BytesLit; ” is the first region).
type MergeStmt struct {
	Merge Pos
	Table Ident
	Keys  []Expr
}

// BalancerStmt is BALANCER ON, BALANCER OFF, or BALANCER, which shows
// the balancer's state.
type BalancerStmt struct {
	Balancer Pos
	// Switch is "ON", "OFF", or "" to show the state.
	Switch string
}

// ShowStatusStmt is SHOW CLUSTER: the cluster's health.
type ShowStatusStmt struct{ Show Pos }

func (s *ShowStatusStmt) Pos() Pos     { return s.Show }
func (*ShowStatusStmt) node()          {}
func (*ShowStatusStmt) stmt()          {}
func (*ShowStatusStmt) String() string { return "SHOW CLUSTER" }

// CheckClusterStmt is CHECK CLUSTER [t] (or CHECK META [t]): whether
// hbase:meta's regions of t, or of every table, tile it and are
// deployed.
type CheckClusterStmt struct {
	Check Pos
	Table *Ident // nil for every table
}

func (s *CheckClusterStmt) Pos() Pos { return s.Check }
func (*CheckClusterStmt) node()      {}
func (*CheckClusterStmt) stmt()      {}
func (s *CheckClusterStmt) String() string {
	if s.Table == nil {
		return "CHECK CLUSTER"
	}
	return "CHECK CLUSTER " + s.Table.String()
}

// SnapshotStmt is SNAPSHOT t AS name.
type SnapshotStmt struct {
	Snapshot Pos
	Table    Ident
	Name     Ident
}

// RestoreSnapshotStmt is RESTORE SNAPSHOT name.
type RestoreSnapshotStmt struct {
	Restore Pos
	Name    Ident
}

func (s *RestoreSnapshotStmt) Pos() Pos { return s.Restore }
func (*RestoreSnapshotStmt) node()      {}
func (*RestoreSnapshotStmt) stmt()      {}
func (s *RestoreSnapshotStmt) String() string {
	return "RESTORE SNAPSHOT " + s.Name.String()
}

// CloneSnapshotStmt is CLONE SNAPSHOT name AS t [HBASE 'table']: a new
// HBase table from the snapshot, described in the catalog as t.
type CloneSnapshotStmt struct {
	Clone Pos
	Name  Ident
	Table Ident
	// HBase is the new HBase table's name; "" is t's name.
	HBase string
}

func (s *CloneSnapshotStmt) Pos() Pos { return s.Clone }
func (*CloneSnapshotStmt) node()      {}
func (*CloneSnapshotStmt) stmt()      {}
func (s *CloneSnapshotStmt) String() string {
	out := "CLONE SNAPSHOT " + s.Name.String() + " AS " + s.Table.String()
	if s.HBase != "" {
		out += " HBASE " + QuoteString(s.HBase)
	}
	return out
}

// ShowSnapshotsStmt is SHOW SNAPSHOTS.
type ShowSnapshotsStmt struct{ Show Pos }

// DropSnapshotStmt is DROP SNAPSHOT name.
type DropSnapshotStmt struct {
	Drop Pos
	Name Ident
}

func (s *SnapshotStmt) Pos() Pos      { return s.Snapshot }
func (s *ShowSnapshotsStmt) Pos() Pos { return s.Show }
func (s *DropSnapshotStmt) Pos() Pos  { return s.Drop }
func (*SnapshotStmt) node()           {}
func (*ShowSnapshotsStmt) node()      {}
func (*DropSnapshotStmt) node()       {}
func (*SnapshotStmt) stmt()           {}
func (*ShowSnapshotsStmt) stmt()      {}
func (*DropSnapshotStmt) stmt()       {}

func (s *SnapshotStmt) String() string {
	return "SNAPSHOT " + s.Table.String() + " AS " + s.Name.String()
}
func (*ShowSnapshotsStmt) String() string  { return "SHOW SNAPSHOTS" }
func (s *DropSnapshotStmt) String() string { return "DROP SNAPSHOT " + s.Name.String() }

var (
	_ Stmt = (*SnapshotStmt)(nil)
	_ Stmt = (*RestoreSnapshotStmt)(nil)
	_ Stmt = (*CloneSnapshotStmt)(nil)
	_ Stmt = (*ShowSnapshotsStmt)(nil)
	_ Stmt = (*DropSnapshotStmt)(nil)
	_ Stmt = (*ShowStatusStmt)(nil)
	_ Stmt = (*CheckClusterStmt)(nil)
	_ Stmt = (*FlushStmt)(nil)
	_ Stmt = (*CompactStmt)(nil)
	_ Stmt = (*SplitStmt)(nil)
	_ Stmt = (*MergeStmt)(nil)
	_ Stmt = (*BalancerStmt)(nil)
)

func (s *FlushStmt) Pos() Pos    { return s.Flush }
func (s *CompactStmt) Pos() Pos  { return s.Compact }
func (s *SplitStmt) Pos() Pos    { return s.Split }
func (s *MergeStmt) Pos() Pos    { return s.Merge }
func (s *BalancerStmt) Pos() Pos { return s.Balancer }

func (*FlushStmt) node()    {}
func (*CompactStmt) node()  {}
func (*SplitStmt) node()    {}
func (*MergeStmt) node()    {}
func (*BalancerStmt) node() {}

func (*FlushStmt) stmt()    {}
func (*CompactStmt) stmt()  {}
func (*SplitStmt) stmt()    {}
func (*MergeStmt) stmt()    {}
func (*BalancerStmt) stmt() {}

func (s *FlushStmt) String() string { return "FLUSH " + s.Table.String() }

func (s *CompactStmt) String() string {
	if s.Major {
		return "MAJOR COMPACT " + s.Table.String()
	}
	return "COMPACT " + s.Table.String()
}

func (s *SplitStmt) String() string {
	var b strings.Builder
	b.WriteString("SPLIT ")
	b.WriteString(s.Table.String())
	b.WriteString(" AT ")
	if len(s.Fields) == 0 {
		b.WriteString(exprString(s.Key))
		return b.String()
	}
	b.WriteByte('(')
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	b.WriteByte(')')
	return b.String()
}

func (s *MergeStmt) String() string {
	var b strings.Builder
	b.WriteString("MERGE REGIONS ")
	b.WriteString(s.Table.String())
	for i, k := range s.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(' ')
		b.WriteString(exprString(k))
	}
	return b.String()
}

func (s *BalancerStmt) String() string {
	if s.Switch == "" {
		return "BALANCER"
	}
	return "BALANCER " + s.Switch
}

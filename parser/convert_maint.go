package parser

import "strings"

// maintStmt converts the maintenance statements; ok is false for any
// other statement.
func (c *converter) maintStmt(g *gStmt) (s Stmt, err *Error, ok bool) {
	switch {
	case g.Flush != nil:
		return &FlushStmt{Flush: pos(g.Flush.Pos), Table: ident(g.Flush.Table)}, nil, true
	case g.Compact != nil:
		return &CompactStmt{Compact: pos(g.Compact.Pos), Major: g.Compact.Major, Table: ident(g.Compact.Table)}, nil, true
	case g.Split != nil:
		s, err := c.split(g.Split)
		return s, err, true
	case g.Merge != nil:
		st := &MergeStmt{Merge: pos(g.Merge.Pos), Table: ident(g.Merge.Table)}
		for _, k := range g.Merge.Keys {
			e, err := c.keyLit(k)
			if err != nil {
				return nil, err, true
			}
			st.Keys = append(st.Keys, e)
		}
		return st, nil, true
	case g.Snapshot != nil:
		return &SnapshotStmt{Snapshot: pos(g.Snapshot.Pos), Table: ident(g.Snapshot.Table), Name: ident((*gAlias)(g.Snapshot.Name))}, nil, true
	case g.Restore != nil:
		return &RestoreSnapshotStmt{Restore: pos(g.Restore.Pos), Name: ident((*gAlias)(g.Restore.Name))}, nil, true
	case g.Clone != nil:
		s := &CloneSnapshotStmt{Clone: pos(g.Clone.Pos), Name: ident((*gAlias)(g.Clone.Name)), Table: ident((*gAlias)(g.Clone.Table))}
		if g.Clone.HBase != nil {
			if s.HBase = unquote(g.Clone.HBase.Raw, '\''); s.HBase == "" {
				return nil, c.errorf(g.Clone.HBase.Pos, "the HBase table name cannot be empty"), true
			}
		}
		return s, nil, true
	case g.Balancer != nil:
		return &BalancerStmt{Balancer: pos(g.Balancer.Pos), Switch: strings.ToUpper(g.Balancer.Switch)}, nil, true
	}
	return nil, nil, false
}

func (c *converter) split(g *gSplit) (Stmt, *Error) {
	s := &SplitStmt{Split: pos(g.Pos), Table: ident(g.Table)}
	if g.Key != nil {
		k, err := c.keyLit(g.Key)
		s.Key = k
		return s, err
	}
	for _, f := range g.Fields {
		if f.Sub != nil {
			return nil, c.errorf(f.Col.Pos, "SPLIT … AT takes key fields, not map entries")
		}
		v, err := c.expr(f.Value)
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, Assignment{Column: ident(f.Col), Value: v})
	}
	return s, nil
}

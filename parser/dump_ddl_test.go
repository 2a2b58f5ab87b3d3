package parser

import "sort"

// flags prints the names of the flags that are set, sorted.
func (d *dumper) flags(depth int, flags map[string]bool) {
	var names []string
	for n, on := range flags {
		if on {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		d.line(depth, "%s", n)
	}
}

func (d *dumper) components(depth int, ks []KeyComponent) {
	for _, k := range ks {
		kind := [...]string{"field", "literal", "hash", "bucket", "salt", "random"}[k.Kind]
		d.line(depth, "%s %s %s", kind, k.String(), d.at(k.CompPos))
	}
}

// ddlStmt dumps the layout statements and UPDATE.
func (d *dumper) ddlStmt(depth int, label string, s Stmt) {
	switch s := s.(type) {
	case *CreateTableStmt:
		d.line(depth, "%sCreateTableStmt %s", label, d.at(s.Create))
		if s.Table.Name != "" {
			d.ident(depth+1, "table: ", s.Table)
		}
		if s.Phoenix != "" {
			d.line(depth+1, "from phoenix: %q %s", s.Phoenix, d.at(s.PhoenixPos))
		}
		if s.Def == nil {
			return
		}
		for _, c := range s.Def.Columns {
			d.line(depth+1, "column: %s %s", c.String(), d.at(c.Name.NamePos))
		}
		d.line(depth+1, "rowkey:")
		d.components(depth+2, s.Def.Rowkey)
		for _, f := range s.Def.Families {
			d.line(depth+1, "family: %s", f.String())
		}
		for _, e := range s.Def.Splits {
			d.expr(depth+1, "split: ", e)
		}
		if s.Def.SplitBy != "" {
			d.line(depth+1, "split by: %s regions: %d", s.Def.SplitBy, s.Def.SplitRegions)
		}
		if s.Def.HBase != "" {
			d.line(depth+1, "hbase: %s", s.Def.HBase)
		}
	case *CreateIndexStmt:
		d.line(depth, "%sCreateIndexStmt %s", label, d.at(s.Create))
		d.ident(depth+1, "index: ", s.Index)
		d.ident(depth+1, "table: ", s.Table)
		d.line(depth+1, "rowkey:")
		d.components(depth+2, s.Rowkey)
		for _, c := range s.Covering {
			d.ident(depth+1, "covering: ", c)
		}
		d.flags(depth+1, map[string]bool{"unique": s.Unique})
		if s.HBase != "" {
			d.line(depth+1, "hbase: %s", s.HBase)
		}
	case *DropTableStmt:
		d.line(depth, "%sDropTableStmt %s", label, d.at(s.Drop))
		d.ident(depth+1, "table: ", s.Table)
	case *DropIndexStmt:
		d.line(depth, "%sDropIndexStmt %s", label, d.at(s.Drop))
		d.ident(depth+1, "index: ", s.Index)
	case *TruncateStmt:
		d.line(depth, "%sTruncateStmt %s", label, d.at(s.Truncate))
		d.ident(depth+1, "table: ", s.Table)
	case *AlterTableStmt:
		d.line(depth, "%sAlterTableStmt %s", label, d.at(s.Alter))
		d.ident(depth+1, "table: ", s.Table)
		if s.AddColumn != nil {
			d.line(depth+1, "add column: %s", s.AddColumn.String())
		}
		if s.SetFamily != nil {
			d.line(depth+1, "set family: %s", s.SetFamily.String())
		}
	case *ShowCatalogStmt:
		d.line(depth, "%sShowCatalogStmt %s", label, d.at(s.Show))
		if s.Table != nil {
			d.ident(depth+1, "table: ", *s.Table)
		}
	case *UpdateStmt:
		d.line(depth, "%sUpdateStmt %s", label, d.at(s.Update))
		d.ident(depth+1, "table: ", s.Table)
		for _, a := range s.Set {
			d.ident(depth+1, "set: ", a.Column)
			if a.Key != nil {
				d.expr(depth+2, "key: ", a.Key)
			}
			d.expr(depth+2, "value: ", a.Value)
		}
		d.expr(depth+1, "where: ", s.Where)
		d.flags(depth+1, map[string]bool{"allow full scan": s.AllowFullScan, "allow index write": s.AllowIndexWrite})
	default:
		if a, ok := s.(*AdviseStmt); ok {
			d.line(depth, "%sAdviseStmt %s file=%q", label, d.at(a.Advise), a.File)
			return
		}
		d.line(depth, "%s%T", label, s)
	}
}

package advise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
	"go.yaml.in/yaml/v3"
)

// Designs lists the designs ADVISE weighs for table t of the catalog
// source src: t with each of its indexes alone, t as it is (the planner
// picks among its indexes), t with no index, and designs derived from the
// queries: an index led by each column the queries bind by equality that
// t's key does not lead with, and t with a key field reversed for each
// LIKE '%suffix' on it.
func Designs(src []byte, t *catalog.Table, queries []Query) ([]*Design, error) {
	base, err := catalog.Parse(src)
	if err != nil {
		return nil, err
	}
	noIndex := func(q *parser.SelectStmt) *parser.SelectStmt {
		c := *q
		c.Hint = &parser.IndexHint{NoIndex: true}
		return &c
	}
	// The order breaks ties: a design that names its index comes before
	// the table as it is, which may use the same index.
	var out []*Design
	for _, ix := range t.Indexes {
		name := ix.Name
		out = append(out, &Design{Name: t.Name + " with index " + name + " only", Catalog: base,
			Hint: func(q *parser.SelectStmt) *parser.SelectStmt {
				c := *q
				c.Hint = &parser.IndexHint{Index: parser.Ident{Name: name}}
				return &c
			}})
	}
	out = append(out, &Design{Name: t.Name + " as it is", Catalog: base},
		&Design{Name: t.Name + " alone, no index", Catalog: base, Hint: noIndex})
	text, err := catalog.TableSource(src, t.Name)
	if err != nil {
		return nil, err
	}
	var specs []catalog.TableSpec
	if err := yaml.Unmarshal([]byte(text), &specs); err != nil || len(specs) != 1 {
		return nil, fmt.Errorf("reading %s's catalog entry: %v", t.Name, err)
	}
	spec := specs[0]
	lead := leadingFields(t)
	eq, suffix := filtered(t, queries)
	for _, col := range eq {
		if slices.Contains(lead, col) || indexLeads(t, col) {
			continue
		}
		d, err := indexDesign(src, t, spec, col)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	for _, col := range suffix {
		d, err := reversedDesign(src, t, spec, col)
		if err != nil {
			return nil, err
		}
		if d != nil {
			out = append(out, d)
		}
	}
	return out, nil
}

// leadingFields names the fields of t's first key components up to the
// first field, the hashes' inputs included.
func leadingFields(t *catalog.Table) []string {
	var out []string
	for _, c := range t.Key.Components {
		switch c.Kind {
		case catalog.KindField:
			return append(out, c.Field)
		case catalog.KindHash:
			out = append(out, c.Inputs...)
		case catalog.KindBucket:
			out = append(out, c.Field)
		}
	}
	return out
}

// indexLeads reports whether one of t's indexes starts with col.
func indexLeads(t *catalog.Table, col string) bool {
	for _, ix := range t.Indexes {
		if slices.Contains(leadingFields(ix.Table), col) {
			return true
		}
	}
	return false
}

// filtered lists, in first-seen order, the columns of t the queries bind
// by = or IN, and the key fields they search with LIKE '%suffix'.
func filtered(t *catalog.Table, queries []Query) (eq, suffix []string) {
	add := func(list *[]string, name string) {
		if _, ok := t.Column(name); ok && !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	var walk func(e parser.Expr)
	walk = func(e parser.Expr) {
		switch e := e.(type) {
		case *parser.BinaryExpr:
			if e.Op == parser.OpAnd || e.Op == parser.OpOr {
				walk(e.LHS)
				walk(e.RHS)
				return
			}
			if e.Op == parser.OpEq {
				if c, ok := e.LHS.(*parser.ColumnRef); ok {
					add(&eq, c.Name)
				} else if c, ok := e.RHS.(*parser.ColumnRef); ok {
					add(&eq, c.Name)
				}
			}
		case *parser.InExpr:
			if c, ok := e.X.(*parser.ColumnRef); ok && !e.Not {
				add(&eq, c.Name)
			}
		case *parser.LikeExpr:
			c, ok := e.X.(*parser.ColumnRef)
			p, isLit := e.Pattern.(*parser.StringLit)
			if ok && isLit && !e.Not && strings.HasPrefix(p.Val, "%") && !strings.ContainsAny(p.Val[1:], "%_") {
				add(&suffix, c.Name)
			}
		}
	}
	for _, q := range queries {
		if q.Stmt.Table.Name == t.Name && q.Stmt.Where != nil {
			walk(q.Stmt.Where)
		}
	}
	return eq, suffix
}

// indexDesign is t with one more index, keyed by col and then t's own key
// fields, so that every row has its entry.
func indexDesign(src []byte, t *catalog.Table, spec catalog.TableSpec, col string) (*Design, error) {
	i, _ := t.Column(col)
	c := t.Columns[i]
	first := catalog.ComponentSpec{Field: col}
	rowkey := []catalog.ComponentSpec{first}
	switch c.Type {
	case catalog.TypeString, catalog.TypeBytes:
		sep := "\\x00"
		rowkey = append(rowkey, catalog.ComponentSpec{Literal: &sep})
	case catalog.TypeDouble, catalog.TypeBigint, catalog.TypeInt, catalog.TypeTimestamp, catalog.TypeDate:
		rowkey[0].Encoding = "sortable"
	default:
		return nil, fmt.Errorf("cannot key an index by %s (%s)", col, c.Type)
	}
	// t's key without its hash, bucket, salt and random parts, which an
	// index does not need: the fields, with the literals that end them.
	for _, k := range spec.Rowkey {
		if k.Hash != "" || k.Bucket != "" || k.Salt != 0 || k.Random != 0 || k.Field == col {
			continue
		}
		rowkey = append(rowkey, k)
	}
	for len(rowkey) > 0 && rowkey[len(rowkey)-1].Literal != nil {
		rowkey = rowkey[:len(rowkey)-1]
	}
	ix := &catalog.IndexSpec{Name: t.Name + "_by_" + col, Rowkey: rowkey}
	out, err := catalog.AddIndex(src, t.Name, ix)
	if err != nil {
		return nil, fmt.Errorf("index on %s: %w", col, err)
	}
	cat, err := catalog.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("index on %s: %w", col, err)
	}
	return &Design{Name: fmt.Sprintf("%s with a new index on %s", t.Name, col), Catalog: cat,
		YAML: catalog.RenderIndex(ix)}, nil
}

// reversedDesign is t with key field col stored reversed, or nil when it
// already is or is not a text key field.
func reversedDesign(src []byte, t *catalog.Table, spec catalog.TableSpec, col string) (*Design, error) {
	found := false
	for i, k := range spec.Rowkey {
		if k.Field == col && !k.Reverse && (k.Encoding == "" || k.Encoding == "text") {
			spec.Rowkey[i].Reverse = true
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	dropped, err := catalog.DropTable(src, t.Name)
	if err != nil {
		return nil, err
	}
	out, err := catalog.AddTable(dropped, &spec)
	if err != nil {
		return nil, fmt.Errorf("%s reversed: %w", col, err)
	}
	cat, err := catalog.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("%s reversed: %w", col, err)
	}
	return &Design{Name: fmt.Sprintf("%s with %s stored reversed", t.Name, col), Catalog: cat,
		YAML: catalog.RenderTable(&spec)}, nil
}

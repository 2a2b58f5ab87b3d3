package planner

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// The columns of a raw read, one row per cell, in this order.
const (
	RawKey = iota
	RawFamily
	RawQualifier
	RawTs
	RawValue
)

// RawNames are the raw read's columns, by index.
var RawNames = []string{"_key", "_family", "_qualifier", "_ts", "_value"}

// RawTypes are their types: key, qualifier and value are bytes, shown as
// Bytes.toStringBinary shows them.
var RawTypes = []catalog.Type{catalog.TypeBytes, catalog.TypeString, catalog.TypeBytes, catalog.TypeTimestamp, catalog.TypeBytes}

// RawRead is SELECT … FROM RAW 'ns:t': the cells of an HBase table that
// the catalog need not describe, one row per cell, in key order (family,
// qualifier, then newest first within a row). The conditions on _key,
// _ts, _family and _qualifier that the read's bounds express exactly
// are the store's (Pushed); the rest is Filter, in the client.
type RawRead struct {
	// Table is the HBase table, "ns:table" or "table".
	Table string
	// Keys, when not nil, are the rows read with Gets, in the order read
	// (descending when Reverse); Start and Stop are then unused.
	Keys [][]byte
	// Start and Stop bound the scan: [Start, Stop), nil for open.
	Start, Stop []byte
	// Empty: the conditions select no cell, and nothing is read.
	Empty bool
	// Timed says the read has a time range: cells with From <= _ts < To.
	Timed    bool
	From, To int64
	// Families and Qualifiers are the cells kept (exec.CellSelect).
	Families, Qualifiers []string
	// Versions is the versions read per column, at least 1.
	Versions int
	Reverse  bool
	// Limit is the most cells returned, -1 for none. StoreLimit is the
	// most rows the store is asked for: Limit when no client filter can
	// drop a cell, 0 otherwise.
	Limit      int64
	StoreLimit int
	// Filter is the client's part of the WHERE clause, over a raw row.
	Filter expr.Expr
	// Output is the select list over a raw row.
	Output []Output
	// Pushed are the conditions the read's bounds serve, as written.
	Pushed []string
}

// RawExplain is EXPLAIN [ANALYZE] of a raw read.
type RawExplain struct {
	Read    *RawRead
	Analyze bool
	JSON    bool
}

func (*RawRead) plan()    {}
func (*RawExplain) plan() {}

// rawScope names a raw row's columns; CAST of a bytes column reads the
// bytes as Java's Bytes.toBytes wrote them.
type rawScope struct{ c *compiler }

func (s *rawScope) column(ref *parser.ColumnRef) (expr.Scalar, error) {
	if i := slices.Index(RawNames, ref.Name); i >= 0 {
		return &expr.Col{Index: i, Name: ref.Name, T: RawTypes[i]}, nil
	}
	return nil, errAt(ref.NamePos, "column %q does not exist in a raw read (columns: %s)", ref.Name, strings.Join(RawNames, ", "))
}

func (s *rawScope) aggregate(call *parser.CallExpr) (expr.Scalar, error) {
	return nil, errAt(call.NamePos, "aggregate function %s is not supported in a raw read", call.Name)
}

func (s *rawScope) whole(e parser.Expr) (expr.Scalar, bool) {
	ce, ok := e.(*parser.CastExpr)
	if !ok {
		return nil, false
	}
	x, err := s.c.scalar(ce.X, s)
	if err != nil || x.Type() != catalog.TypeBytes {
		return nil, false
	}
	if jc, ok := javaCast(x, ce.Type); ok {
		return jc, true
	}
	return nil, false
}

// rawPlan plans a read of an HBase table's cells.
func (pl *Planner) rawPlan(ctx context.Context, s *parser.SelectStmt) (*RawRead, error) {
	if err := rawRefuse(s); err != nil {
		return nil, err
	}
	pl = pl.pinNow()
	c := &compiler{ctx: ctx, t: &catalog.Table{Name: "RAW " + s.Table.Name}, now: pl.opts.Now}
	sc := &rawScope{c: c}
	r := &RawRead{Table: s.Table.Name, Versions: max(s.Versions, 1), Limit: s.Limit, From: 0, To: math.MaxInt64}
	if err := r.compileOutput(c, sc, s); err != nil {
		return nil, err
	}
	for _, o := range s.Order {
		ref, ok := o.Expr.(*parser.ColumnRef)
		if !ok || ref.Name != "_key" {
			return nil, errAt(o.Expr.Pos(), "a raw read is ordered by _key alone (ORDER BY _key or ORDER BY _key DESC)")
		}
		r.Reverse = o.Desc
	}
	b := rawBounds{keys: keyBound{}, r: r}
	var client []expr.Expr
	if s.Where != nil {
		w, err := c.foldConstants(s.Where)
		if err != nil {
			return nil, err
		}
		for _, term := range andTerms(w) {
			pushed, err := b.push(term)
			if err != nil {
				return nil, err
			}
			if pushed {
				r.Pushed = append(r.Pushed, term.String())
				continue
			}
			p, err := rawCond(c, sc, term)
			if err != nil {
				return nil, err
			}
			client = append(client, p)
		}
	}
	switch len(client) {
	case 0:
	case 1:
		r.Filter = client[0]
	default:
		r.Filter = &expr.And{Terms: client}
	}
	b.finish()
	if r.Filter == nil && r.Limit >= 0 && r.Limit <= math.MaxInt32 {
		r.StoreLimit = int(r.Limit)
	}
	if !r.Empty && r.Keys == nil && r.Start == nil && r.Stop == nil && !s.AllowFullScan {
		return nil, errAt(s.Table.NamePos, "raw read of %s would read the whole table (FULL SCAN): bound _key (=, IN, LIKE 'prefix%%', <, >, BETWEEN); or add ALLOW FULL SCAN to read it anyway", s.Table.Name)
	}
	return r, nil
}

// rawRefuse names the parts of a SELECT that a raw read does not have.
func rawRefuse(s *parser.SelectStmt) error {
	switch {
	case s.Raw:
		return errAt(s.Select, "SELECT RAW * reads the cells of a catalog table; FROM RAW rows are cells already: SELECT * FROM RAW '%s'", s.Table.Name)
	case s.Distinct:
		return errAt(s.Select, "DISTINCT is not supported in a raw read")
	case s.Hint != nil:
		return errAt(s.Hint.HintPos, "a raw read has no indexes")
	case len(s.GroupBy) > 0:
		return errAt(s.GroupBy[0].Pos(), "GROUP BY is not supported in a raw read")
	case s.Having != nil:
		return errAt(s.Having.Pos(), "HAVING is not supported in a raw read")
	case s.Offset > 0:
		return errAt(s.Select, "OFFSET is not supported in a raw read")
	}
	return nil
}

// compileOutput compiles the select list: * is every raw column.
func (r *RawRead) compileOutput(c *compiler, sc *rawScope, s *parser.SelectStmt) error {
	if s.Star {
		for i, n := range RawNames {
			r.Output = append(r.Output, Output{Name: n, Type: RawTypes[i], Expr: &expr.Col{Index: i, Name: n, T: RawTypes[i]}})
		}
	}
	for _, it := range s.Items {
		x, err := c.scalar(it.Expr, sc)
		if err != nil {
			return err
		}
		name := it.Alias
		if name == "" {
			if ref, ok := it.Expr.(*parser.ColumnRef); ok {
				name = ref.Name
			} else {
				name = it.Expr.String()
			}
		}
		r.Output = append(r.Output, Output{Name: name, Type: x.Type(), Expr: x})
	}
	return nil
}

// andTerms lists the conjuncts of e.
func andTerms(e parser.Expr) []parser.Expr {
	if b, ok := e.(*parser.BinaryExpr); ok && b.Op == parser.OpAnd {
		return operands(b, parser.OpAnd)
	}
	return []parser.Expr{e}
}

// rawCond compiles a client condition over a raw row. LIKE over a bytes
// column matches bytes, its pattern read as Bytes.toStringBinary text.
func rawCond(c *compiler, sc *rawScope, e parser.Expr) (expr.Expr, error) {
	switch e := e.(type) {
	case *parser.BinaryExpr:
		if e.Op == parser.OpAnd || e.Op == parser.OpOr {
			var terms []expr.Expr
			for _, x := range operands(e, e.Op) {
				p, err := rawCond(c, sc, x)
				if err != nil {
					return nil, err
				}
				terms = append(terms, p)
			}
			if e.Op == parser.OpAnd {
				return &expr.And{Terms: terms}, nil
			}
			return &expr.Or{Terms: terms}, nil
		}
		if _, cmp := cmpOps[e.Op]; cmp && (isTs(e.LHS) || isTs(e.RHS)) {
			b := *e
			b.LHS, b.RHS = tsLiteral(e.LHS), tsLiteral(e.RHS)
			return c.cond(&b, sc)
		}
	case *parser.UnaryExpr:
		if e.Op == parser.OpNot {
			x, err := rawCond(c, sc, e.X)
			if err != nil {
				return nil, err
			}
			return &expr.Not{X: x}, nil
		}
	case *parser.InExpr:
		if isTs(e.X) {
			in := *e
			in.List = slices.Clone(e.List)
			for i, x := range in.List {
				in.List[i] = tsLiteral(x)
			}
			return c.cond(&in, sc)
		}
	case *parser.BetweenExpr:
		if isTs(e.X) {
			b := *e
			b.Lo, b.Hi = tsLiteral(e.Lo), tsLiteral(e.Hi)
			return c.cond(&b, sc)
		}
	case *parser.LikeExpr:
		ref, ok := e.X.(*parser.ColumnRef)
		i := -1
		if ok {
			i = slices.Index(RawNames, ref.Name)
		}
		if i < 0 || RawTypes[i] != catalog.TypeBytes {
			break
		}
		pat, esc, err := rawLike(e)
		if err != nil {
			return nil, err
		}
		l, err := expr.NewLikeEscape(i, ref.Name, string(pat), esc, true, e.Not)
		if err != nil {
			return nil, errAt(e.Pattern.Pos(), "LIKE pattern %s ends with its escape character %s", e.Pattern, e.Escape)
		}
		return l, nil
	}
	return c.cond(e, sc)
}

func isTs(e parser.Expr) bool {
	ref, ok := e.(*parser.ColumnRef)
	return ok && ref.Name == "_ts"
}

// tsLiteral reads an integer compared with _ts as milliseconds since the
// epoch, as the time range reads it.
func tsLiteral(e parser.Expr) parser.Expr {
	if n, ok := e.(*parser.IntLit); ok {
		return &parser.TimestampLit{ValuePos: n.ValuePos, Val: time.UnixMilli(n.Val).UTC()}
	}
	return e
}

// rawLike reads a LIKE over bytes: the pattern's bytes and the escape.
func rawLike(e *parser.LikeExpr) ([]byte, string, error) {
	pat, ok := e.Pattern.(*parser.StringLit)
	if !ok {
		if b, ok := e.Pattern.(*parser.BytesLit); ok {
			esc, err := likeEscape(e.Escape, true)
			return b.Val, esc, err
		}
		return nil, "", errAt(e.Pattern.Pos(), "LIKE needs a string pattern such as 'abc%%'")
	}
	b, err := catalog.ParseBinary(pat.Val)
	if err != nil {
		return nil, "", errAt(pat.Pos(), "%v", err)
	}
	esc, err := likeEscape(e.Escape, true)
	return b, esc, err
}

// keyBound is what the pushed _key conditions allow: a set of keys, or
// the range [lo, hi) (hi nil for no end).
type keyBound struct {
	points [][]byte
	isSet  bool
	lo, hi []byte
}

// rawBounds gathers the read's bounds from the pushed conditions.
type rawBounds struct {
	keys       keyBound
	r          *RawRead
	fams, qual []string
	hasFam     bool
	hasQual    bool
}

func (b *keyBound) points2(ps [][]byte) {
	var keep [][]byte
	src := ps
	if b.isSet {
		src = nil
		for _, p := range ps {
			if slices.ContainsFunc(b.points, func(q []byte) bool { return bytes.Equal(p, q) }) {
				src = append(src, p)
			}
		}
	}
	for _, p := range src {
		if bytes.Compare(p, b.lo) >= 0 && (b.hi == nil || bytes.Compare(p, b.hi) < 0) {
			keep = append(keep, p)
		}
	}
	b.points, b.isSet = keep, true
}

func (b *keyBound) narrow(lo, hi []byte) {
	if bytes.Compare(lo, b.lo) > 0 {
		b.lo = lo
	}
	if hi != nil && (b.hi == nil || bytes.Compare(hi, b.hi) < 0) {
		b.hi = hi
	}
	if b.isSet {
		b.points2(b.points)
	}
}

// finish sets the read's keys, range and cells from the bounds.
func (b *rawBounds) finish() {
	r := b.r
	k := b.keys
	switch {
	case k.isSet:
		slices.SortFunc(k.points, bytes.Compare)
		k.points = slices.CompactFunc(k.points, bytes.Equal)
		if r.Reverse {
			slices.Reverse(k.points)
		}
		r.Keys = k.points
		r.Empty = len(k.points) == 0
	default:
		if len(k.lo) > 0 {
			r.Start = k.lo
		}
		r.Stop = k.hi
		if k.hi != nil && bytes.Compare(k.lo, k.hi) >= 0 {
			r.Empty = true
		}
	}
	if r.Timed && r.From >= r.To {
		r.Empty = true
	}
	if b.hasFam {
		r.Families = sortedSet(b.fams)
		r.Empty = r.Empty || len(r.Families) == 0
	}
	if b.hasQual {
		r.Qualifiers = sortedSet(b.qual)
		r.Empty = r.Empty || len(r.Qualifiers) == 0
	}
}

func sortedSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	s = slices.Compact(s)
	if s == nil {
		s = []string{}
	}
	return s
}

// keySucc is the first key after every key that starts with p; nil when
// there is none.
func keySucc(p []byte) []byte {
	p = bytes.Clone(p)
	for len(p) > 0 && p[len(p)-1] == 0xff {
		p = p[:len(p)-1]
	}
	if len(p) == 0 {
		return nil
	}
	p[len(p)-1]++
	return p
}

// after is the first key after k.
func after(k []byte) []byte { return append(bytes.Clone(k), 0) }

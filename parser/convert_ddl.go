package parser

import (
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// hashFuncs are the names a hash component may be written with.
var hashFuncs = map[string]bool{"MD5": true, "JAVAHASH": true, "MURMUR3": true}

func (c *converter) tableDef(g *gTableDef) (*TableDef, *Error) {
	d := &TableDef{}
	for _, gc := range g.Columns {
		cd, err := c.colDef(gc)
		if err != nil {
			return nil, err
		}
		d.Columns = append(d.Columns, cd)
	}
	var err *Error
	if d.Rowkey, err = c.components(g.Rowkey); err != nil {
		return nil, err
	}
	for _, gf := range g.Families {
		fd, err := c.famDef(gf)
		if err != nil {
			return nil, err
		}
		d.Families = append(d.Families, fd)
	}
	for _, k := range g.Splits {
		e, err := c.keyLit(k)
		if err != nil {
			return nil, err
		}
		d.Splits = append(d.Splits, e)
	}
	if g.HBase != nil {
		if d.HBase = unquote(g.HBase.Raw, '\''); d.HBase == "" {
			return nil, c.errorf(g.HBase.Pos, "the HBase table name cannot be empty")
		}
	}
	if g.SplitBy != nil {
		d.SplitBy = ident((*gAlias)(g.SplitBy)).Name
		if strings.EqualFold(d.SplitBy, "BUCKETS") {
			d.SplitBy = "BUCKETS"
			if g.Regions != nil {
				return nil, c.errorf(g.Regions.Pos, "SPLIT BY BUCKETS makes one region per bucket: leave out INTO n REGIONS")
			}
		} else {
			if g.Regions == nil {
				return nil, c.errorf(g.SplitBy.Pos, "SPLIT BY %s needs INTO n REGIONS", d.SplitBy)
			}
			n, err := c.int64(g.Regions.Pos, g.Regions.Text)
			if err != nil {
				return nil, err
			}
			if n < 2 || n > math.MaxInt32 {
				return nil, c.errorf(g.Regions.Pos, "INTO n REGIONS needs n of at least 2")
			}
			d.SplitRegions = int(n)
		}
	}
	return d, nil
}

func (c *converter) keyLit(k *gKey) (Expr, *Error) {
	if k.Bytes != "" {
		return c.bytes(k.Pos, k.Bytes)
	}
	return &StringLit{ValuePos: pos(k.Pos), Val: unquote(k.Str, '\'')}, nil
}

func (c *converter) colDef(g *gColDef) (ColumnDef, *Error) {
	cd := ColumnDef{Name: ident(g.Name), Type: strings.ToUpper(ident((*gAlias)(g.Type)).Name), Text: g.Text}
	if g.Column != nil {
		cd.Column = unquote(g.Column.Raw, '\'')
		fam, qual, ok := strings.Cut(cd.Column, ":")
		if !ok || fam == "" || qual == "" {
			return cd, c.errorf(g.Column.Pos, "%s is not 'family:qualifier'", g.Column.Raw)
		}
	}
	return cd, nil
}

func (c *converter) components(gs []*gComp) ([]KeyComponent, *Error) {
	out := make([]KeyComponent, 0, len(gs))
	for _, g := range gs {
		kc, err := c.component(g)
		if err != nil {
			return nil, err
		}
		out = append(out, kc)
	}
	return out, nil
}

// component works out a component's kind from its shape: a string or
// hex literal; a name with arguments (a hash or BUCKET); SALT n or
// RANDOM n; or a field.
func (c *converter) component(g *gComp) (KeyComponent, *Error) {
	kc := KeyComponent{CompPos: pos(g.Pos)}
	if g.Name == nil {
		lit, err := c.keyLit(&gKey{Pos: g.Pos, Str: g.Str, Bytes: g.Bytes})
		kc.Kind, kc.Literal = KeyLiteral, lit
		return kc, err
	}
	name := ident(g.Name)
	word := strings.ToUpper(name.Name)
	switch {
	case g.Args != nil:
		if !hashFuncs[word] && word != "BUCKET" {
			return kc, c.errorf(g.Name.Pos, "unknown key function %s (want MD5, JAVAHASH, MURMUR3 or BUCKET)", name.Name)
		}
		kc.Kind, kc.Func = KeyHash, word
		if word == "BUCKET" {
			kc.Kind, kc.Func = KeyBucket, ""
			if len(g.Args) != 1 {
				return kc, c.errorf(g.Name.Pos, "BUCKET takes one column")
			}
		}
		for _, a := range g.Args {
			kc.Args = append(kc.Args, ident(a))
		}
		if g.N != nil {
			return kc, c.errorf(g.N.Pos, "a number after %s(…): write MOD n or WIDTH n", word)
		}
	case g.N != nil:
		if word != "SALT" && word != "RANDOM" {
			return kc, c.errorf(g.N.Pos, "a number after field %s: write WIDTH n, or DECIMAL n for digits", name.Name)
		}
		n, err := c.int64(g.N.Pos, g.N.Text)
		if err != nil {
			return kc, err
		}
		kc.Kind, kc.N = KeySalt, n
		if word == "RANDOM" {
			kc.Kind = KeyRandom
		}
	default:
		kc.Kind, kc.Name = KeyField, name
	}
	for _, o := range g.Opts {
		if err := c.componentOpt(&kc, o); err != nil {
			return kc, err
		}
	}
	return kc, nil
}

// componentOpt applies one option to kc, refusing one that does not fit
// its kind or is given twice.
func (c *converter) componentOpt(kc *KeyComponent, o *gCompOpt) *Error {
	field := kc.Kind == KeyField
	numeric := kc.Kind == KeyHash || kc.Kind == KeyBucket || kc.Kind == KeyRandom
	bad := func(what string) *Error {
		return c.errorf(o.Pos, "%s does not apply to %s", what, keyKindName(kc))
	}
	switch {
	case o.Dir != "":
		if !field {
			return bad(strings.ToUpper(o.Dir))
		}
		kc.Desc = strings.EqualFold(o.Dir, "DESC")
	case o.Reverse:
		if !field {
			return bad("REVERSE")
		}
		kc.Reverse = true
	case o.Binary:
		switch {
		case field:
			// The old name of sortable.
			return c.setEncoding(kc, o.Pos, "SORTABLE", nil)
		case numeric:
			kc.Binary = true
		default:
			return bad("BINARY")
		}
	case o.Enc != "":
		if !field {
			return bad(strings.ToUpper(o.Enc))
		}
		return c.setEncoding(kc, o.Pos, strings.ToUpper(o.Enc), o.EncW)
	case o.Width != nil:
		if !field && !numeric && kc.Func != "MD5" {
			return bad("WIDTH")
		}
		return c.setWidth(kc, o.Width)
	case o.Mod != nil:
		if kc.Kind != KeyHash && kc.Kind != KeyBucket || kc.Func == "MD5" {
			return bad("MOD")
		}
		if kc.N != 0 {
			return c.errorf(o.Pos, "MOD given twice")
		}
		n, err := c.int64(o.Mod.Pos, o.Mod.Text)
		if err != nil {
			return err
		}
		if n < 2 {
			return c.errorf(o.Mod.Pos, "MOD needs at least 2")
		}
		kc.N = n
	case o.Pad != "":
		if !field {
			return bad("PAD")
		}
		if kc.PadSide != "" {
			return c.errorf(o.Pos, "PAD given twice")
		}
		kc.PadSide = strings.ToUpper(o.Pad)
		if o.PadWith != nil {
			kc.PadWith = unquote(o.PadWith.Raw, '\'')
			if kc.PadWith == "" {
				return c.errorf(o.PadWith.Pos, "the pad character cannot be empty")
			}
		}
		return c.setWidth(kc, o.PadW)
	}
	return nil
}

func (c *converter) setEncoding(kc *KeyComponent, p lexer.Position, enc string, w *gInt) *Error {
	if kc.Encoding != "" {
		return c.errorf(p, "the encoding is given twice")
	}
	kc.Encoding = enc
	if w != nil {
		return c.setWidth(kc, w)
	}
	return nil
}

func (c *converter) setWidth(kc *KeyComponent, w *gInt) *Error {
	if kc.Width != 0 {
		return c.errorf(w.Pos, "the width is given twice")
	}
	n, err := c.int64(w.Pos, w.Text)
	if err != nil {
		return err
	}
	if n < 1 || n > 32767 {
		return c.errorf(w.Pos, "a width must be between 1 and 32767")
	}
	kc.Width = int(n)
	return nil
}

func keyKindName(kc *KeyComponent) string {
	switch kc.Kind {
	case KeyField:
		return "a field"
	case KeyLiteral:
		return "a literal"
	case KeyHash:
		return kc.Func
	case KeyBucket:
		return "BUCKET"
	case KeySalt:
		return "SALT"
	}
	return "RANDOM"
}

func (c *converter) famDef(g *gFamDef) (FamilyDef, *Error) {
	fd := FamilyDef{Name: ident((*gAlias)(g.Name)), TTL: -1}
	seen := map[string]bool{}
	for _, o := range g.Opts {
		what, err := c.famOpt(&fd, o)
		if err != nil {
			return fd, err
		}
		if seen[what] {
			return fd, c.errorf(o.Pos, "%s given twice", what)
		}
		seen[what] = true
	}
	return fd, nil
}

func (c *converter) famOpt(fd *FamilyDef, o *gFamOpt) (string, *Error) {
	text := func(s string) string {
		if strings.HasPrefix(s, "'") {
			s = unquote(s, '\'')
		}
		return strings.ToUpper(s)
	}
	small := func(g *gInt) (int, *Error) {
		n, err := c.int64(g.Pos, g.Text)
		if err == nil && n > math.MaxInt32 {
			err = c.errorf(g.Pos, "%s is too large", g.Text)
		}
		return int(n), err
	}
	var err *Error
	switch {
	case o.Versions != nil:
		fd.Versions, err = small(o.Versions)
		return "VERSIONS", err
	case o.TTL != nil || o.TTLInt != nil:
		fd.TTL, err = c.ttl(o)
		return "TTL", err
	case o.Compression != "":
		fd.Compression = text(o.Compression)
		return "COMPRESSION", nil
	case o.Bloom != "":
		fd.BloomFilter = text(o.Bloom)
		return "BLOOMFILTER", nil
	case o.BlockSize != nil:
		fd.BlockSize, err = small(o.BlockSize)
		return "BLOCKSIZE", err
	case o.BlockCache != "":
		on := strings.EqualFold(o.BlockCache, "TRUE")
		fd.BlockCache = &on
		return "BLOCKCACHE", nil
	}
	fd.InMemory = true
	return "IN_MEMORY", nil
}

// ttlUnits are the units a TTL text may use, in seconds.
var ttlUnits = map[string]int64{
	"s": 1, "sec": 1, "second": 1, "seconds": 1,
	"m": 60, "min": 60, "minute": 60, "minutes": 60,
	"h": 3600, "hour": 3600, "hours": 3600,
	"d": 86400, "day": 86400, "days": 86400,
	"w": 604800, "week": 604800, "weeks": 604800,
}

// ttl reads TTL n (seconds) or TTL 'n unit', such as '30 days' or '12h'.
func (c *converter) ttl(o *gFamOpt) (int64, *Error) {
	if o.TTLInt != nil {
		return c.int64(o.TTLInt.Pos, o.TTLInt.Text)
	}
	if o.TTL.Bytes != "" {
		return 0, c.errorf(o.TTL.Pos, "a TTL is seconds, or text such as '30 days'")
	}
	raw := strings.TrimSpace(unquote(o.TTL.Str, '\''))
	i := strings.IndexFunc(raw, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(raw)
	}
	n, err := strconv.ParseInt(raw[:i], 10, 64)
	unit, ok := ttlUnits[strings.ToLower(strings.TrimSpace(raw[i:]))]
	if raw[i:] == "" {
		unit, ok = 1, true
	}
	if err != nil || !ok || n > math.MaxInt64/unit {
		return 0, c.errorf(o.TTL.Pos, "TTL %s: want seconds, or a number and a unit (s, m, h, d, w), such as '30 days'", o.TTL.Str)
	}
	return n * unit, nil
}

func (c *converter) createIndex(p lexer.Position, g *gCreateIndex) (Stmt, *Error) {
	s := &CreateIndexStmt{Create: pos(p), Index: ident(g.Index), Table: ident(g.Table), Unique: g.Unique}
	if g.HBase != nil {
		if s.HBase = unquote(g.HBase.Raw, '\''); s.HBase == "" {
			return nil, c.errorf(g.HBase.Pos, "the HBase table name cannot be empty")
		}
	}
	var err *Error
	if s.Rowkey, err = c.components(g.Rowkey); err != nil {
		return nil, err
	}
	for _, col := range g.Covering {
		s.Covering = append(s.Covering, ident(col))
	}
	return s, nil
}

func (c *converter) alter(g *gAlter) (Stmt, *Error) {
	s := &AlterTableStmt{Alter: pos(g.Pos), Table: ident(g.Table)}
	if g.Add != nil {
		cd, err := c.colDef(g.Add)
		if err != nil {
			return nil, err
		}
		s.AddColumn = &cd
		return s, nil
	}
	fd, err := c.famDef(g.Family)
	if err != nil {
		return nil, err
	}
	if len(g.Family.Opts) == 0 {
		return nil, c.errorf(g.Family.Name.Pos, "SET FAMILY %s needs a setting, such as TTL '30 days'", fd.Name.Name)
	}
	s.SetFamily = &fd
	return s, nil
}

func (c *converter) update(g *gUpdate) (Stmt, *Error) {
	s := &UpdateStmt{Update: pos(g.Pos), Table: ident(g.Table)}
	for _, a := range g.Set {
		v, err := c.expr(a.Value)
		if err != nil {
			return nil, err
		}
		as := Assignment{Column: ident(a.Col), Value: v}
		if a.Sub != nil {
			if as.Key, err = c.expr(a.Sub); err != nil {
				return nil, err
			}
		}
		s.Set = append(s.Set, as)
	}
	var err *Error
	if s.Where, err = c.expr(g.Where); err != nil {
		return nil, err
	}
	s.AllowFullScan, s.AllowIndexWrite, err = c.allows(g.Allows)
	return s, err
}

// allows reads the ALLOW clauses of a write; each may be given once.
func (c *converter) allows(gs []*gAllow) (fullScan, indexWrite bool, err *Error) {
	for _, a := range gs {
		switch {
		case a.FullScan && fullScan, a.IndexWrite && indexWrite:
			return false, false, c.errorf(a.Pos, "ALLOW clause given twice")
		case a.FullScan:
			fullScan = true
		default:
			indexWrite = true
		}
	}
	return fullScan, indexWrite, nil
}

// ddlStmt converts the layout statements and UPDATE; ok is false for any
// other statement.
func (c *converter) ddlStmt(g *gStmt) (s Stmt, err *Error, ok bool) {
	switch {
	case g.Create != nil && g.Create.Index != nil:
		s, err = c.createIndex(g.Create.Pos, g.Create.Index)
	case g.Create != nil:
		st := &CreateTableStmt{Create: pos(g.Create.Pos)}
		if g.Create.Table != nil {
			st.Table = ident(g.Create.Table)
		}
		switch {
		case g.Create.Phoenix != nil:
			st.Phoenix, st.PhoenixPos = unquote(g.Create.Phoenix.Name.Raw, '\''), pos(g.Create.Phoenix.Name.Pos)
			if st.Phoenix == "" {
				err = c.errorf(g.Create.Phoenix.Name.Pos, "FROM PHOENIX wants a Phoenix table's name, as 'SCHEMA.TABLE', not ''")
			}
		case g.Create.Table == nil:
			err = c.errorf(g.Create.Pos, "CREATE TABLE wants a table's name, or FROM PHOENIX 'SCHEMA.TABLE'")
		case g.Create.Def != nil:
			st.Def, err = c.tableDef(g.Create.Def)
		}
		s = st
	case g.Show != nil && g.Show.Catalog != nil:
		st := &ShowCatalogStmt{Show: pos(g.Show.Pos)}
		if g.Show.Catalog.Table != nil {
			id := ident(g.Show.Catalog.Table)
			st.Table = &id
		}
		s = st
	case g.Drop != nil && g.Drop.Snap != nil:
		s = &DropSnapshotStmt{Drop: pos(g.Drop.Pos), Name: ident((*gAlias)(g.Drop.Snap))}
	case g.Drop != nil && g.Drop.Table != nil:
		s = &DropTableStmt{Drop: pos(g.Drop.Pos), Table: ident(g.Drop.Table)}
	case g.Drop != nil:
		s = &DropIndexStmt{Drop: pos(g.Drop.Pos), Index: ident(g.Drop.Index)}
	case g.Truncate != nil:
		s = &TruncateStmt{Truncate: pos(g.Truncate.Pos), Table: ident(g.Truncate.Table)}
	case g.Alter != nil:
		s, err = c.alter(g.Alter)
	case g.Update != nil:
		s, err = c.update(g.Update)
	default:
		return nil, nil, false
	}
	if err != nil {
		return nil, err, true
	}
	return s, nil, true
}

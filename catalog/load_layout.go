package catalog

import (
	"strings"
)

func (l *loader) layout(t *Table, ys []yComponent, path []any) (*Layout, error) {
	if len(ys) == 0 {
		return nil, l.errf(path, "table %q has no rowkey", t.Name)
	}
	key := &Layout{}
	seen := map[string]bool{}
	for i := range ys {
		cp := append(append([]any{}, path...), i)
		c, err := l.component(t, &ys[i], cp)
		if err != nil {
			return nil, err
		}
		fields := []*Component{&c}
		if c.Kind == KindGroup {
			if i != len(ys)-1 {
				return nil, l.errf(cp, "a group repeats until the key ends, so it must be the last rowkey component")
			}
			fields = fields[:0]
			for j := range c.Group {
				fields = append(fields, &c.Group[j])
			}
		}
		for _, f := range fields {
			if f.Kind != KindField {
				continue
			}
			if seen[f.Field] {
				return nil, l.errf(cp, "field %q appears twice in the rowkey", f.Field)
			}
			seen[f.Field] = true
			t.Columns[f.col].KeyField = true
		}
		if c.Kind == KindSalt && i != 0 {
			return nil, l.errf(cp, "a salt byte must be the first rowkey component")
		}
		key.Components = append(key.Components, c)
	}
	if len(key.Components) > 0 && key.Components[0].Kind == KindSalt {
		for _, f := range key.Components[0].Inputs {
			if !seen[f] {
				return nil, l.errf(append(append([]any{}, path...), 0), "salt over %q, which is not a field of the rowkey: a salt hashes key bytes", f)
			}
		}
	}
	// A variable-width component ends at the literal after it, or at the end
	// of the key.
	if err := l.phoenixLayout(key, path); err != nil {
		return nil, err
	}
	for i := range key.Components {
		c := &key.Components[i]
		if _, fixed := c.FixedWidth(); fixed || c.descText() || c.Enc == KeyPhoenix {
			continue
		}
		cp := append(append([]any{}, path...), i)
		if i+1 == len(key.Components) {
			continue
		}
		next := &key.Components[i+1]
		if next.Kind != KindLiteral {
			return nil, l.errf(cp, "field %q has no fixed width and is not followed by a literal delimiter, so its end cannot be found: give it a width or put a literal after it", c.Field)
		}
		c.delim = next.Literal
	}
	return key, nil
}

// defaultEncoding is the key encoding of a field when the catalog names none.
func defaultEncoding(t Type) (KeyEncoding, int) {
	switch t {
	case TypeString, TypeBytes:
		return KeyText, 0
	case TypeInt, TypeDate:
		return KeyBinary, 4
	case TypeBoolean:
		return KeyBinary, 1
	}
	return KeyBinary, 8
}

// DefaultKeyEncoding is the key encoding of a field of type t when the
// layout names none, and the width of a number in it.
func DefaultKeyEncoding(t Type) (KeyEncoding, int) { return defaultEncoding(t) }

func (l *loader) component(t *Table, y *yComponent, cp []any) (Component, error) {
	if y.Width < 0 {
		return Component{}, l.errf(cp, "width %d cannot be negative", y.Width)
	}
	if y.Width > maxKeyLen {
		return Component{}, l.errf(cp, "width %d is over %d, HBase's longest rowkey", y.Width, maxKeyLen)
	}
	kinds := 0
	for _, set := range []bool{y.Field != "", y.Literal != nil, y.Hash != "", y.Bucket != "", y.Salt != 0, y.Random != 0, y.Group != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return Component{}, l.errf(cp, "a rowkey component needs exactly one of field, literal, hash, bucket, salt, random or group")
	}
	switch {
	case y.Group != nil:
		c := Component{Kind: KindGroup}
		for i := range y.Group {
			g, err := l.field(t, &y.Group[i], append(append([]any{}, cp...), "group", i))
			if err != nil {
				return c, err
			}
			if _, fixed := g.FixedWidth(); !fixed || g.Desc {
				return c, l.errf(cp, "group field %q needs a fixed width and ascending order", g.Field)
			}
			c.Group = append(c.Group, g)
		}
		if len(c.Group) == 0 {
			return c, l.errf(cp, "a group needs its fields")
		}
		return c, nil
	case y.Literal != nil:
		b, err := l.bytes(append(cp, "literal"), *y.Literal)
		if err != nil {
			return Component{}, l.errf(cp, "literal %q: %v", *y.Literal, err)
		}
		if len(b) == 0 {
			return Component{}, l.errf(cp, "literal %q must be non-empty text (\\xNN escapes allowed)", *y.Literal)
		}
		return Component{Kind: KindLiteral, Literal: b}, nil
	case y.Field != "":
		return l.field(t, y, cp)
	case y.Hash != "":
		return l.hash(t, y, cp)
	case y.Bucket != "":
		i, ok := t.colByName[y.Bucket]
		if !ok {
			return Component{}, l.errf(cp, "bucket over unknown column %q", y.Bucket)
		}
		typ := t.Columns[i].Type
		if !typ.integral() && typ != TypeString {
			return Component{}, l.errf(cp, "bucket over %s column %q: want an integer, timestamp or string", typ, y.Bucket)
		}
		c := Component{Kind: KindBucket, Field: y.Bucket, Mod: y.Mod, Binary: y.Binary, col: i, typ: typ}
		return c, l.number(&c, y, cp)
	case y.Salt != 0:
		c := Component{Kind: KindSalt, Mod: y.Salt, Binary: true, Width: y.Width, Inputs: y.Of}
		if c.Width == 0 {
			c.Width = 1
		}
		if c.Width > 4 {
			return Component{}, l.errf(cp, "a salt takes 1 to 4 bytes, not %d", c.Width)
		}
		if y.Salt < 1 || y.Salt > 1<<(8*c.Width) {
			return Component{}, l.errf(cp, "salt buckets must be 1..%d in %d bytes", 1<<(8*c.Width), c.Width)
		}
		for _, f := range y.Of {
			if _, ok := t.colByName[f]; !ok {
				return Component{}, l.errf(cp, "salt over unknown column %q", f)
			}
		}
		return c, nil
	default:
		c := Component{Kind: KindRandom, Mod: y.Random, Binary: y.Binary}
		return c, l.number(&c, y, cp)
	}
}

// number sets the width of a numeric derived component.
func (l *loader) number(c *Component, y *yComponent, cp []any) error {
	if c.Kind == KindRandom {
		y.Mod = c.Mod
	}
	if y.Mod < 2 {
		return l.errf(cp, "%s needs mod >= 2", kindName(c.Kind))
	}
	c.Mod = y.Mod
	need := 0
	if c.Binary {
		for v := c.Mod - 1; v > 0; v >>= 8 {
			need++
		}
	} else {
		for v := c.Mod - 1; v > 0; v /= 10 {
			need++
		}
	}
	if need == 0 {
		need = 1
	}
	c.Width = y.Width
	if c.Width == 0 {
		c.Width = need
	}
	if c.Width < need {
		return l.errf(cp, "width %d is too small: %s %% %d needs %d to hold values up to %d", c.Width, kindName(c.Kind), c.Mod, need, c.Mod-1)
	}
	if c.Width > 8 {
		return l.errf(cp, "width %d is over 8: a %s value takes at most 8 bytes or digits", c.Width, kindName(c.Kind))
	}
	return nil
}

// encName is the catalog's name of a key encoding.
func encName(e KeyEncoding) string {
	return [...]string{"text", "decimal", "sortable", "java", "phoenix"}[e]
}

// maxKeyLen is the longest rowkey HBase accepts (Short.MAX_VALUE).
const maxKeyLen = 32767

func kindName(k Kind) string {
	return [...]string{"field", "literal", "hash", "bucket", "salt", "random", "group"}[k]
}

func (l *loader) hash(t *Table, y *yComponent, cp []any) (Component, error) {
	c := Component{Kind: KindHash, Inputs: y.Of, Binary: y.Binary}
	if len(y.Of) == 0 {
		return c, l.errf(cp, "hash needs the fields it hashes: of: [field, …]")
	}
	for _, f := range y.Of {
		i, ok := t.colByName[f]
		if !ok {
			return c, l.errf(cp, "hash of unknown column %q", f)
		}
		c.ins = append(c.ins, i)
	}
	switch strings.ToLower(y.Hash) {
	case "md5":
		c.Hash = HashMD5
		c.Width = y.Width
		if c.Width == 0 {
			c.Width = 4
		}
		if c.Width > 32 {
			return c, l.errf(cp, "md5 takes a width of 1..32 hex characters, not %d", c.Width)
		}
		if y.Mod != 0 || y.Binary {
			return c, l.errf(cp, "md5 writes hex characters: it takes a width, and no mod or binary")
		}
		return c, nil
	case "java", "hashcode":
		c.Hash = HashJava
	case "murmur3":
		c.Hash = HashMurmur3
		c.Seed = y.Seed
	case "arrays":
		c.Hash = HashArrays
	default:
		return c, l.errf(cp, "unknown hash %q (want md5, java, arrays or murmur3)", y.Hash)
	}
	if y.Seed != 0 && c.Hash != HashMurmur3 {
		return c, l.errf(cp, "seed is murmur3's")
	}
	return c, l.number(&c, y, cp)
}

func (l *loader) field(t *Table, y *yComponent, cp []any) (Component, error) {
	i, ok := t.colByName[y.Field]
	if !ok {
		return Component{}, l.errf(cp, "rowkey field %q is not a column of table %q", y.Field, t.Name)
	}
	typ := t.Columns[i].Type
	c := Component{Kind: KindField, Field: y.Field, col: i, typ: typ, Reverse: y.Reverse, Width: y.Width, Pad: ' '}
	switch strings.ToLower(y.Order) {
	case "", "asc":
	case "desc":
		c.Desc = true
	default:
		return c, l.errf(cp, "order %q: want asc or desc", y.Order)
	}
	enc, width := defaultEncoding(typ)
	switch strings.ToLower(y.Encoding) {
	case "":
	case "text":
		enc = KeyText
	case "decimal":
		enc, width = KeyDecimal, 0
	case "sortable":
		enc = KeyBinary
	case "binary":
		enc = KeyBinary
		l.warnf(append(cp, "encoding"), "field %q: encoding binary is deprecated: in a rowkey it is sortable (sign bit flipped, in value order); Java's Bytes.toBytes is java", y.Field)
	case "java":
		enc = KeyJava
	case "phoenix":
		return l.phoenixField(c, y, cp)
	default:
		return c, l.errf(cp, "field %q: unknown encoding %q (want text, decimal, sortable, java or phoenix)", y.Field, y.Encoding)
	}
	if y.Phoenix != "" {
		return c, l.errf(cp, "field %q: phoenix names a Phoenix type for encoding: phoenix", y.Field)
	}
	c.Enc = enc
	switch enc {
	case KeyText:
		if typ != TypeString && typ != TypeBytes {
			return c, l.errf(cp, "field %q is %s: text encoding is for STRING and BYTES (use decimal for numbers)", y.Field, typ)
		}
		if y.Pad != nil {
			p, err := l.bytes(append(cp, "pad"), *y.Pad)
			if err != nil {
				return c, l.errf(cp, "field %q: pad %q: %v", y.Field, *y.Pad, err)
			}
			if len(p) != 1 {
				return c, l.errf(cp, "field %q: pad %q must be one byte: a character or \\xNN", y.Field, *y.Pad)
			}
			c.Pad = p[0]
		}
		switch strings.ToLower(y.Align) {
		case "", "left":
		case "right":
			c.PadLeft = true
		default:
			return c, l.errf(cp, "align %q: want left (pad on the right) or right (pad on the left)", y.Align)
		}
	case KeyDecimal:
		if !typ.integral() {
			return c, l.errf(cp, "field %q is %s: decimal encoding is for integers, timestamps and dates", y.Field, typ)
		}
		if c.Desc && c.Width == 0 {
			return c, l.errf(cp, "field %q: a descending decimal field needs a width (MAX is 10^width - 1)", y.Field)
		}
		if c.Width > 19 {
			return c, l.errf(cp, "field %q: decimal width %d is over 19 digits", y.Field, c.Width)
		}
	case KeyBinary, KeyJava:
		if typ == TypeString || typ == TypeBytes {
			return c, l.errf(cp, "field %q is %s: %s encoding is for numbers", y.Field, typ, strings.ToLower(y.Encoding))
		}
		if enc == KeyJava && typ == TypeDouble {
			return c, l.errf(cp, "field %q: java encoding in a key is for integers; use sortable for DOUBLE", y.Field)
		}
		resizable := typ.integral() && typ != TypeBoolean
		if y.Width != 0 && y.Width != width && (!resizable || y.Width > 8) {
			return c, l.errf(cp, "field %q: %s takes %d bytes in %s, not %d", y.Field, typ, width, encName(enc), y.Width)
		}
		if y.Width == 0 || !resizable {
			c.Width = width
		}
	}
	if y.Unsigned {
		if enc != KeyJava || !typ.integral() {
			return c, l.errf(cp, "field %q: unsigned is for integers in the java encoding", y.Field)
		}
		c.Unsigned = true
	}
	switch strings.ToLower(y.Unit) {
	case "", "ms":
	case "s":
		c.Unit = Seconds
	case "us":
		c.Unit = Micros
	default:
		return c, l.errf(cp, "field %q: unit %q: want s, ms or us", y.Field, y.Unit)
	}
	if y.Unit != "" && (typ != TypeTimestamp || enc == KeyText) {
		return c, l.errf(cp, "field %q: unit is for a TIMESTAMP stored as a number", y.Field)
	}
	if c.Reverse && enc != KeyText {
		return c, l.errf(cp, "field %q: reverse is for text fields", y.Field)
	}
	if (y.Pad != nil || y.Align != "") && !(enc == KeyText && c.Width > 0) {
		return c, l.errf(cp, "field %q: pad and align need a fixed-width text field (width: N)", y.Field)
	}
	return c, nil
}

func (l *loader) index(t *Table, y *yIndex, path []any) (*Index, error) {
	if !isName(y.Name) {
		return nil, l.errf(path, "index name %q must be letters, digits and underscores", y.Name)
	}
	ix := &Index{Name: y.Name, Physical: y.HBase, Carries: y.Carries, Covers: y.Covers, Unbuilt: y.State == StateUnbuilt}
	if y.State != "" && y.State != StateUnbuilt {
		return nil, l.errf(append(path, "state"), "index %q: state %q: the one state is %s (BUILD INDEX clears it)", y.Name, y.State, StateUnbuilt)
	}
	if ix.Physical == "" {
		ix.Physical = y.Name
	}
	if t.Wide != nil && t.Wide.Cells != nil {
		return nil, l.errf(path, "index %q: each cell of %s is a row of %s, and an index entry points to a stored row", y.Name, t.Wide.Family, t.Name)
	}
	fam := y.Family
	if fam == "" {
		fam = "d"
	}
	it := &Table{Name: y.Name, Physical: ix.Physical, IndexOf: t, colByName: map[string]int{}}
	it.Families = []Family{{Name: fam}}
	add := func(name string, stored bool, p []any) error {
		i, ok := t.colByName[name]
		if !ok {
			return l.errf(p, "index %q: %q is not a column of table %q", y.Name, name, t.Name)
		}
		if t.Columns[i].Type == TypeMap {
			return l.errf(p, "index %q: %q is a MAP, which an index cannot hold", y.Name, name)
		}
		if j, dup := it.colByName[name]; dup {
			if stored && it.Columns[j].Family == "" {
				it.Columns[j].Family, it.Columns[j].Qualifier = fam, name
			}
			return nil
		}
		col := Column{Name: name, Type: t.Columns[i].Type, Encoding: t.Columns[i].Encoding}
		if stored {
			col.Family, col.Qualifier = fam, name
		}
		it.colByName[name] = len(it.Columns)
		it.Columns = append(it.Columns, col)
		return nil
	}
	for i, rc := range y.Rowkey {
		for _, f := range append([]string{rc.Field, rc.Bucket}, rc.Of...) {
			if f != "" {
				if err := add(f, false, append(path, "rowkey", i)); err != nil {
					return nil, err
				}
			}
		}
	}
	for i, f := range y.Carries {
		if err := add(f, false, append(path, "carries", i)); err != nil {
			return nil, err
		}
	}
	for i, f := range y.Covers {
		if err := add(f, true, append(path, "covers", i)); err != nil {
			return nil, err
		}
	}
	key, err := l.layout(it, y.Rowkey, append(path, "rowkey"))
	if err != nil {
		return nil, err
	}
	it.Key = key
	for i, c := range it.Columns {
		if !c.KeyField && c.Family == "" {
			it.Columns[i].Family, it.Columns[i].Qualifier = fam, c.Name
		}
	}
	for _, c := range t.Key.Components {
		switch c.Kind {
		case KindRandom:
			return nil, l.errf(path, "index %q: table %q has a random key component, so an index entry could not point back to its row", y.Name, t.Name)
		case KindField:
			if _, ok := it.colByName[c.Field]; !ok {
				return nil, l.errf(path, "index %q must hold key field %q of table %q to point back to its row: add it to carries", y.Name, c.Field, t.Name)
			}
		}
	}
	ix.Table = it
	return ix, nil
}

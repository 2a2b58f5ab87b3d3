package catalog

import "bytes"

// KeyChecker tells whether keys fit a table's layout, exactly as DecodeKey
// does and with the same errors, but builds only the values that a hash or
// bucket check reads: for reads that count rows. It reuses its scratch
// space, so it is not safe for concurrent use.
//
// Layouts made only of literals, text fields, integer fields in the binary
// or java encoding and buckets of those integers are checked by a fast
// path that works on the key bytes and builds no Value; a key it does not
// accept, and every key of any other layout, goes through the general
// path, which gives the error.
type KeyChecker struct {
	t    *Table
	row  Row
	offs []int
	// need marks the key components whose value checkDerived reads; the
	// text fields among the others are measured, not decoded.
	need []bool
	// ops is the fast path, one step per component; nil when the layout
	// has a component it does not handle.
	ops []keyOp
	// ints holds, per column, the integer the fast path read.
	ints []int64
	// buckets are the components the fast path checks after the walk.
	buckets []int
}

// keyOp is what the fast path does with one component.
type keyOp uint8

const (
	opLiteral keyOp = iota // the literal's bytes
	opText                 // a text field: find its end
	opInt                  // an integer field: read it into ints
	opBucket               // a bucket: skip it now, compare it after the walk
)

// NewKeyChecker returns a KeyChecker for t's layout.
func (t *Table) NewKeyChecker() *KeyChecker {
	comps := t.Key.Components
	k := &KeyChecker{t: t, row: t.NewRow(), offs: make([]int, len(comps)+1), need: make([]bool, len(comps)),
		ints: make([]int64, len(t.Columns))}
	for i := range comps {
		c := &comps[i]
		if c.Kind != KindHash && c.Kind != KindBucket {
			continue
		}
		for _, col := range c.InputColumns() {
			for j := range comps {
				if comps[j].Kind == KindField && comps[j].col == col {
					k.need[j] = true
				}
			}
		}
	}
	k.ops = k.fastOps()
	return k
}

// fastOps returns the fast path's steps, or nil if some component needs
// the general path.
func (k *KeyChecker) fastOps() []keyOp {
	comps := k.t.Key.Components
	ops := make([]keyOp, len(comps))
	read := make([]bool, len(k.t.Columns)) // columns an opInt reads
	for i := range comps {
		c := &comps[i]
		switch {
		case c.Kind == KindLiteral:
			ops[i] = opLiteral
		case c.Kind == KindField && c.measuredOnly() && !k.need[i]:
			ops[i] = opText
		case c.Kind == KindField && c.fastInt():
			ops[i] = opInt
			read[c.col] = true
		case c.Kind == KindBucket && c.typ != TypeString && c.Width <= 8:
			ops[i] = opBucket
			k.buckets = append(k.buckets, i)
		default:
			return nil
		}
	}
	for _, i := range k.buckets {
		if !read[comps[i].col] {
			return nil
		}
	}
	return ops
}

// Check returns what DecodeKey returns for key.
func (k *KeyChecker) Check(key []byte) error {
	if k.ops != nil && k.fast(key) {
		return nil
	}
	if err := k.t.decodeKey(key, k.row, k.offs, k.need); err != nil {
		return err
	}
	return k.t.checkDerived(key, k.row, k.offs)
}

// fast reports whether the fast path accepts key. It accepts only keys
// DecodeKey accepts; false means the general path must decide.
func (k *KeyChecker) fast(key []byte) bool {
	comps := k.t.Key.Components
	pos := 0
	for i, op := range k.ops {
		c := &comps[i]
		rest := key[pos:]
		switch op {
		case opLiteral:
			if !bytes.HasPrefix(rest, c.Literal) {
				return false
			}
			pos += len(c.Literal)
		case opText:
			n, ok := c.measure(rest)
			if !ok {
				return false
			}
			pos += n
		case opInt:
			if len(rest) < c.Width {
				return false
			}
			v, ok := c.readInt(rest[:c.Width])
			if !ok {
				return false
			}
			k.ints[c.col] = v
			pos += c.Width
		case opBucket:
			if len(rest) < c.Width {
				return false
			}
			k.offs[i] = pos
			pos += c.Width
		}
	}
	if pos != len(key) {
		return false
	}
	for _, i := range k.buckets {
		c := &comps[i]
		var buf [8]byte
		want := c.appendNumber(buf[:0], ((k.ints[c.col]%c.Mod)+c.Mod)%c.Mod)
		if !bytes.Equal(key[k.offs[i]:k.offs[i]+c.Width], want) {
			return false
		}
	}
	return true
}

// measuredOnly reports whether reading the field's value can fail only
// where finding its end fails, so that a check need not build the value:
// text, unless reversed (reversed text must be UTF-8).
func (c *Component) measuredOnly() bool {
	return c.Enc == KeyText && !c.Reverse
}

// measure is span without an error value: the length of the field at the
// start of key, and whether it has one.
func (c *Component) measure(key []byte) (int, bool) {
	switch {
	case c.Width > 0:
		return c.Width, len(key) >= c.Width
	case c.descText():
		i := bytes.IndexByte(key, 0xFF)
		return i + 1, i >= 0
	case len(c.delim) == 0:
		return len(key), true
	case len(c.delim) == 1:
		i := bytes.IndexByte(key, c.delim[0])
		return i, i >= 0
	}
	i := bytes.Index(key, c.delim)
	return i, i >= 0
}

// fastInt reports whether readInt reads the field: an integer whose Value
// holds the number the key holds, in the binary or java encoding.
func (c *Component) fastInt() bool {
	switch c.typ {
	case TypeBigint, TypeInt, TypeTimestamp:
	default:
		return false
	}
	return (c.Enc == KeyBinary || c.Enc == KeyJava) && c.Width >= 1 && c.Width <= 8
}

// readInt reads the integer of a field that fastInt accepts from its
// c.Width bytes b, refusing what DecodeField refuses.
func (c *Component) readInt(b []byte) (int64, bool) {
	var v int64
	if c.Enc == KeyJava {
		v = signExtend(readUint(b), c.Width)
		if v < 0 {
			return 0, false
		}
		if c.Desc {
			v = c.javaMax() - v
		}
	} else {
		u := readUint(b)
		if c.Desc {
			u = ^u & widthMask(c.Width)
		}
		u ^= 1 << (uint(c.Width)*8 - 1)
		v = signExtend(u, c.Width)
	}
	lo, hi := typeRange(c.typ)
	return v, v >= lo && v <= hi
}

package catalog

import (
	"bytes"
	"encoding/binary"
)

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
	// steps is the fast path, one step per component; nil when the layout
	// has a component it does not handle.
	steps []keyStep
	// ints holds, per step, the integer an opInt step read.
	ints []int64
	// buckets are the steps the fast path checks after the walk.
	buckets []int
	// memo is the last md5 computed on the general path.
	memo hashMemo
}

// keyOp is what the fast path does with one component.
type keyOp uint8

const (
	opLiteral   keyOp = iota // the literal's bytes
	opByte                   // a literal of one byte (b)
	opFixed                  // a fixed-width text field: skip it
	opRest                   // a text field that ends the key
	opDelimited              // a text field up to its delimiter (lit)
	opDescText               // descending text, through its 0xFF
	opInt                    // an integer field: read it into ints
	opBucket                 // a bucket: skip it now, compare it after the walk
)

// keyStep is one component as the fast path sees it, copied out of the
// Component so that the walk touches one small array.
type keyStep struct {
	op    keyOp
	width int
	lit   []byte // opLiteral: the literal; opDelimited: the delimiter
	b     byte   // opByte: the literal's one byte
	// opInt: how to read the integer, and its type's range.
	java, desc bool
	javaMax    int64
	lo, hi     int64
	// opBucket: the modulus, the step that reads its input, and whether
	// it is one binary byte.
	mod   int64
	input int
	byte1 bool
	c     *Component
}

// NewKeyChecker returns a KeyChecker for t's layout.
func (t *Table) NewKeyChecker() *KeyChecker {
	comps := t.Key.Components
	k := &KeyChecker{t: t, row: t.NewRow(), offs: make([]int, len(comps)+1), need: make([]bool, len(comps)),
		ints: make([]int64, len(comps))}
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
	k.steps = k.fastSteps()
	return k
}

// fastSteps returns the fast path's steps, or nil if some component needs
// the general path.
func (k *KeyChecker) fastSteps() []keyStep {
	comps := k.t.Key.Components
	steps := make([]keyStep, len(comps))
	reads := map[int]int{} // column -> the last opInt step reading it
	for i := range comps {
		c := &comps[i]
		st := keyStep{width: c.Width, c: c}
		switch {
		case c.Kind == KindLiteral && len(c.Literal) == 1:
			st.op, st.b = opByte, c.Literal[0]
		case c.Kind == KindLiteral:
			st.op, st.lit = opLiteral, c.Literal
		case c.Kind == KindField && c.measuredOnly() && !k.need[i]:
			switch {
			case c.Width > 0:
				st.op = opFixed
			case c.descText():
				st.op = opDescText
			case len(c.delim) == 0:
				st.op = opRest
			default:
				st.op, st.lit = opDelimited, c.delim
			}
		case c.Kind == KindField && c.fastInt():
			st.op, st.java, st.desc = opInt, c.Enc == KeyJava, c.Desc
			st.lo, st.hi = typeRange(c.typ)
			if st.java && st.desc {
				st.javaMax = c.javaMax()
			}
			reads[c.col] = i
		case c.Kind == KindBucket && c.typ != TypeString && c.Width <= 8:
			st.op, st.mod = opBucket, c.Mod
			st.byte1 = c.Binary && c.Width == 1
			k.buckets = append(k.buckets, i)
		default:
			return nil
		}
		steps[i] = st
	}
	for _, i := range k.buckets {
		in, ok := reads[comps[i].col]
		if !ok {
			return nil
		}
		steps[i].input = in
	}
	return steps
}

// Check returns what DecodeKey returns for key.
func (k *KeyChecker) Check(key []byte) error {
	if k.steps != nil && k.fast(key) {
		return nil
	}
	if err := k.t.decodeKey(key, k.row, k.offs, k.need); err != nil {
		return err
	}
	return k.t.checkDerivedMemo(key, k.row, k.offs, &k.memo)
}

// Decode does what DecodeKey does, through the fast path where the layout
// allows: a key it accepts has its fields read from the bytes it already
// measured, and its hash, bucket and salt bytes are not computed again.
// offs must have room for len(components)+1 entries.
func (k *KeyChecker) Decode(key []byte, row Row, offs []int) error {
	if k.steps == nil || !k.fast(key) {
		if err := k.t.decodeKey(key, row, offs, nil); err != nil {
			return err
		}
		return k.t.checkDerivedMemo(key, row, offs, &k.memo)
	}
	comps := k.t.Key.Components
	copy(offs, k.offs)
	for i := range k.steps {
		c := &comps[i]
		switch k.steps[i].op {
		case opFixed, opRest, opDelimited, opDescText:
			v, _, err := c.DecodeField(key[offs[i]:])
			if err != nil {
				return err // cannot happen: fast measured the field
			}
			row[c.col] = v
		case opInt:
			row[c.col] = Value{Type: c.typ, I: k.ints[i]}
		}
	}
	return nil
}

// fast reports whether the fast path accepts key, leaving where each
// component starts in k.offs. It accepts only keys DecodeKey accepts;
// false means the general path must decide.
func (k *KeyChecker) fast(key []byte) bool {
	steps := k.steps
	offs := k.offs[:len(steps)+1]
	ints := k.ints[:len(steps)]
	pos, n := 0, len(key)
	// Each case works on offsets into key rather than on re-sliced
	// remainders: this loop runs once per component of every counted key.
	for i := range steps {
		st := &steps[i]
		offs[i] = pos
		switch st.op {
		case opByte:
			if pos >= n || key[pos] != st.b {
				return false
			}
			pos++
		case opLiteral:
			e := pos + len(st.lit)
			if e > n || string(key[pos:e]) != string(st.lit) {
				return false
			}
			pos = e
		case opFixed, opBucket:
			if pos += st.width; pos > n {
				return false
			}
		case opRest:
			pos = n
		case opDelimited:
			var j int
			if len(st.lit) == 1 {
				j = bytes.IndexByte(key[pos:], st.lit[0])
			} else {
				j = bytes.Index(key[pos:], st.lit)
			}
			if j < 0 {
				return false
			}
			pos += j
		case opDescText:
			j := bytes.IndexByte(key[pos:], 0xFF)
			if j < 0 {
				return false
			}
			pos += j + 1
		case opInt:
			e := pos + st.width
			if e > n {
				return false
			}
			v, ok := st.readInt(key[pos:e])
			if !ok {
				return false
			}
			ints[i] = v
			pos = e
		}
	}
	if pos != n {
		return false
	}
	offs[len(steps)] = pos
	for _, i := range k.buckets {
		st := &steps[i]
		var b int64
		if st.mod&(st.mod-1) == 0 {
			b = ints[st.input] & (st.mod - 1) // a power of two: no division
		} else if b = ints[st.input] % st.mod; b < 0 {
			b += st.mod
		}
		at := offs[i]
		if st.byte1 {
			if int64(key[at]) != b {
				return false
			}
			continue
		}
		var buf [8]byte
		if string(key[at:at+st.width]) != string(st.c.appendNumber(buf[:0], b)) {
			return false
		}
	}
	return true
}

// readInt reads the integer of an opInt step from its st.width bytes b,
// refusing what DecodeField refuses.
func (st *keyStep) readInt(b []byte) (int64, bool) {
	var u uint64
	if len(b) == 8 {
		u = binary.BigEndian.Uint64(b)
	} else {
		u = readUint(b)
	}
	var v int64
	if st.java {
		// A signed java field: see Component.javaInt.
		if st.desc {
			v = st.javaMax - int64(u)
		} else {
			v = signExtend(u, st.width)
		}
	} else {
		if st.desc {
			u = ^u & widthMask(st.width)
		}
		u ^= 1 << (uint(st.width)*8 - 1)
		v = signExtend(u, st.width)
	}
	return v, v >= st.lo && v <= st.hi
}

// measuredOnly reports whether reading the field's value can fail only
// where finding its end fails, so that a check need not build the value:
// text, unless reversed (reversed text must be UTF-8).
func (c *Component) measuredOnly() bool {
	return c.Enc == KeyText && !c.Reverse
}

// fastInt reports whether readInt reads the field: a signed integer whose
// Value holds the number the key holds (a TIMESTAMP in milliseconds), in
// the sortable or java encoding. An unsigned field, or a time in seconds
// or microseconds, goes through DecodeField.
func (c *Component) fastInt() bool {
	switch c.typ {
	case TypeBigint, TypeInt:
	case TypeTimestamp:
		if c.Unit != Millis {
			return false
		}
	default:
		return false
	}
	return (c.Enc == KeyBinary || c.Enc == KeyJava) && !c.Unsigned && c.Width >= 1 && c.Width <= 8
}

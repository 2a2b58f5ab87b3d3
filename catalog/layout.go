package catalog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// EncodeKey writes the rowkey of row. Every key field must be set. A random
// component takes its value from rnd, which returns a number in [0, n).
func (t *Table) EncodeKey(row Row, rnd func(n int64) int64) ([]byte, error) {
	comps := t.Key.Components
	salted := len(comps) > 0 && comps[0].Kind == KindSalt
	var key []byte
	start := 0
	if salted {
		start = 1
		key = make([]byte, comps[0].Width)
	}
	offs := make([]int, len(comps)+1)
	end := t.phoenixTrim(row, start)
	for i := start; i < len(comps); i++ {
		offs[i] = len(key)
		if i >= end {
			continue // a trailing NULL that Phoenix leaves out
		}
		var err error
		key, err = t.appendComponent(key, &comps[i], row, rnd)
		if err != nil {
			return nil, err
		}
	}
	if end < len(comps) {
		if end == start {
			return nil, &KeyError{Msg: "every field of the key is NULL, and Phoenix keeps no such row"}
		}
		if comps[end-1].SeparatorOptional() {
			key = key[:len(key)-1] // no separator after the last field written
		}
		for i := end; i < len(comps); i++ {
			offs[i] = len(key)
		}
	}
	offs[len(comps)] = len(key)
	if salted {
		copy(key, t.saltBytes(&comps[0], key, offs))
	}
	return key, nil
}

// EncodeRowKey is EncodeKey for a row about to be stored: a key of no
// bytes is refused too, since HBase keeps no row under an empty key.
func (t *Table) EncodeRowKey(row Row, rnd func(n int64) int64) ([]byte, error) {
	key, err := t.EncodeKey(row, rnd)
	if err != nil || len(key) > 0 {
		return key, err
	}
	var fields []string
	for _, c := range t.KeyColumns() {
		fields = append(fields, t.Columns[c].Name+" = "+row[c].String())
	}
	return nil, &KeyError{Msg: fmt.Sprintf("the row key of %s would be empty (%s): HBase keeps no row under an empty key",
		t.Name, strings.Join(fields, ", "))}
}

// CheckStoredKeys checks, before a write, that row of t and each of its
// index entries have keys that can be stored: they encode (a random
// component drawn as 0), and none is empty.
func (t *Table) CheckStoredKeys(row Row) error {
	zero := func(int64) int64 { return 0 }
	if _, err := t.EncodeRowKey(row, zero); err != nil {
		return err
	}
	for _, ix := range t.Indexes {
		if ir, ok := ix.EntryRow(t, row); ok {
			if _, err := ix.Table.EncodeRowKey(ir, zero); err != nil {
				return fmt.Errorf("index %s: %w", ix.Name, err)
			}
		}
	}
	return nil
}

// EntryRow projects a data row of table data onto the columns of index
// ix's table; ok is false when an index key field is NULL, as such a row
// has no entry.
func (ix *Index) EntryRow(data *Table, row Row) (Row, bool) {
	it := ix.Table
	out := it.NewRow()
	for i, c := range it.Columns {
		d, _ := data.Column(c.Name)
		out[i] = row[d]
		if c.KeyField && row[d].Null {
			return nil, false
		}
	}
	return out, true
}

// saltBytes computes a salt component from the key bytes it covers: the
// rest of the key (Phoenix), or the bytes of the components of its
// Inputs, in key order (OpenTSDB: metric and tags, not the time). The
// hash is Java's Arrays.hashCode(byte[]); the bucket abs(hash % Mod),
// written big-endian in Width bytes. offs are the component offsets.
func (t *Table) saltBytes(c *Component, key []byte, offs []int) []byte {
	if len(c.Inputs) == 0 {
		return c.EncodeNumber(javaAbsMod(int64(ArraysHashCode(key[offs[1]:])), c.Mod))
	}
	h := int32(1)
	for j := 1; j+1 < len(offs); j++ {
		if cj := &t.Key.Components[j]; cj.covers(c.Inputs) {
			h = arraysHash(h, key[offs[j]:offs[j+1]])
		}
	}
	return c.EncodeNumber(javaAbsMod(int64(h), c.Mod))
}

// covers reports whether a field or group component holds one of cols.
func (c *Component) covers(cols []string) bool {
	switch c.Kind {
	case KindField:
		return slices.Contains(cols, c.Field)
	case KindGroup:
		for i := range c.Group {
			if slices.Contains(cols, c.Group[i].Field) {
				return true
			}
		}
	}
	return false
}

// repeats reads a group's repetitions from b, which it must fill: at
// least one, each the group's fields in order.
func (c *Component) repeats(b []byte) ([][]Value, error) {
	w := 0
	for i := range c.Group {
		fw, _ := c.Group[i].FixedWidth()
		w += fw
	}
	if len(b) == 0 || len(b)%w != 0 {
		return nil, &KeyError{Msg: fmt.Sprintf("%d bytes left for %s, not a multiple of %d", len(b), c, w)}
	}
	var out [][]Value
	for pos := 0; pos < len(b); {
		rep := make([]Value, len(c.Group))
		for i := range c.Group {
			v, n, err := c.Group[i].DecodeField(b[pos:])
			if err != nil {
				return nil, err
			}
			rep[i], pos = v, pos+n
		}
		out = append(out, rep)
	}
	return out, nil
}

// Repeats returns the repetitions of the key's group, each as the values
// of the group's columns (GroupColumns), and nil when the layout has no
// group. offs are the component offsets DecodeKey gave.
func (t *Table) Repeats(key []byte, offs []int) ([][]Value, error) {
	n := len(t.Key.Components)
	if n == 0 || t.Key.Components[n-1].Kind != KindGroup {
		return nil, nil
	}
	return t.Key.Components[n-1].repeats(key[offs[n-1]:])
}

// GroupColumns are the column indexes of a group's fields, in order.
func (c *Component) GroupColumns() []int {
	out := make([]int, len(c.Group))
	for i := range c.Group {
		out[i] = c.Group[i].col
	}
	return out
}

// Salt returns the salt bytes of a key whose salt is left out: rest is
// the key after the salt. It fails when rest does not fit the layout.
func (t *Table) Salt(rest []byte) ([]byte, error) {
	comps := t.Key.Components
	if len(comps) == 0 || comps[0].Kind != KindSalt {
		return nil, fmt.Errorf("catalog: table %s has no salt", t.Name)
	}
	key := append(make([]byte, comps[0].Width), rest...)
	offs := make([]int, len(comps)+1)
	if err := t.decodeKey(key, t.NewRow(), offs, nil); err != nil {
		return nil, err
	}
	return t.saltBytes(&comps[0], key, offs), nil
}

func (t *Table) appendComponent(key []byte, c *Component, row Row, rnd func(int64) int64) ([]byte, error) {
	switch c.Kind {
	case KindLiteral:
		return append(key, c.Literal...), nil
	case KindField:
		return c.EncodeField(key, row[c.col])
	case KindRandom:
		if rnd == nil {
			return nil, fmt.Errorf("catalog: %s needs a random source", c)
		}
		return append(key, c.EncodeNumber(rnd(c.Mod))...), nil
	case KindSalt:
		return nil, fmt.Errorf("catalog: a salt byte must lead the key")
	case KindGroup:
		for i := range c.Group {
			var err error
			if key, err = c.Group[i].EncodeField(key, row[c.Group[i].col]); err != nil {
				return nil, err
			}
		}
		return key, nil
	default:
		b, err := c.Compute(t.Columns, row)
		if err != nil {
			return nil, err
		}
		return append(key, b...), nil
	}
}

// DecodeKey reads the key fields of key into row. When offs is not nil it
// must have room for len(components)+1 entries; it receives the byte offset
// where each component starts, and the key length last. A key is refused
// unless EncodeKey could have written it: its hash, bucket and salt bytes
// must be the ones its fields give (when the key holds every input), and a
// random component must be in [0, N). Two readings lose what EncodeKey
// would write back differently: a key group's repetitions after the first
// (the row holds the first; Repeats gives them all), and a TIMESTAMP in
// microseconds, read floored to the millisecond.
func (t *Table) DecodeKey(key []byte, row Row, offs []int) error {
	if offs == nil {
		offs = make([]int, len(t.Key.Components)+1)
	}
	if err := t.decodeKey(key, row, offs, nil); err != nil {
		return err
	}
	return t.checkDerived(key, row, offs)
}

// decodeKey reads the components of key into row and offs. When need is
// not nil, a text field whose need is false is only measured: its value is
// not built, and row keeps what it held.
func (t *Table) decodeKey(key []byte, row Row, offs []int, need []bool) error {
	pos := 0
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		offs[i] = pos
		rest := key[pos:]
		switch c.Kind {
		case KindLiteral:
			if !bytes.HasPrefix(rest, c.Literal) {
				return &KeyError{Msg: fmt.Sprintf("expected '%s' at byte %d of key '%s'", ToStringBinary(c.Literal), pos, ToStringBinary(key))}
			}
			pos += len(c.Literal)
		case KindField:
			if need != nil && !need[i] && c.measuredOnly() {
				n, err := c.span(rest)
				if err != nil {
					return fmt.Errorf("at byte %d of key '%s': %w", pos, ToStringBinary(key), err)
				}
				pos += n
				continue
			}
			v, n, err := c.DecodeField(rest)
			if err != nil {
				return fmt.Errorf("at byte %d of key '%s': %w", pos, ToStringBinary(key), err)
			}
			row[c.col] = v
			pos += n
		case KindGroup:
			reps, err := c.repeats(rest)
			if err != nil {
				return fmt.Errorf("at byte %d of key '%s': %w", pos, ToStringBinary(key), err)
			}
			for j, v := range reps[0] {
				row[c.Group[j].col] = v
			}
			pos = len(key)
		default:
			if _, err := c.DecodeNumber(rest); err != nil {
				return fmt.Errorf("at byte %d of key '%s': %w", pos, ToStringBinary(key), err)
			}
			pos += c.Width
		}
	}
	offs[len(t.Key.Components)] = pos
	if pos != len(key) {
		return &KeyError{Msg: fmt.Sprintf("%d bytes left over after the last component of key '%s'", len(key)-pos, ToStringBinary(key))}
	}
	return t.phoenixSomeField(key, row, offs, need)
}

// checkDerived compares each hash, bucket and salt component of a decoded
// key with the bytes its inputs give.
func (t *Table) checkDerived(key []byte, row Row, offs []int) error {
	return t.checkDerivedMemo(key, row, offs, nil)
}

// hashMemo remembers the last md5 component a KeyChecker computed: keys
// read in order share their hash's inputs with the key before (a seller's
// orders, one after another), and md5 is the dearest step of a check.
type hashMemo struct {
	ok      bool
	comp    int
	in, out []byte
}

// checkDerivedMemo is checkDerived, reusing memo's md5 when the inputs
// are the same bytes as last time; memo may be nil.
func (t *Table) checkDerivedMemo(key []byte, row Row, offs []int, memo *hashMemo) error {
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		got := key[offs[i]:offs[i+1]]
		var buf [32]byte
		var want []byte
		switch c.Kind {
		case KindSalt:
			want = t.saltBytes(c, key, offs)
		case KindHash, KindBucket:
			if !t.keyHolds(c.InputColumns()) {
				continue
			}
			if memo != nil && c.Kind == KindHash && c.Hash == HashMD5 && !anyNull(row, c.InputColumns()) {
				var inBuf [64]byte
				in := hashInput(inBuf[:0], t.Columns, c.ins, row)
				if !memo.ok || memo.comp != i || !bytes.Equal(memo.in, in) {
					b, err := c.appendCompute(memo.out[:0], t.Columns, row)
					if err != nil {
						return err
					}
					memo.ok, memo.comp, memo.in, memo.out = true, i, append(memo.in[:0], in...), b
				}
				want = memo.out
				break
			}
			b, err := c.appendCompute(buf[:0], t.Columns, row)
			if err != nil {
				return err
			}
			want = b
		default:
			continue
		}
		if !bytes.Equal(got, want) {
			return &KeyError{Msg: fmt.Sprintf("%s is '%s' in key '%s', but the key's fields give '%s'",
				c, ToStringBinary(got), ToStringBinary(key), ToStringBinary(want))}
		}
	}
	return nil
}

// anyNull reports whether one of cols is NULL in row.
func anyNull(row Row, cols []int) bool {
	for _, i := range cols {
		if row[i].Null {
			return true
		}
	}
	return false
}

// keyHolds reports whether every column in cols is a key field.
func (t *Table) keyHolds(cols []int) bool {
	for _, i := range cols {
		if !t.Columns[i].KeyField {
			return false
		}
	}
	return true
}

// KeyColumns lists the column indexes of the key fields in layout order.
func (t *Table) KeyColumns() []int {
	var out []int
	for i := range t.Key.Components {
		switch c := &t.Key.Components[i]; c.Kind {
		case KindField:
			out = append(out, c.col)
		case KindGroup:
			out = append(out, c.GroupColumns()...)
		}
	}
	return out
}

// EncodeKeyPrefix writes the leading components of row's key that row
// holds every field of, each as EncodeKey writes it, so that the prefix
// begins the key of every row with those field values: the split point
// before them. It stops at the first component that needs a field row
// leaves NULL, or a random number. used are the columns the prefix holds
// (the inputs of a hash or bucket included). A salted key needs every key
// field: its salt byte is computed from the whole key.
func (t *Table) EncodeKeyPrefix(row Row) (key []byte, used []int, err error) {
	comps := t.Key.Components
	if len(comps) > 0 && comps[0].Kind == KindSalt {
		for _, c := range t.KeyColumns() {
			if row[c].Null {
				return nil, nil, &KeyError{Msg: fmt.Sprintf("the salt byte of %s is computed from every key field: %s is missing", t.Name, t.Columns[c].Name)}
			}
		}
		key, err := t.EncodeKey(row, func(int64) int64 { return 0 })
		return key, t.KeyColumns(), err
	}
	have := func(cols ...int) bool {
		for _, c := range cols {
			if row[c].Null {
				return false
			}
		}
		return true
	}
	for i := range comps {
		c := &comps[i]
		var ins []int
		switch c.Kind {
		case KindLiteral:
		case KindField:
			ins = []int{c.col}
		case KindGroup:
			for j := range c.Group {
				ins = append(ins, c.Group[j].col)
			}
		case KindRandom:
			return key, used, nil
		default:
			ins = c.InputColumns()
		}
		if !have(ins...) {
			return key, used, nil
		}
		if key, err = t.appendComponent(key, c, row, nil); err != nil {
			return nil, nil, err
		}
		for _, in := range ins {
			if !slices.Contains(used, in) {
				used = append(used, in)
			}
		}
	}
	return key, used, nil
}

package hbasestore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase/filter"
)

// compileKey translates a predicate over key field col into a RowFilter
// whose regular expression walks the key layout from its first byte: it
// matches a key the layout reads exactly when the predicate is TRUE for
// the field read from it. (A key the layout cannot read is skipped by the
// client whatever the server decides.) A key field is never NULL, so a
// predicate with a non-NULL constant is TRUE or FALSE, and the rows where
// it is FALSE are those the same regular expression does not match.
func compileKey(t *catalog.Table, col int, e expr.Expr) (serverFilter, error) {
	idx, err := keyComponent(t, col)
	if err != nil {
		return serverFilter{}, fmt.Errorf("%s: %w", e, err)
	}
	comp := &t.Key.Components[idx]
	if comp.Enc == catalog.KeyPhoenix && comp.Kind == catalog.KindField {
		// A Phoenix key leaves trailing NULL fields and their
		// separators out, which the regular expression does not walk.
		return serverFilter{}, fmt.Errorf("%s: a Phoenix key field is filtered in the client", e)
	}
	var field string
	var values [][]byte // the field's bytes when it must equal one of them
	not := false
	switch p := e.(type) {
	case *expr.Cmp:
		if p.Op != expr.Eq && p.Op != expr.Ne {
			return serverFilter{}, fmt.Errorf("%s: an ordered comparison on a key field is the scan ranges' to narrow", e)
		}
		if p.Val.Null {
			return serverFilter{}, fmt.Errorf("%s: %w", e, errNullCompare)
		}
		b, err := keyBytes(comp, t.Columns[col].Type, p.Val)
		if err != nil {
			return serverFilter{}, fmt.Errorf("%s: %w", e, err)
		}
		field, not = quote(b), p.Op == expr.Ne
		values = [][]byte{b}
	case *expr.In:
		var alts []string
		for _, v := range p.Vals {
			if v.Null {
				if p.Not {
					return serverFilter{}, fmt.Errorf("%s: NOT IN a list holding NULL is never true", e)
				}
				continue
			}
			b, err := keyBytes(comp, t.Columns[col].Type, v)
			if err != nil {
				return serverFilter{}, fmt.Errorf("%s: %w", e, err)
			}
			alts = append(alts, quote(b))
			values = append(values, b)
		}
		if len(alts) == 0 {
			return serverFilter{}, fmt.Errorf("%s: %w", e, errNullCompare)
		}
		field, not = "(?:"+strings.Join(alts, "|")+")", p.Not
	case *expr.Like:
		if p.Escape != "" {
			return serverFilter{}, fmt.Errorf("%s: LIKE with ESCAPE is matched in the client", e)
		}
		delim, err := likeField(t, idx)
		if err != nil {
			return serverFilter{}, fmt.Errorf("%s: %w", e, err)
		}
		if field, err = likeRegex(p.Pattern, delim); err != nil {
			return serverFilter{}, fmt.Errorf("%s: %w", e, err)
		}
		not = p.Not
	default:
		return serverFilter{}, fmt.Errorf("%s: no row filter is built for this condition on a key field", e)
	}
	re, err := keyRegex(t, idx, field)
	if err != nil {
		return serverFilter{}, fmt.Errorf("%s: %w", e, err)
	}
	op, sym := filter.Equal, "=~"
	if not {
		op, sym = filter.NotEqual, "!~"
	}
	out := serverFilter{
		f:   filter.Row{Op: op, Comparator: filter.RegexString{Pattern: expandChars(re), Charset: latin1}},
		how: fmt.Sprintf("RowFilter(key %s '%s')", sym, re),
	}
	// A fuzzy key needs at least one free byte: on HBase 2.6 a key whose
	// every byte is fixed (a field at offset 0) filtered nothing in the
	// differential suite, so the RowFilter serves that case.
	if at, ok := fixedOffset(t, idx); ok && at > 0 && !not && len(values) > 0 {
		fz := filter.FuzzyRow{}
		var shown []string
		for _, v := range values {
			k := filter.FuzzyKey{Key: make([]byte, at+len(v)), Mask: make([]byte, at+len(v))}
			copy(k.Key[at:], v)
			for i := range at {
				k.Mask[i] = 1
			}
			fz.Keys = append(fz.Keys, k)
			shown = append(shown, "'"+catalog.ToStringBinary(v)+"'")
		}
		out.forward = fz
		out.how = fmt.Sprintf("FuzzyRowFilter(key bytes %d..%d = %s) forward, %s reversed",
			at, at+len(values[0])-1, strings.Join(shown, " | "), out.how)
	}
	return out, nil
}

// fixedOffset returns where component idx starts when it and every
// component before it have a fixed width, so that a fuzzy key can pin
// its bytes.
func fixedOffset(t *catalog.Table, idx int) (int, bool) {
	at := 0
	for i := 0; i <= idx; i++ {
		w, ok := t.Key.Components[i].FixedWidth()
		if !ok || w <= 0 {
			return 0, false
		}
		if i < idx {
			at += w
		}
	}
	return at, true
}

// keyComponent returns the index of the one component that writes col.
func keyComponent(t *catalog.Table, col int) (int, error) {
	at := -1
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		if c.Kind == catalog.KindField && c.Column() == col {
			if at >= 0 {
				return 0, errors.New("the field is written twice into the key")
			}
			at = i
		}
	}
	if at < 0 {
		return 0, errors.New("the field is not written into the key")
	}
	return at, nil
}

// keyBytes is the one byte form of v in a key field of type typ.
func keyBytes(c *catalog.Component, typ catalog.Type, v catalog.Value) ([]byte, error) {
	switch {
	case typ == catalog.TypeString || typ == catalog.TypeBytes || typ == catalog.TypeDouble:
		if v.Type != typ {
			return nil, fmt.Errorf("the field is %s and %s is %s", typ, v, v.Type)
		}
		if typ == catalog.TypeDouble && v.F == 0 {
			return nil, errors.New("0 and -0 are equal values written as different bytes")
		}
	case !integral(v.Type):
		return nil, fmt.Errorf("the field is %s and %s is %s", typ, v, v.Type)
	}
	b, err := c.EncodeField(nil, v)
	if err != nil {
		return nil, fmt.Errorf("no key holds it: %w", err)
	}
	return b, nil
}

// likeField returns the delimiter byte of a text field LIKE can walk (-1
// when it runs to the end of the key): plain text, variable width, ended
// by a one-byte ASCII delimiter or by the end of the key.
func likeField(t *catalog.Table, idx int) (int, error) {
	c := &t.Key.Components[idx]
	switch {
	case c.Enc != catalog.KeyText:
		return 0, errors.New("LIKE reads text, and the field is written as a number")
	case c.Desc || c.Reverse:
		return 0, errors.New("the field's bytes are inverted or reversed text")
	case c.Width > 0:
		return 0, errors.New("a LIKE over fixed-width padded text is left to the client")
	case idx == len(t.Key.Components)-1:
		return -1, nil
	}
	next := &t.Key.Components[idx+1]
	if next.Kind != catalog.KindLiteral || len(next.Literal) != 1 || next.Literal[0] >= 0x80 {
		return 0, errors.New("only a field ended by a one-byte ASCII delimiter or by the end of the key is matched by a row filter")
	}
	return int(next.Literal[0]), nil
}

// keyRegex is the regular expression over a whole key (decoded as
// ISO-8859-1) whose component idx matches field: each component before
// it is matched as the layout reads it, and field is followed by what
// ends it.
func keyRegex(t *catalog.Table, idx int, field string) (string, error) {
	var b strings.Builder
	b.WriteString(`\A`)
	comps := t.Key.Components
	for i := range idx {
		re, err := anyComponent(comps, i)
		if err != nil {
			return "", err
		}
		b.WriteString(re)
	}
	b.WriteString(field)
	c := &comps[idx]
	_, fixed := c.FixedWidth()
	switch {
	case fixed || (c.Enc == catalog.KeyText && c.Desc):
		// The field's bytes end themselves.
	case idx == len(comps)-1:
		b.WriteString(`\z`)
	default:
		b.WriteString(quote(comps[idx+1].Literal))
	}
	return b.String(), nil
}

// anyComponent matches component i whatever it holds, ending where the
// layout ends it.
func anyComponent(comps []catalog.Component, i int) (string, error) {
	c := &comps[i]
	if c.Kind == catalog.KindLiteral {
		return quote(c.Literal), nil
	}
	if w, ok := c.FixedWidth(); ok {
		if w <= 0 {
			return "", errors.New("a component before it has no width the layout names")
		}
		return fmt.Sprintf(`[\x00-\xff]{%d}`, w), nil
	}
	if c.Kind == catalog.KindField && c.Enc == catalog.KeyText && c.Desc {
		return `[^\xff]*\xff`, nil
	}
	if i == len(comps)-1 || comps[i+1].Kind != catalog.KindLiteral || len(comps[i+1].Literal) == 0 {
		return "", errors.New("a field before it has no end the layout names")
	}
	d := comps[i+1].Literal
	if len(d) == 1 {
		return fmt.Sprintf(`[^\x%02x]*`, d[0]), nil
	}
	return `(?:(?!` + quote(d) + `)[\x00-\xff])*`, nil
}

package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/infer"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// DefaultInferSample is how many rows INFER TABLE reads without SAMPLE.
const DefaultInferSample = 1000

// inferTable samples the physical table s names, proposes its catalog
// entry, and with SAVE writes the entry to the catalog. It writes nothing
// to the store, so a read-only session may SAVE too.
func (e *Engine) inferTable(ctx context.Context, s *planner.Infer) (*Result, error) {
	if s.Save {
		if err := e.catalogFile("INFER TABLE … SAVE"); err != nil {
			return nil, err
		}
	}
	name := s.As
	e.reading = true
	st, err := e.Store(ctx)
	e.reading = false
	if err != nil {
		return nil, err
	}
	n := s.Sample
	if n == 0 {
		n = DefaultInferSample
	}
	sample, err := sampleTable(ctx, st, s.Table, n)
	if errors.Is(err, exec.ErrTableNotFound) {
		return nil, parser.Errorf(s.TablePos, "the store has no table %q", s.Table)
	}
	if err != nil {
		return nil, err
	}
	look := func(table string, keys [][]byte) ([]infer.Row, error) {
		rows, err := st.Get(ctx, table, keys, exec.ReadOptions{})
		if errors.Is(err, exec.ErrTableNotFound) {
			return nil, nil
		}
		var out []infer.Row
		for _, r := range rows {
			ir := infer.Row{Key: r.Key}
			for _, c := range r.Cells {
				ir.Cells = append(ir.Cells, infer.Cell{Family: c.Family, Qualifier: c.Qualifier, Value: c.Value})
			}
			out = append(out, ir)
		}
		return out, err
	}
	p := infer.Infer(sample, infer.Options{Name: name, Known: e.cfg.Catalog, Lookup: look})
	text := p.Text()
	if !s.Save {
		return &Result{Text: text}, nil
	}
	for _, t := range e.cfg.Catalog.Tables {
		if t.Physical == s.Table {
			return nil, parser.Errorf(s.TablePos, "the catalog already describes HBase table %s as %s: one table per HBase table", s.Table, t.Name)
		}
	}
	if _, dup := e.cfg.Catalog.Table(p.Spec.Name); dup {
		return nil, fmt.Errorf("the catalog already has a table %s: name the entry with AS", p.Spec.Name)
	}
	src, err := catalog.AddTable(e.cfg.CatalogSource, &p.Spec)
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return &Result{Text: text + fmt.Sprintf("# saved to %s as table %s\n", e.cfg.CatalogFile, p.Spec.Name)}, nil
}

// inferPoints is how many points at most between a region's first and
// last keys INFER TABLE reads rows from, beside the region's first rows.
const inferPoints = 64

// sampleTable reads up to n rows of a physical table, spread over its
// regions: in each, an eighth of its share from the region's start, the
// rest from up to 64 points between its first and last keys.
func sampleTable(ctx context.Context, st exec.Store, table string, n int) (infer.Sample, error) {
	s := infer.Sample{Table: table}
	regions, err := st.Regions(ctx, table)
	if err != nil {
		return s, err
	}
	if len(regions) == 0 {
		regions = []exec.Region{{}}
	}
	s.Regions = len(regions)
	per := max(n/len(regions), 2)
	seen := map[string]bool{}
	limit := n
	add := func(rows []*exec.StoreRow) {
		for _, r := range rows {
			if seen[string(r.Key)] || len(s.Rows) >= limit {
				continue
			}
			seen[string(r.Key)] = true
			sr := infer.Row{Key: bytes.Clone(r.Key)}
			for _, c := range r.Cells {
				sr.Cells = append(sr.Cells, infer.Cell{Family: c.Family, Qualifier: c.Qualifier, Value: bytes.Clone(c.Value)})
			}
			s.Rows = append(s.Rows, sr)
		}
	}
	for _, rg := range regions {
		r := exec.Range{Start: rg.StartKey, Stop: rg.EndKey}
		before := len(s.Rows)
		limit = min(n, before+per)
		head := max(per/8, 1)
		first, err := scanRows(ctx, st, table, r, head, false)
		if err != nil {
			return s, err
		}
		add(first)
		if len(first) < head {
			continue // the region holds no more
		}
		last, err := scanRows(ctx, st, table, r, 1, true)
		if err != nil {
			return s, err
		}
		points := min(inferPoints, max(per-head, 1))
		each := max((per-head)/points, 1)
		for i := 1; i <= points && len(last) == 1; i++ {
			from := between(first[len(first)-1].Key, last[0].Key, i, points+1)
			rows, err := scanRows(ctx, st, table, exec.Range{Start: from, Stop: rg.EndKey}, each, false)
			if err != nil {
				return s, err
			}
			add(rows)
		}
		if got := len(s.Rows) - before; got < per {
			// The points met rows already read: fill the share from the
			// region's start.
			more, err := scanRows(ctx, st, table, r, per, false)
			if err != nil {
				return s, err
			}
			add(more)
		}
	}
	return s, nil
}

// scanRows reads up to n rows of r, forwards or from its end.
func scanRows(ctx context.Context, st exec.Store, table string, r exec.Range, n int, reverse bool) ([]*exec.StoreRow, error) {
	opts := exec.ReadOptions{Reverse: reverse}
	if st.Pushdown().Features().Limit {
		opts.Limit = n
	}
	it, err := st.Scan(ctx, table, r, opts)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []*exec.StoreRow
	for len(out) < n {
		row, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

// between is a key i/parts of the way from a to b: their common prefix,
// then the next 8 bytes of each read as one number, each byte a digit in
// the smallest alphabet that holds both keys' bytes there (decimal digits,
// hex, letters, printable text, any byte), so that text keys spread over
// the text between them rather than over bytes no text holds.
func between(a, b []byte, i, parts int) []byte {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	const n = 8
	var alpha [n]string
	var x, y []uint64
	for j := range n {
		ca, cb := at(a, p+j), at(b, p+j)
		alpha[j] = alphabetOf(ca, cb)
		x = append(x, uint64(strings.IndexByte(alpha[j], ca)))
		y = append(y, uint64(strings.IndexByte(alpha[j], cb)))
	}
	num := func(d []uint64) float64 {
		v := 0.0
		for j := range n {
			v = v*float64(len(alpha[j])) + float64(d[j])
		}
		return v
	}
	lo, hi := num(x), num(y)
	if hi <= lo {
		return bytes.Clone(a)
	}
	v := lo + (hi-lo)*float64(i)/float64(parts)
	out := make([]byte, n)
	for j := n - 1; j >= 0; j-- {
		r := float64(len(alpha[j]))
		d := math.Mod(v, r)
		out[j] = alpha[j][int(d)]
		v = math.Floor(v / r)
	}
	return append(bytes.Clone(a[:p]), out...)
}

// at is key[i], or the least byte past its end.
func at(key []byte, i int) byte {
	if i < len(key) {
		return key[i]
	}
	return 0
}

// alphabets from the smallest; the last holds every byte.
var alphabets = func() []string {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	var text []byte
	for c := byte(0x20); c < 0x7f; c++ {
		text = append(text, c)
	}
	return []string{"0123456789", "0123456789abcdef", "abcdefghijklmnopqrstuvwxyz",
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", string(text), string(all)}
}()

func alphabetOf(a, b byte) string {
	for _, s := range alphabets {
		if strings.IndexByte(s, a) >= 0 && strings.IndexByte(s, b) >= 0 {
			return s
		}
	}
	return alphabets[len(alphabets)-1]
}

package infer

import (
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// Infer proposes a catalog entry for the sampled table.
func Infer(s Sample, opt Options) *Proposal {
	tname := opt.Name
	if tname == "" {
		tname = tableName(s.Table)
	}
	var keys [][]byte
	seen := map[string]bool{}
	for _, r := range s.Rows {
		if len(r.Key) > 0 && !seen[string(r.Key)] {
			seen[string(r.Key)] = true
			keys = append(keys, r.Key)
		}
	}
	p := &Proposal{Rows: len(s.Rows), Regions: s.Regions}
	if len(keys) == 0 {
		p.Note = "the sample holds no rows"
		p.raw(tname, s)
		return p
	}
	ps, why := readKey(tname, keys)
	if ps == nil {
		p.Note = why
		p.raw(tname, s)
		return p
	}
	p.Found = true
	p.Spec = keySpec(tname, ps)
	taken := map[string]bool{}
	for _, c := range p.Spec.Columns {
		taken[c.Name] = true
	}
	for _, pc := range ps {
		pc.part.What = what(pc.comp)
		if pc.isField() {
			pc.part.What = pc.typ + " " + pc.part.What
		}
		p.Parts = append(p.Parts, pc.part)
	}
	p.cells(s, cellColumns(s.Rows, taken))
	if s.Table != tname {
		p.Spec.HBase = s.Table
	}
	p.indexLike(s, opt)
	if t, err := load(&p.Spec); err == nil {
		p.Key = t.Key.String()
	} else {
		// A column the cells gave that the loader refuses: say so and
		// fall back to the raw entry rather than propose what cannot load.
		p.Found, p.Note = false, err.Error()
		p.raw(tname, s)
	}
	return p
}

// readKey finds a reading that loads and reads every key back, or says
// why there is none.
func readKey(tname string, keys [][]byte) ([]piece, string) {
	var tries [][]piece
	if hexRun(keys) > 0 {
		if ps, ok := md5Prefix(tname, keys); ok {
			tries = append(tries, ps)
		}
	} else if ps, ok := rawMD5Prefix(tname, keys); ok {
		tries = append(tries, ps)
	}
	ps, ok := segment(keys)
	if ok {
		ps = name(ps)
		tries = append(tries, derivedPrefix(tname, keys, ps), ps)
	}
	why := "no reading of fields, delimiters and numbers covers every sampled key"
	for _, ps := range tries {
		if allRaw(ps) {
			why = "the keys hold no delimiter, text, number or time that every sampled key shares"
			continue
		}
		spec := keySpec(tname, ps)
		t, err := load(&spec)
		if err == nil {
			err = verify(t, keys)
		}
		if err == nil {
			return renumber(ps), ""
		}
		why = err.Error()
	}
	return nil, why
}

// allRaw: the reading is one field of bytes that no encoding reads.
func allRaw(ps []piece) bool {
	return len(ps) == 1 && ps[0].typ == "BYTES" && ps[0].part.Sure == Guess
}

// cells adds the families and the cell columns to the proposal.
func (p *Proposal) cells(s Sample, cols []column) {
	fams := s.Families
	if fams == nil {
		var names []string
		for _, r := range s.Rows {
			for _, c := range r.Cells {
				if !slices.Contains(names, c.Family) {
					names = append(names, c.Family)
				}
			}
		}
		slices.Sort(names)
		for _, n := range names {
			fams = append(fams, catalog.FamilySpec{Name: catalog.ToStringBinary([]byte(n))})
		}
	}
	if len(fams) == 0 {
		fams = []catalog.FamilySpec{{Name: "d"}}
		p.Note = "the sampled rows hold no cells: the family d is a placeholder"
	}
	p.Spec.Families = fams
	for _, c := range cols {
		p.Spec.Columns = append(p.Spec.Columns, c.spec)
		p.Parts = append(p.Parts, c.part)
	}
}

// raw makes the raw entry: the key one BYTES field, every qualifier a
// BYTES column.
func (p *Proposal) raw(tname string, s Sample) {
	p.Spec = catalog.TableSpec{Name: tname, Rowkey: []catalog.ComponentSpec{{Field: "key"}},
		Columns: []catalog.ColumnSpec{{Name: "key", Type: "BYTES"}}}
	if s.Table != tname {
		p.Spec.HBase = s.Table
	}
	p.Parts = []Part{{What: "BYTES {field: key}", Sure: Guess, Evidence: "the whole key, as bytes"}}
	taken := map[string]bool{"key": true}
	cols := cellColumns(s.Rows, taken)
	for i := range cols {
		cols[i].spec.Type, cols[i].spec.Encoding = "BYTES", ""
		cols[i].part = Part{What: fmt.Sprintf("%s BYTES", cols[i].spec.Column), Sure: Guess, Evidence: "kept as bytes"}
	}
	p.Parts = p.Parts[:1]
	p.cells(s, cols)
}

package embedded

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/rkql/rkql/exec"
)

// When a store's b-trees are damaged, as when the file is cut short and
// its root page is gone, most of its leaf pages may still be whole.
// salvage reads them page by page, without the tree above them:
//
//   - It reads the pages below the high-water mark that the tree walk did
//     not reach and the freelist (when it can be read) does not hold.
//   - A leaf page must pass the checks of elements (bounds, key order).
//   - Table metadata comes from the tree when it could be read, else from
//     the copy beside the file (TablesFileName), else from meta bucket
//     pages found so, whose copies must agree, else from the caller's
//     guesses (Options.RepairTables, the catalog's tables).
//   - A leaf belongs to the table whose bucket root it hangs under,
//     through the branch pages found, or else to the one table under
//     whose families every row of it decodes. A leaf that fits none, or
//     several, is counted, not saved.
//   - bbolt keeps old copies of pages until it reuses them, so an old
//     leaf may be found beside its newer copy. Of leaves of one table
//     whose key ranges overlap, a row is saved only when every one of
//     them whose range covers its key holds it with the same value: a
//     row deleted or changed since is in one and not the other, and is
//     lost rather than brought back. A row the tree walk saved is kept
//     as the walk read it.
//
// When the freelist is lost too, an old leaf whose newer copy was on a
// lost page cannot be told from a live one: its rows are saved as they
// were when it was written, which may bring back a row deleted or changed
// since. The report says so (RepairReport.FreelistLost).

// orphanLeaf is a leaf page the tree walk did not reach.
type orphanLeaf struct {
	id          uint64
	first, last []byte
	n           int
	table       *tableScan
}

// salvage saves the rows of the intact leaf pages the tree walk did not
// reach, through opts.salvage, and counts what it could not place.
func salvage(w *walk, res *storeScan, table func(string) *tableScan, roots map[uint64]string, opts scanOptions) {
	free := map[uint64]bool{}
	ids, err := w.pf.freelist()
	for _, id := range ids {
		free[id] = true
	}
	res.salvaged, res.freelistLost = true, err != nil
	limit := min(w.pf.meta.pgid, uint64(w.pf.size)/uint64(w.pf.pageSize))
	parent := map[uint64]uint64{}
	metas := map[string][][]byte{}
	var leaves []*orphanLeaf
	var buf []byte
	var els []element
	for id := uint64(2); id < limit; id++ {
		if w.seen.has(id) || free[id] {
			continue
		}
		p, err := w.pf.page(id, buf)
		if err != nil {
			continue
		}
		buf = p
		if els, err = elements(p, id, els); err != nil {
			continue
		}
		if ne.Uint16(p[8:]) == flagBranch {
			for _, e := range els {
				parent[e.child] = id
			}
			id += pageSpan(p) - 1
			continue
		}
		switch kind := leafKind(els); kind {
		case "buckets":
			for i := range els {
				ref, err := bucketOf(&els[i])
				switch {
				case err != nil:
				case ref.root != 0:
					addRoot(roots, ref.root, ref.name)
				case ref.name == metaBucket:
					addInlineMeta(metas, ref.inline)
				}
			}
		case "meta":
			for _, e := range els {
				if e.flags&leafBucket == 0 && string(e.key) != formatKey {
					metas[string(e.key)] = append(metas[string(e.key)], bytes.Clone(e.value))
				}
			}
		default:
			leaves = append(leaves, &orphanLeaf{id: id, first: bytes.Clone(els[0].key), last: bytes.Clone(els[len(els)-1].key), n: len(els)})
		}
		id += pageSpan(p) - 1
	}
	if opts.tables != nil {
		// The copy beside the file is newer than any page found.
		metas = map[string][][]byte{}
		for name, m := range opts.tables {
			metas[name] = [][]byte{m}
		}
	}
	salvageMeta(res, table, metas)
	guessMeta(res, table, metas, opts.guesses)
	unplaced := map[string]int64{} // by the tables that fit, or ""
	for _, l := range leaves {
		var fits []string
		if l.table, fits = owner(w, res, l, parent, roots, table); l.table == nil {
			res.unattributed += int64(l.n)
			unplaced[strings.Join(fits, ", ")] += int64(l.n)
		}
	}
	for _, fits := range slices.Sorted(maps.Keys(unplaced)) {
		if fits == "" {
			w.problem("%d rows on intact pages fit no table whose metadata is known: not saved", unplaced[fits])
		} else {
			w.problem("%d rows on intact pages fit tables %s alike: not saved", unplaced[fits], fits)
		}
	}
	saveLeaves(w, leaves, opts)
}

// leafKind tells a leaf of the root bucket (entries that are buckets) and
// one of the meta bucket (the format key, or table metadata) from one of
// rows.
func leafKind(els []element) string {
	if len(els) == 0 {
		return "empty"
	}
	for _, e := range els {
		if e.flags&leafBucket != 0 {
			return "buckets"
		}
		if string(e.key) == formatKey {
			return "meta"
		}
	}
	var m tableMeta
	if json.Unmarshal(els[0].value, &m) == nil && m.Spec.Name == string(els[0].key) {
		return "meta"
	}
	return "rows"
}

// addInlineMeta adds the table metadata of an inline meta bucket.
func addInlineMeta(metas map[string][][]byte, inline []byte) {
	els, err := elements(inline, 0, nil)
	if err != nil || ne.Uint16(inline[8:]) != flagLeaf {
		return
	}
	for _, e := range els {
		if e.flags&leafBucket == 0 && string(e.key) != formatKey {
			metas[string(e.key)] = append(metas[string(e.key)], bytes.Clone(e.value))
		}
	}
}

// addRoot records that page root is the root of bucket name; a page two
// names claim is neither's.
func addRoot(roots map[uint64]string, root uint64, name string) {
	if have, ok := roots[root]; ok && have != name {
		roots[root] = ""
		return
	}
	roots[root] = name
}

// salvageMeta gives a table without metadata the metadata found on meta
// pages the walk did not reach, when every copy of it agrees.
func salvageMeta(res *storeScan, table func(string) *tableScan, metas map[string][][]byte) {
	names := make([]string, 0, len(metas))
	for name := range metas {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		copies := metas[name]
		agree := true
		for _, c := range copies[1:] {
			agree = agree && bytes.Equal(c, copies[0])
		}
		var m tableMeta
		if !agree || json.Unmarshal(copies[0], &m) != nil || m.Spec.Name != name {
			continue
		}
		ts := table(name)
		if ts.t == nil {
			ts.meta = copies[0]
			ts.t = newTable(m, ts.meta)
		}
	}
}

// guessMeta gives the tables of guesses that no metadata names the
// metadata CreateTable would write for them.
func guessMeta(res *storeScan, table func(string) *tableScan, metas map[string][][]byte, guesses []exec.TableSpec) {
	for _, spec := range guesses {
		if metas[spec.Name] != nil || validateSpec(spec) != nil {
			continue
		}
		ts := table(spec.Name)
		if ts.t != nil {
			continue
		}
		m := tableMeta{Spec: cloneSpec(spec)}
		enc, err := json.Marshal(m)
		if err != nil {
			continue
		}
		ts.meta, ts.t, ts.guessed = enc, newTable(m, enc), true
	}
}

// owner finds the table of an orphan leaf: the bucket whose root it
// hangs under, else the one table its rows all decode in. When it finds
// none, fits names the tables the rows decode in, if several do.
func owner(w *walk, res *storeScan, l *orphanLeaf, parent map[uint64]uint64, roots map[uint64]string, table func(string) *tableScan) (ts *tableScan, fits []string) {
	id := l.id
	for range maxTreeDepth {
		if name, ok := roots[id]; ok {
			if name == "" || name == metaBucket {
				return nil, nil
			}
			if ts := table(name); ts.t != nil {
				return ts, nil
			}
			return nil, nil
		}
		up, ok := parent[id]
		if !ok {
			break
		}
		id = up
	}
	p, err := w.pf.page(l.id, nil)
	if err != nil {
		return nil, nil
	}
	els, err := elements(p, l.id, nil)
	if err != nil {
		return nil, nil
	}
	var found []*tableScan
	for _, ts := range res.tables {
		if ts.t != nil && decodesAll(ts, els) {
			found = append(found, ts)
			fits = append(fits, ts.name)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return nil, fits
}

// saveLeaves saves the rows of the placed orphan leaves: a leaf alone in
// its key range whole, leaves whose ranges overlap row by row where they
// agree.
func saveLeaves(w *walk, leaves []*orphanLeaf, opts scanOptions) {
	byTable := map[*tableScan][]*orphanLeaf{}
	var order []*tableScan
	for _, l := range leaves {
		if l.table == nil {
			continue
		}
		if byTable[l.table] == nil {
			order = append(order, l.table)
		}
		byTable[l.table] = append(byTable[l.table], l)
	}
	for _, ts := range order {
		ls := byTable[ts]
		slices.SortFunc(ls, func(a, b *orphanLeaf) int { return bytes.Compare(a.first, b.first) })
		for len(ls) > 0 {
			n, last := 1, ls[0].last
			for n < len(ls) && bytes.Compare(ls[n].first, last) <= 0 {
				if bytes.Compare(ls[n].last, last) > 0 {
					last = ls[n].last
				}
				n++
			}
			saveGroup(w, ts, ls[:n], opts)
			ls = ls[n:]
		}
	}
}

// saveGroup saves the rows of leaves whose key ranges overlap: a row is
// saved when every leaf whose range covers its key holds it, with the
// same value.
func saveGroup(w *walk, ts *tableScan, group []*orphanLeaf, opts scanOptions) {
	type version struct {
		leaf  int
		value []byte
	}
	rows := map[string][]version{}
	for i, l := range group {
		p, err := w.pf.page(l.id, nil)
		if err != nil {
			continue
		}
		els, err := elements(p, l.id, nil)
		if err != nil {
			continue
		}
		for _, e := range els {
			rows[string(e.key)] = append(rows[string(e.key)], version{leaf: i, value: e.value})
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		vs := rows[k]
		covering := 0
		for _, l := range group {
			if bytes.Compare(l.first, []byte(k)) <= 0 && bytes.Compare([]byte(k), l.last) <= 0 {
				covering++
			}
		}
		agree := len(vs) == covering
		for _, v := range vs[1:] {
			agree = agree && bytes.Equal(v.value, vs[0].value)
		}
		switch {
		case !agree:
			ts.conflicts++
		case !validRow(ts, vs[0].value):
			ts.bad++
		default:
			if opts.salvage(ts, []byte(k), vs[0].value) {
				ts.salvaged++
			}
		}
	}
}

// decodesAll reports whether every entry of els decodes as a row of ts.
func decodesAll(ts *tableScan, els []element) bool {
	for _, e := range els {
		if !validRow(ts, e.value) {
			return false
		}
	}
	return true
}

// validRow reports whether v decodes as a row of ts.
func validRow(ts *tableScan, v []byte) bool {
	_, ok := decodeRow(ts.t, v, nil)
	return ok
}

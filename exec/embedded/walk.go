package embedded

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// maxTreeDepth bounds the b-tree depth the walk follows; bbolt's trees
// are a handful of levels deep, so a deeper one is damaged.
const maxTreeDepth = 64

// maxProblems is how many problems a walk keeps; the rest are counted.
const maxProblems = 100

// walk is one pass over the b-trees of a store file, page by page. It
// reports each damaged page once and skips it, so that everything else
// can still be read.
type walk struct {
	pf *pageFile
	// seen holds every page reached so far, overflow pages included; a
	// page reached twice is damage (and would be a cycle).
	seen     bitset
	problems []string
	dropped  int // problems beyond maxProblems
	// bufs and els are the page buffer and entries of each tree level,
	// reused from page to page.
	bufs [][]byte
	els  [][]element
}

func newWalk(pf *pageFile) *walk {
	w := &walk{pf: pf, seen: make(bitset, pf.meta.pgid/64+1)}
	w.seen.set(0)
	w.seen.set(1)
	return w
}

// bitset is a set of page ids below the high-water mark.
type bitset []uint64

func (b bitset) set(id uint64)      { b[id/64] |= 1 << (id % 64) }
func (b bitset) has(id uint64) bool { return b[id/64]&(1<<(id%64)) != 0 }

func (w *walk) problem(format string, args ...any) {
	if len(w.problems) >= maxProblems {
		w.dropped++
		return
	}
	w.problems = append(w.problems, oneLine(fmt.Sprintf(format, args...)))
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ")
}

// bucketRef is a bucket found in a leaf: its root page, or its inline
// page when root is 0.
type bucketRef struct {
	name   string
	root   uint64
	inline []byte
}

// treeLoss is what a walk of one b-tree could not read.
type treeLoss struct {
	pages int   // pages that could not be read, with what hangs below them
	rows  int64 // rows on damaged leaf pages whose header could be read
}

// element is one entry of a branch or leaf page.
type element struct {
	flags uint32 // leaf only
	key   []byte
	value []byte // leaf only
	child uint64 // branch only
}

// elements checks page p (id 0 for an inline page) and returns its
// entries, in els grown as needed.
func elements(p []byte, id uint64, els []element) ([]element, error) {
	if len(p) < pageHeaderSize {
		return nil, damagef("page %d: cut short", id)
	}
	flags, n := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if flags != flagBranch && flags != flagLeaf {
		return nil, damagef("page %d: not a branch or leaf page (type %#x)", id, flags)
	}
	if flags == flagBranch && n == 0 {
		return nil, damagef("page %d: empty branch page", id)
	}
	if pageHeaderSize+n*elementSize > len(p) {
		return nil, damagef("page %d: %d entries do not fit the page", id, n)
	}
	els = slices.Grow(els[:0], n)[:n]
	for i := range els {
		off := uint64(pageHeaderSize + i*elementSize)
		e := p[off:]
		var pos, ksize, vsize uint64
		if flags == flagLeaf {
			els[i].flags = ne.Uint32(e)
			pos, ksize, vsize = uint64(ne.Uint32(e[4:])), uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
		} else {
			pos, ksize = uint64(ne.Uint32(e)), uint64(ne.Uint32(e[4:]))
			els[i].child = ne.Uint64(e[8:])
		}
		start := off + pos
		if pos < uint64(elementSize) || start+ksize+vsize > uint64(len(p)) {
			return nil, damagef("page %d: entry %d lies outside the page", id, i)
		}
		els[i].key = p[start : start+ksize]
		if flags == flagLeaf {
			els[i].value = p[start+ksize : start+ksize+vsize]
		}
		if i > 0 && bytes.Compare(els[i-1].key, els[i].key) >= 0 {
			return nil, damagef("page %d: keys out of order at entry %d", id, i)
		}
	}
	return els, nil
}

// tree visits each leaf entry of bucket b in page order. Keys and values
// alias the page and are valid during the call only.
func (w *walk) tree(b bucketRef, fn func(e *element)) treeLoss {
	var loss treeLoss
	var last []byte
	visit := func(e *element, page uint64) {
		if last != nil && bytes.Compare(last, e.key) >= 0 {
			w.problem("%s: page %d: key order broken", b.name, page)
		}
		last = append(last[:0], e.key...)
		fn(e)
	}
	if b.root == 0 {
		els, err := elements(b.inline, 0, nil)
		if err == nil && len(b.inline) >= pageHeaderSize && ne.Uint16(b.inline[8:]) != flagLeaf {
			err = damagef("inline page is not a leaf")
		}
		if err != nil {
			w.problem("%s: %v", b.name, err)
			loss.pages++
			return loss
		}
		for i := range els {
			visit(&els[i], 0)
		}
		return loss
	}
	w.descend(b.name, b.root, 0, &loss, visit)
	return loss
}

func (w *walk) descend(name string, id uint64, depth int, loss *treeLoss, visit func(*element, uint64)) {
	if depth > maxTreeDepth {
		w.problem("%s: page %d: tree deeper than %d levels", name, id, maxTreeDepth)
		loss.pages++
		return
	}
	if id < w.pf.meta.pgid && w.seen.has(id) {
		w.problem("%s: page %d: reached twice", name, id)
		loss.pages++
		return
	}
	for len(w.bufs) <= depth {
		w.bufs, w.els = append(w.bufs, nil), append(w.els, nil)
	}
	p, err := w.pf.page(id, w.bufs[depth])
	if err != nil {
		w.problem("%s: %v", name, err)
		loss.pages++
		return
	}
	w.bufs[depth] = p
	for i := range pageSpan(p) {
		w.seen.set(id + i)
	}
	els, err := elements(p, id, w.els[depth])
	w.els[depth] = els
	if err != nil {
		w.problem("%s: %v", name, err)
		loss.pages++
		if ne.Uint16(p[8:]) == flagLeaf {
			loss.rows += int64(ne.Uint16(p[10:]))
		}
		return
	}
	for i := range els {
		if ne.Uint16(p[8:]) == flagLeaf {
			visit(&els[i], id)
			continue
		}
		w.descend(name, els[i].child, depth+1, loss, visit)
	}
}

// buckets returns the top-level buckets, in key order, and what of the
// root bucket could not be read.
func (w *walk) buckets() ([]bucketRef, treeLoss) {
	var refs []bucketRef
	loss := w.tree(bucketRef{name: "root bucket", root: w.pf.meta.root}, func(e *element) {
		ref, err := bucketOf(e)
		if err != nil {
			w.problem("root bucket: %v", err)
			return
		}
		refs = append(refs, ref)
	})
	return refs, loss
}

// bucketOf reads the bucket a leaf entry holds.
func bucketOf(e *element) (bucketRef, error) {
	name := string(e.key)
	if e.flags&leafBucket == 0 {
		return bucketRef{}, damagef("entry %q is not a bucket", name)
	}
	if len(e.value) < bucketHeader {
		return bucketRef{}, damagef("bucket %q: header cut short", name)
	}
	ref := bucketRef{name: name, root: ne.Uint64(e.value)}
	if ref.root == 0 {
		// The page buffer is reused; the inline page must outlive it.
		ref.inline = bytes.Clone(e.value[bucketHeader:])
	}
	return ref, nil
}

// finish checks the freelist and that every page below the high-water mark
// is either in use or free.
func (w *walk) finish() {
	ids, err := w.pf.freelist()
	if err != nil {
		w.problem("freelist: %v", err)
		return
	}
	if id := w.pf.meta.freelist; id != noFreelist {
		for i := range uint64(ne.Uint32(w.headerOf(id)[12:])) + 1 {
			w.seen.set(id + i)
		}
	}
	free := make(map[uint64]bool, len(ids))
	for _, id := range ids {
		switch {
		case id < 2 || id >= w.pf.meta.pgid:
			w.problem("freelist: page %d is out of bounds", id)
		case free[id]:
			w.problem("freelist: page %d is free twice", id)
		case w.seen.has(id):
			w.problem("freelist: page %d is free but in use", id)
		}
		free[id] = true
	}
	var lost []uint64
	for id := uint64(2); id < w.pf.meta.pgid; id++ {
		if !w.seen.has(id) && !free[id] {
			lost = append(lost, id)
		}
	}
	if len(lost) > 0 {
		sort.Slice(lost, func(i, j int) bool { return lost[i] < lost[j] })
		shown := lost[:min(len(lost), 8)]
		more := ""
		if len(lost) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(lost)-len(shown))
		}
		w.problem("%d pages are neither in use nor free: %v%s", len(lost), shown, more)
	}
}

// headerOf returns the first page of id; the freelist was read already.
func (w *walk) headerOf(id uint64) []byte {
	p, err := w.pf.page(id, nil)
	if err != nil {
		return make([]byte, pageHeaderSize)
	}
	return p
}

// report returns the problems, with a last line counting those left out.
func (w *walk) report() []string {
	if w.dropped == 0 {
		return w.problems
	}
	return append(w.problems, fmt.Sprintf("and %d more problems", w.dropped))
}

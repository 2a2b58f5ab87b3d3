package embedded

import (
	"bytes"
	"errors"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// leafScan walks a bucket's b-tree straight from the pages of the store
// file, as bbolt's cursor does but without its per-key bookkeeping: for
// reads that visit every key of a range and keep none (a keys-only
// count). data is the file as of a read transaction, so that every page
// reachable from the bucket's root in that transaction is in it and does
// not change while the transaction is open. Every offset is checked
// against the page it is in: a damaged page is an error, never a fault.
type leafScan struct {
	data     []byte
	pageSize int
	pgid     uint64 // the transaction's high-water mark: pages [0, pgid)
	// stop ends the scan: keys at or after it are not visited (nil:
	// the end of the bucket).
	stop []byte
	to   leafVisitor
	// visits counts the pages read: a tree has fewer pages than the
	// file, so more visits mean a damaged page points back into the tree.
	visits uint64
}

// leafVisitor takes the entries a leafScan visits, a leaf page at a time:
// entries i to j-1 of page p, all in the scan's range. It reads them with
// leafEntry. A page at a time, so that the per-key work is one loop in
// the visitor rather than a call per key.
type leafVisitor interface {
	entries(p []byte, i, j int) error
}

// leafScan returns a leafScan of the pages of tx, ending before stop, or
// false where the store file cannot be mapped.
func (s *Store) leafScan(tx *bolt.Tx, stop []byte) (leafScan, bool) {
	data := s.mapped(tx.Size())
	if data == nil {
		return leafScan{}, false
	}
	ps := s.db.Info().PageSize
	return leafScan{data: data, pageSize: ps, pgid: uint64(tx.Size()) / uint64(ps), stop: stop}, true
}

// errStopScan is returned by a leafVisitor to end the scan early
// without an error.
var errStopScan = errors.New("scan stopped")

// errPageDamaged reports a page the scan cannot read.
var errPageDamaged = errors.New("damaged page")

// scan visits, in key order, the leaf elements of the tree rooted at page
// root whose keys are at or after start (nil: the first) and before
// ls.stop.
func (ls *leafScan) scan(root uint64, start []byte) error {
	err := ls.visit(root, start, 0)
	if errors.Is(err, errStopScan) {
		return nil
	}
	return err
}

// page returns page id with its overflow pages, after checking that it
// lies below the high-water mark and inside data, and calls itself id.
func (ls *leafScan) page(id uint64) ([]byte, error) {
	ps := uint64(ls.pageSize)
	if id < 2 || id >= ls.pgid || (id+1)*ps > uint64(len(ls.data)) {
		return nil, errPageDamaged
	}
	off := id * ps
	p := ls.data[off : off+ps]
	if ne.Uint64(p) != id {
		return nil, errPageDamaged
	}
	over := uint64(ne.Uint32(p[12:]))
	if over == 0 {
		return p, nil
	}
	if id+over >= ls.pgid || off+(over+1)*ps > uint64(len(ls.data)) {
		return nil, errPageDamaged
	}
	return ls.data[off : off+(over+1)*ps], nil
}

// branchKey returns the key of branch element i of page p and the page it
// points to.
func branchKey(p []byte, i int) ([]byte, uint64, bool) {
	e := pageHeaderSize + i*elementSize
	pos, n := int(ne.Uint32(p[e:])), int(ne.Uint32(p[e+4:]))
	k := e + pos
	if k < e || n < 0 || k+n > len(p) || k+n < k {
		return nil, 0, false
	}
	return p[k : k+n : k+n], ne.Uint64(p[e+8:]), true
}

// leafEntry returns the key and value of leaf element i of page p; a
// nested bucket's value is nil, as a cursor gives it.
func leafEntry(p []byte, i int) (k, v []byte, ok bool) {
	e := pageHeaderSize + i*elementSize
	el := (*[elementSize]byte)(p[e : e+elementSize])
	pos, kn, vn := uint64(ne.Uint32(el[4:8])), uint64(ne.Uint32(el[8:12])), uint64(ne.Uint32(el[12:16]))
	// The sums cannot overflow: each term is below 2^32.
	ks := uint64(e) + pos
	ve := ks + kn + vn
	if ve > uint64(len(p)) {
		return nil, nil, false
	}
	if ne.Uint32(el[0:4])&leafBucket != 0 {
		return p[ks : ks+kn : ks+kn], nil, true
	}
	return p[ks : ks+kn : ks+kn], p[ks+kn : ve : ve], true
}

func (ls *leafScan) visit(id uint64, start []byte, depth int) error {
	if ls.visits++; depth > maxTreeDepth || ls.visits > ls.pgid {
		return errPageDamaged
	}
	p, err := ls.page(id)
	if err != nil {
		return err
	}
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > len(p) {
		return errPageDamaged
	}
	switch flags {
	case flagBranch:
		return ls.branch(p, count, start, depth)
	case flagLeaf:
		return ls.leaf(p, count, start)
	}
	return errPageDamaged
}

func (ls *leafScan) branch(p []byte, count int, start []byte, depth int) error {
	i, err := branchStart(p, count, start)
	if err != nil {
		return err
	}
	for first := i; i < count; i++ {
		k, child, ok := branchKey(p, i)
		if !ok {
			return errPageDamaged
		}
		if i > first && ls.stop != nil && bytes.Compare(k, ls.stop) >= 0 {
			return errStopScan // this child and the ones after it start at or after stop
		}
		if err := ls.visit(child, start, depth+1); err != nil {
			return err
		}
		start = nil // the children after the first start after it
	}
	return nil
}

// branchStart returns the child of branch page p that holds start: the
// last whose first key is at or before it, or the first child.
func branchStart(p []byte, count int, start []byte) (int, error) {
	if start == nil {
		return 0, nil
	}
	bad := false
	i := sort.Search(count, func(j int) bool {
		k, _, ok := branchKey(p, j)
		bad = bad || !ok
		return !ok || bytes.Compare(k, start) > 0
	}) - 1
	if bad {
		return 0, errPageDamaged
	}
	return max(i, 0), nil
}

func (ls *leafScan) leaf(p []byte, count int, start []byte) error {
	i, j, bad := 0, count, false
	search := func(bound []byte) int {
		return sort.Search(count, func(e int) bool {
			k, _, ok := leafEntry(p, e)
			bad = bad || !ok
			return !ok || bytes.Compare(k, bound) >= 0
		})
	}
	if start != nil {
		i = search(start)
	}
	if ls.stop != nil && count > 0 {
		// Most pages end before stop: one compare instead of a search.
		if last, _, ok := leafEntry(p, count-1); !ok || bytes.Compare(last, ls.stop) >= 0 {
			j = search(ls.stop)
		}
	}
	if bad {
		return errPageDamaged
	}
	if i < j {
		if err := ls.to.entries(p, i, j); err != nil {
			return err
		}
	}
	if j < count {
		return errStopScan
	}
	return nil
}

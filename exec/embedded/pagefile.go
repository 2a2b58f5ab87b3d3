package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// The bbolt file format (version 2), as far as the store check needs it.
// Every page starts with a 16-byte header: id uint64, flags uint16, count
// uint16, overflow uint32; a page with overflow n spans n+1 pages. Numbers
// are in the machine's byte order.
const (
	pageHeaderSize = 16
	elementSize    = 16 // a branch or a leaf element
	bucketHeader   = 16 // root uint64, sequence uint64

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10
	leafBucket   = 0x01 // a leaf element that holds a bucket

	boltMagic   = 0xED0CDAED
	boltVersion = 2
	noFreelist  = ^uint64(0)

	minPageSize = 1024
	maxPageSize = 1 << 24
)

var ne = binary.NativeEndian

// metaPage is the part of a bbolt meta page the check uses.
type metaPage struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64 // noFreelist when the freelist is not stored
	pgid     uint64 // the high-water mark: pages [0, pgid) are in use
	txid     uint64
}

// decodeMeta reads the meta page in b, which starts with a page header.
// The checksum is FNV-64a over the meta fields before it.
func decodeMeta(b []byte) (metaPage, error) {
	if len(b) < pageHeaderSize+64 {
		return metaPage{}, errors.New("meta page is cut short")
	}
	m := b[pageHeaderSize:]
	if ne.Uint32(m[0:]) != boltMagic {
		return metaPage{}, errors.New("meta page has no bbolt marker")
	}
	if v := ne.Uint32(m[4:]); v != boltVersion {
		return metaPage{}, fmt.Errorf("meta page has format version %d, want %d", v, boltVersion)
	}
	h := fnv.New64a()
	_, _ = h.Write(m[:56])
	if h.Sum64() != ne.Uint64(m[56:]) {
		return metaPage{}, errors.New("meta page fails its checksum")
	}
	mp := metaPage{
		pageSize: ne.Uint32(m[8:]),
		root:     ne.Uint64(m[16:]),
		freelist: ne.Uint64(m[32:]),
		pgid:     ne.Uint64(m[40:]),
		txid:     ne.Uint64(m[48:]),
	}
	if mp.pageSize < minPageSize || mp.pageSize > maxPageSize || mp.pageSize&(mp.pageSize-1) != 0 {
		return metaPage{}, fmt.Errorf("meta page gives page size %d", mp.pageSize)
	}
	return mp, nil
}

// pageFile reads a bbolt file with ReadAt, never through a memory map,
// so that damage shows as errors and never as faults.
type pageFile struct {
	f        *os.File
	size     int64
	pageSize int
	meta     metaPage
	// metas counts the valid meta pages: bbolt keeps two, and reads the
	// store from the other when one is torn.
	metas, validMetas int
}

// damage is a problem found in the file; the message is one line.
type damage struct{ msg string }

func (d *damage) Error() string { return d.msg }

func damagef(format string, args ...any) error {
	return &damage{msg: fmt.Sprintf(format, args...)}
}

// openPageFile reads the meta pages of the bbolt file f and checks that
// the file is as long as its pages need. It returns a *damage error when
// it is not; the *pageFile is then nil if not even a meta page could be
// read, and otherwise still good for reading what is there.
func openPageFile(f *os.File) (*pageFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf := &pageFile{f: f, size: st.Size()}
	if pf.size == 0 {
		return nil, damagef("file is empty")
	}
	m, err := pf.readMetas()
	if err != nil {
		return nil, err
	}
	pf.meta, pf.pageSize = m, int(m.pageSize)
	pf.metas = pf.validMetas
	if m.pgid < 3 || m.pgid > 1<<62/uint64(m.pageSize) {
		return nil, damagef("meta page gives %d pages", m.pgid)
	}
	if need := m.pgid * uint64(m.pageSize); uint64(pf.size) < need {
		return pf, damagef("file is %d bytes, its pages need %d", pf.size, need)
	}
	if m.root < 2 || m.root >= m.pgid {
		return pf, damagef("root page %d lies outside pages 2 to %d", m.root, m.pgid-1)
	}
	if m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid) {
		return pf, damagef("freelist page %d lies outside pages 2 to %d", m.freelist, m.pgid-1)
	}
	return pf, nil
}

// readMetas returns the valid meta page with the highest transaction id.
// bbolt keeps two, so that one torn write loses nothing.
func (pf *pageFile) readMetas() (metaPage, error) {
	buf := make([]byte, 4096)
	var metas []metaPage
	var firstErr error
	try := func(off int64) {
		n, err := pf.f.ReadAt(buf, off)
		if err != nil && !errors.Is(err, io.EOF) {
			firstErr = cmpErr(firstErr, err)
			return
		}
		m, err := decodeMeta(buf[:n])
		if err != nil {
			firstErr = cmpErr(firstErr, err)
			return
		}
		metas = append(metas, m)
	}
	try(0)
	if len(metas) == 1 {
		try(int64(metas[0].pageSize))
	} else {
		// The first meta page is unreadable: look for the second at
		// every page size bbolt allows.
		for off := int64(minPageSize); off < pf.size && off <= maxPageSize; off *= 2 {
			if try(off); len(metas) > 0 {
				break
			}
		}
	}
	if len(metas) == 0 {
		return metaPage{}, damagef("no valid meta page: %v", firstErr)
	}
	pf.validMetas = len(metas)
	best := metas[0]
	for _, m := range metas[1:] {
		if m.txid > best.txid && m.pageSize == best.pageSize {
			best = m
		}
	}
	return best, nil
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// page reads page id and its overflow pages into buf, which it grows as
// needed. It checks that the page lies below the high-water mark and
// calls itself id.
func (pf *pageFile) page(id uint64, buf []byte) ([]byte, error) {
	if id < 2 || id >= pf.meta.pgid {
		return nil, damagef("page %d: out of bounds (high-water mark %d)", id, pf.meta.pgid)
	}
	ps := int64(pf.pageSize)
	head := grow(buf, int(ps))
	if _, err := pf.f.ReadAt(head, int64(id)*ps); err != nil {
		return nil, damagef("page %d: cannot be read: %v", id, err)
	}
	if got := ne.Uint64(head); got != id {
		return nil, damagef("page %d: header says page %d", id, got)
	}
	over := uint64(ne.Uint32(head[12:]))
	if over == 0 {
		return head, nil
	}
	if over >= pf.meta.pgid-id {
		return nil, damagef("page %d: %d overflow pages run past the high-water mark %d", id, over, pf.meta.pgid)
	}
	b := grow(head, int(int64(over+1)*ps))
	if _, err := pf.f.ReadAt(b[ps:], int64(id)*ps+ps); err != nil {
		return nil, damagef("page %d: cannot be read: %v", id, err)
	}
	return b, nil
}

// grow returns buf resized to n bytes, keeping its contents.
func grow(buf []byte, n int) []byte {
	if cap(buf) >= n {
		return buf[:n]
	}
	return append(buf[:cap(buf)], make([]byte, n-cap(buf))...)[:n]
}

// freelist reads the free page ids.
func (pf *pageFile) freelist() ([]uint64, error) {
	id := pf.meta.freelist
	if id == noFreelist {
		return nil, nil
	}
	p, err := pf.page(id, nil)
	if err != nil {
		return nil, err
	}
	if flags := ne.Uint16(p[8:]); flags != flagFreelist {
		return nil, damagef("page %d: freelist page has type %#x", id, flags)
	}
	n, off := uint64(ne.Uint16(p[10:])), uint64(pageHeaderSize)
	if n == 0xFFFF {
		n, off = ne.Uint64(p[pageHeaderSize:]), off+8
	}
	if n > (uint64(len(p))-off)/8 {
		return nil, damagef("page %d: freelist of %d ids does not fit its page", id, n)
	}
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = ne.Uint64(p[off+uint64(i)*8:])
	}
	return ids, nil
}

// pageSpan is how many pages p occupies.
func pageSpan(p []byte) uint64 { return uint64(ne.Uint32(p[12:])) + 1 }

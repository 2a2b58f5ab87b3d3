package embedded

import (
	"bytes"
	"context"
	"math/big"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

var _ exec.Parter = (*Store)(nil)

// Parts cuts r at the table's regions (its catalog split points) when r
// meets two or more of them, so that a parallel read runs as it would on
// HBase. Otherwise it cuts r into n slices of about equal width of key
// bytes between the first and the last key r holds, found with one
// cursor: parts of no particular size, but parts, so that one file is
// read by the same parallel code as a cluster.
func (s *Store) Parts(ctx context.Context, name string, r exec.Range, n int) ([]exec.Part, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	t, err := s.table(name)
	if err != nil {
		return nil, "", err
	}
	if parts := exec.RegionParts(t.regionList(), r); len(parts) > 1 || n < 2 || t.absent {
		return parts, "REGIONS", nil
	}
	var first, last []byte
	err = s.view(func(tx *bolt.Tx) error {
		b, err := t.bucket(tx)
		if err != nil {
			return err
		}
		c := b.Cursor()
		k, _ := c.First()
		if len(r.Start) > 0 {
			k, _ = c.Seek(r.Start)
		}
		if k == nil || len(r.Stop) > 0 && bytes.Compare(k, r.Stop) >= 0 {
			return nil
		}
		first = bytes.Clone(k)
		if len(r.Stop) > 0 {
			if k, _ = c.Seek(r.Stop); k == nil {
				k, _ = c.Last()
			} else {
				k, _ = c.Prev()
			}
		} else {
			k, _ = c.Last()
		}
		last = bytes.Clone(k)
		return nil
	})
	if err != nil {
		return nil, "", wrapDB(err)
	}
	whole := []exec.Part{{Range: r, Server: "embedded"}}
	if first == nil || last == nil || bytes.Compare(first, last) >= 0 {
		return whole, "SLICES", nil
	}
	cuts := sliceCuts(first, last, n)
	out := make([]exec.Part, 0, len(cuts)+1)
	start := r.Start
	for _, c := range cuts {
		if bytes.Compare(c, first) <= 0 || bytes.Compare(c, last) > 0 || (len(start) > 0 && bytes.Compare(c, start) <= 0) {
			continue
		}
		out = append(out, exec.Part{Range: exec.Range{Start: start, Stop: c}, Server: "embedded"})
		start = c
	}
	out = append(out, exec.Part{Range: exec.Range{Start: start, Stop: r.Stop}, Server: "embedded"})
	return out, "SLICES", nil
}

// sliceCuts returns n-1 keys between a and b (a < b), evenly apart in
// the first 8 bytes after their common prefix, in increasing order.
func sliceCuts(a, b []byte, n int) [][]byte {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	const width = 8
	num := func(k []byte) *big.Int {
		buf := make([]byte, width)
		copy(buf, k[p:])
		return new(big.Int).SetBytes(buf)
	}
	lo, hi := num(a), num(b)
	span := new(big.Int).Sub(hi, lo)
	var out [][]byte
	for i := 1; i < n; i++ {
		v := new(big.Int).Mul(span, big.NewInt(int64(i)))
		v.Div(v, big.NewInt(int64(n)))
		v.Add(v, lo)
		buf := make([]byte, width)
		v.FillBytes(buf)
		cut := append(bytes.Clone(a[:p]), bytes.TrimRight(buf, "\x00")...)
		if len(out) > 0 && bytes.Compare(cut, out[len(out)-1]) <= 0 {
			continue
		}
		out = append(out, cut)
	}
	return out
}

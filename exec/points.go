package exec

import (
	"context"
	"io"
	"slices"

	"github.com/rkql/rkql/exec/placed"
)

// pointBatch is the most keys one Store.Get of a point lookup asks for:
// the rows of a long list of points stream a batch at a time, so that
// only one batch of them is held.
const pointBatch = 4096

// pointIter reads a point lookup's rows a batch of keys at a time, in
// key order (from the last key for a reverse read).
type pointIter struct {
	x     *Executor
	acc   *placed.Scan
	stats *Stats
	dec   *decoder
	keys  [][]byte // the keys not yet read
	rows  []*Row   // the batch being handed out
}

func (x *Executor) pointRows(ctx context.Context, acc *placed.Scan, stats *Stats) *pointIter {
	return &pointIter{x: x, acc: acc, stats: stats, dec: x.decoder(ctx, acc.Table, acc.Columns), keys: pointKeys(acc)}
}

func (p *pointIter) next(ctx context.Context) (*Row, error) {
	for len(p.rows) == 0 {
		if len(p.keys) == 0 {
			return nil, io.EOF
		}
		n := min(pointBatch, len(p.keys))
		batch := p.keys[:n]
		if p.acc.Reverse {
			batch = p.keys[len(p.keys)-n:]
			p.keys = p.keys[:len(p.keys)-n]
		} else {
			p.keys = p.keys[n:]
		}
		rows, err := p.x.getRows(ctx, p.acc, batch, p.stats, p.dec)
		if err != nil {
			return nil, err
		}
		p.rows = rows
	}
	r := p.rows[0]
	p.rows = p.rows[1:]
	return r, nil
}

func (p *pointIter) close() { p.keys, p.rows = nil, nil }

// points reads the rows of all of acc's points with one Store.Get.
func (x *Executor) points(ctx context.Context, acc *placed.Scan, stats *Stats) ([]*Row, error) {
	return x.getRows(ctx, acc, pointKeys(acc), stats, x.decoder(ctx, acc.Table, acc.Columns))
}

// pointKeys are the keys of acc's points, in key order.
func pointKeys(acc *placed.Scan) [][]byte {
	keys := make([][]byte, len(acc.Ranges))
	for i, r := range acc.Ranges {
		keys[i] = r.Start
	}
	return keys
}

// getRows reads the rows of keys with one Store.Get, in the access's
// order (reversed for a reverse read).
func (x *Executor) getRows(ctx context.Context, acc *placed.Scan, keys [][]byte, stats *Stats, dec *decoder) ([]*Row, error) {
	srs, err := x.Store.Get(ctx, acc.Table.Physical, keys, readOptions(acc, stats))
	if err != nil {
		return nil, err
	}
	var out []*Row
	for _, sr := range srs {
		stats.received(sr)
		rs, err := dec.decodeVersions(sr, acc.Versions)
		if !stats.decoded(err) {
			continue
		}
		out = append(out, rs...)
	}
	if acc.Reverse {
		slices.Reverse(out)
	}
	return out, nil
}

package exec

import (
	"context"
	"io"

	"github.com/rkql/rkql/planner"
)

// pointBatch is the most keys one Store.Get of a point lookup asks for:
// the rows of a long list of points stream a batch at a time, so that
// only one batch of them is held.
const pointBatch = 4096

// pointIter reads a point lookup's rows a batch of keys at a time, in
// key order (from the last key for a reverse read).
type pointIter struct {
	x     *Executor
	acc   *planner.Access
	stats *Stats
	dec   *decoder
	keys  [][]byte // the keys not yet read
	rows  []*Row   // the batch being handed out
}

func (x *Executor) pointRows(acc *planner.Access, stats *Stats) *pointIter {
	return &pointIter{x: x, acc: acc, stats: stats, dec: newDecoder(acc.Table, readColumns(acc)), keys: pointKeys(acc)}
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

package embedded

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// maxKeySize is HBase's limit on a rowkey (Short.MAX_VALUE); bbolt's is one
// byte more.
const maxKeySize = 1<<15 - 1

// encChunk is the size of the buffers row values are encoded into. bbolt
// keeps a reference to every value until the transaction commits, so a
// buffer is never reused within one.
const encChunk = 256 << 10

// appendFillPercent is how full bbolt fills pages when a transaction only
// appends keys past the table's end. bbolt's default, 0.5, leaves pages
// filled in key order half empty.
const appendFillPercent = 0.9

// Mutate applies the mutations. Each row's mutation is atomic; the call
// commits in transactions of Options.RowsPerTx rows, in key order, and stops
// between two of them if ctx is done. Inside Atomically it writes into the
// statement's transaction instead, which commits or rolls back as a whole. Mutations of the same key apply in the
// order given. Nothing is written if any mutation is invalid.
func (s *Store) Mutate(ctx context.Context, tableName string, muts []exec.Mutation) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.readOnly {
		return fmt.Errorf("embedded: write to table %s: %w", tableName, ErrReadOnly)
	}
	t, err := s.table(tableName)
	if err != nil {
		return err
	}
	if err := validateMutations(t, muts); err != nil {
		return err
	}
	if len(muts) == 0 {
		return nil
	}
	if err := s.txnRows(len(muts)); err != nil {
		return err
	}
	ts := s.writeTimestamp()
	cutoffs := t.cutoffs(s.now())
	order := sortedOrder(muts)
	for len(order) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(order), s.rowsPerTx)
		err := s.update(func(tx *bolt.Tx) error {
			b, err := t.bucket(tx)
			if err != nil {
				return err
			}
			w := rowWriter{t: t, b: b, ts: ts, cutoffs: cutoffs}
			w.appending = appendsOnly(b, muts[order[0]].Key)
			if w.appending {
				// Pages filled in key order need no room for
				// inserts between their keys.
				b.FillPercent = appendFillPercent
			}
			for _, i := range order[:n] {
				if err := w.apply(&muts[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return wrapDB(err)
		}
		order = order[n:]
	}
	return nil
}

// appendsOnly reports whether every key from first on is past the last key
// of b, so that no row written from first on exists yet.
func appendsOnly(b *bolt.Bucket, first []byte) bool {
	last, _ := b.Cursor().Last()
	return last == nil || bytes.Compare(first, last) > 0
}

// validateMutations checks every mutation before anything is written.
func validateMutations(t *table, muts []exec.Mutation) error {
	for i := range muts {
		m := &muts[i]
		if len(m.Key) == 0 {
			return fmt.Errorf("embedded: table %s: empty row key", t.spec.Name)
		}
		if len(m.Key) > maxKeySize {
			return fmt.Errorf("embedded: table %s: row key of %d bytes is longer than %d",
				t.spec.Name, len(m.Key), maxKeySize)
		}
		for _, c := range slices.Concat(m.Cells, m.Deletes) {
			if t.family(c.Family) < 0 {
				return fmt.Errorf("embedded: table %s has no family %s", t.spec.Name, c.Family)
			}
			if c.Timestamp < 0 {
				return fmt.Errorf("embedded: table %s: row %s: negative timestamp %d",
					t.spec.Name, binaryString(m.Key), c.Timestamp)
			}
		}
	}
	return nil
}

// sortedOrder returns the indexes of muts in key order, keeping the given
// order among mutations of one key.
func sortedOrder(muts []exec.Mutation) []int {
	order := make([]int, len(muts))
	sorted := true
	for i := range order {
		order[i] = i
		if i > 0 && bytes.Compare(muts[i-1].Key, muts[i].Key) > 0 {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			return bytes.Compare(muts[a].Key, muts[b].Key)
		})
	}
	return order
}

// rowWriter applies mutations inside one write transaction.
type rowWriter struct {
	t       *table
	b       *bolt.Bucket
	ts      int64   // timestamp for cells written with 0
	cutoffs []int64 // per family, the oldest timestamp kept
	cells   []wcell // scratch
	enc     []byte  // encode buffer; see encChunk
	// appending is set when all keys of the transaction are past the
	// table's last key: a row then exists only if this transaction
	// wrote it, which is the case when its key repeats the previous one.
	appending bool
	prev      []byte // key of the previous mutation
}

// apply merges one mutation into its stored row.
func (w *rowWriter) apply(m *exec.Mutation) error {
	w.cells = w.cells[:0]
	var old []byte
	repeat := bytes.Equal(m.Key, w.prev)
	w.prev = m.Key
	if !m.DeleteRow && (!w.appending || repeat || len(m.Deletes) > 0) {
		old = w.b.Get(m.Key)
	}
	if old != nil {
		var ok bool
		if w.cells, ok = decodeRow(w.t, old, w.cells); !ok {
			return corrupt(w.t.spec.Name, m.Key)
		}
		if len(m.Deletes) > 0 {
			w.cells = slices.DeleteFunc(w.cells, func(c wcell) bool {
				return slices.ContainsFunc(m.Deletes, func(d exec.Cell) bool {
					upTo := d.Timestamp
					if upTo == 0 {
						upTo = w.ts
					}
					return w.t.family(d.Family) == c.fam && d.Qualifier == c.qual && c.ts <= upTo
				})
			})
		}
	}
	for _, c := range m.Cells {
		ts := c.Timestamp
		if ts == 0 {
			ts = w.ts
		}
		w.cells = append(w.cells, wcell{fam: w.t.family(c.Family), qual: c.Qualifier, ts: ts, val: c.Value})
	}
	w.cells = normalize(w.t, w.cells, w.cutoffs)
	if len(w.cells) == 0 {
		if err := w.b.Delete(m.Key); err != nil {
			return fmt.Errorf("embedded: table %s: %w", w.t.spec.Name, err)
		}
		return nil
	}
	if cap(w.enc)-len(w.enc) < 4096 {
		w.enc = make([]byte, 0, encChunk)
	}
	start := len(w.enc)
	w.enc = appendRow(w.enc, w.t, w.cells)
	val := w.enc[start:len(w.enc):len(w.enc)]
	if err := w.b.Put(m.Key, val); err != nil {
		return fmt.Errorf("embedded: table %s: %w", w.t.spec.Name, err)
	}
	return nil
}

package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/rkql/rkql/catalog"
)

// UIDs reads OpenTSDB's uid table (tsdb-uid) of a store: a row keyed by
// a name holds its uid in family id, and a row keyed by the uid its name
// in family name, each under the qualifier of its kind (metrics, tagk,
// tagv). What it finds it keeps: OpenTSDB never gives a name another uid
// or a uid another name. What it does not find it asks again. It is safe
// for concurrent use.
type UIDs struct {
	Store Store
	mu    sync.Mutex
	uids  map[uidKey]int64
	names map[uidKey]string
}

// uidKey is a name or a uid (as its bytes) of a kind in one uid table.
type uidKey struct{ table, kind, key string }

// UID returns the uid of kind that name has in the uid table, and false
// when it has none. It satisfies planner.UIDResolver.
func (u *UIDs) UID(ctx context.Context, table, kind, name string) (int64, bool, error) {
	k := uidKey{table, kind, name}
	u.mu.Lock()
	id, ok := u.uids[k]
	u.mu.Unlock()
	if ok {
		return id, true, nil
	}
	v, ok, err := u.cell(ctx, table, []byte(name), "id", kind)
	if err != nil || !ok {
		return 0, false, err
	}
	if len(v) < 1 || len(v) > 8 {
		return 0, false, fmt.Errorf("the uid of %s %q in %s is %d bytes ('%s')", kind, name, table, len(v), catalog.ToStringBinary(v))
	}
	var b [8]byte
	copy(b[8-len(v):], v)
	id = int64(binary.BigEndian.Uint64(b[:]))
	u.mu.Lock()
	if u.uids == nil {
		u.uids = map[uidKey]int64{}
	}
	u.uids[k] = id
	u.mu.Unlock()
	return id, true, nil
}

// Name returns the name that uid (its bytes, as the key holds it) of
// kind has in the uid table, and false when it has none.
func (u *UIDs) Name(ctx context.Context, table, kind string, uid []byte) (string, bool, error) {
	k := uidKey{table, kind, string(uid)}
	u.mu.Lock()
	name, ok := u.names[k]
	u.mu.Unlock()
	if ok {
		return name, true, nil
	}
	v, ok, err := u.cell(ctx, table, uid, "name", kind)
	if err != nil || !ok {
		return "", false, err
	}
	name = string(v)
	u.mu.Lock()
	if u.names == nil {
		u.names = map[uidKey]string{}
	}
	u.names[k] = name
	u.mu.Unlock()
	return name, true, nil
}

// cell reads the newest value of family:qualifier in row key.
func (u *UIDs) cell(ctx context.Context, table string, key []byte, family, qualifier string) ([]byte, bool, error) {
	srs, err := u.Store.Get(ctx, table, [][]byte{key}, ReadOptions{})
	if err != nil {
		return nil, false, err
	}
	for _, sr := range srs {
		for _, c := range sr.Cells {
			if c.Family == family && c.Qualifier == qualifier {
				return c.Value, true, nil
			}
		}
	}
	return nil, false, nil
}

// uids is the uid reader of the executor's statement, made on first use.
func (x *Executor) uids() *UIDs {
	x.uidOnce.Do(func() {
		if x.UIDs == nil {
			x.UIDs = &UIDs{Store: x.Store}
		}
	})
	return x.UIDs
}

// decoder returns a decoder of t's rows for a read under ctx: one that
// shows an OpenTSDB table's uids by name reads them through x's UIDs.
func (x *Executor) decoder(ctx context.Context, t *catalog.Table, cols []int) *decoder {
	d := newDecoder(t, cols)
	if t.Collects() {
		d.names = &uidNames{ctx: ctx, u: x.uids()}
	}
	return d
}

// uidNames reads names for a decoder.
type uidNames struct {
	ctx context.Context
	u   *UIDs
}

// tsdbNames returns the metric's name and the tags of the row with key
// group repetitions reps, by name: a MAP from tag key to tag value.
func (d *decoder) tsdbNames(base *Row, reps [][]catalog.Value) (string, catalog.Value, error) {
	n := d.t.Wide.Names
	if d.names == nil {
		return "", catalog.Value{}, fmt.Errorf("table %s: no uid table reader to show names with", d.t.Name)
	}
	name := func(kind string, v catalog.Value) (string, error) {
		uid := n.UIDBytes(v.I)
		s, ok, err := d.names.u.Name(d.names.ctx, n.Physical, kind, uid)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("table %s: key '%s': %s uid '%s' has no name in %s", d.t.Name, catalog.ToStringBinary(base.Key), kind, catalog.ToStringBinary(uid), n.Physical)
		}
		return s, nil
	}
	metric, err := name(catalog.TSDBMetrics, base.Vals[n.MetricUID])
	if err != nil {
		return "", catalog.Value{}, err
	}
	pairs := make([]catalog.MapEntry, 0, len(reps))
	for _, rep := range reps {
		k, err := name(catalog.TSDBTagK, rep[0])
		if err != nil {
			return "", catalog.Value{}, err
		}
		v, err := name(catalog.TSDBTagV, rep[1])
		if err != nil {
			return "", catalog.Value{}, err
		}
		pairs = append(pairs, catalog.MapEntry{Key: catalog.String(k), Val: catalog.String(v)})
	}
	return metric, catalog.NewMap(pairs), nil
}

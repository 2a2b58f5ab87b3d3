package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
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

// tsdbMaxID is the row of tsdb-uid that holds, in family id, the last uid
// handed out of each kind, as an 8-byte counter.
var tsdbMaxID = []byte{0}

// Assign returns the uid of kind that name has in the uid table, giving
// it the next one when it has none, as OpenTSDB's UniqueId does: the
// MAXID row's counter of the kind is incremented atomically (so that no
// two writers, OpenTSDB or rkql, ever get the same uid), the reverse
// mapping (row uid, name:kind = name) and then the forward mapping (row
// name, id:kind = uid) are written each only where none is. When another
// writer gave the name a uid first, the forward mapping is theirs and
// their uid is returned; the uid drawn is left unused, as OpenTSDB leaves
// it. A uid is width bytes: past the last one the kind is full.
func (u *UIDs) Assign(ctx context.Context, table, kind, name string, width int) (int64, error) {
	if id, ok, err := u.UID(ctx, table, kind, name); err != nil || ok {
		return id, err
	}
	at, ok := u.Store.(CellAtomic)
	if !ok {
		return 0, fmt.Errorf("%s %q has no uid in %s, and the store cannot assign one atomically", kind, name, table)
	}
	id, err := at.Increment(ctx, table, tsdbMaxID, "id", kind, 1)
	if err != nil {
		return 0, fmt.Errorf("assigning a uid to %s %q in %s: %w", kind, name, table, err)
	}
	if id <= 0 || (width < 8 && id >= 1<<(8*width)) {
		return 0, fmt.Errorf("assigning a uid to %s %q in %s: uid %d does not fit %d bytes: every %s uid is used", kind, name, table, id, width, kind)
	}
	uid := (&catalog.TSDBNames{Width: width}).UIDBytes(id)
	put := func(key []byte, family string, val []byte) (bool, error) {
		return at.CheckAndPut(ctx, table, Mutation{Key: key, Cells: []Cell{{Family: family, Qualifier: kind, Value: val}}}, family, kind, nil)
	}
	if ok, err := put(uid, "name", []byte(name)); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("uid '%s' already has a name: the %s counter is behind the uids in use", catalog.ToStringBinary(uid), kind)
		}
		return 0, fmt.Errorf("assigning a uid to %s %q in %s: %w", kind, name, table, err)
	}
	ok, err = put([]byte(name), "id", uid)
	if err != nil {
		return 0, fmt.Errorf("assigning a uid to %s %q in %s: %w", kind, name, table, err)
	}
	if !ok {
		// Another writer assigned the name first: theirs stands.
		id, ok, err := u.UID(ctx, table, kind, name)
		if err == nil && !ok {
			err = fmt.Errorf("%s %q lost its uid while being assigned one", kind, name)
		}
		return id, err
	}
	u.mu.Lock()
	if u.uids == nil {
		u.uids = map[uidKey]int64{}
	}
	u.uids[uidKey{table, kind, name}] = id
	u.mu.Unlock()
	return id, nil
}

// tsdbMutation is the write of one point of an OpenTSDB table that shows
// names (Collects): the metric's and every tag's names become uids
// (Assign gives new names new ones), and the key holds every tag pair,
// sorted by their uid bytes as OpenTSDB sorts them, under the salt of
// the metric and all the pairs.
func (x *Executor) tsdbMutation(ctx context.Context, t *catalog.Table, row catalog.Row, ts int64, cols []int) (Mutation, error) {
	n := t.Wide.Names
	metric, tags := row[n.Metric], row[n.Tags]
	if metric.Null || tags.Null || tags.M.Len() == 0 {
		return Mutation{}, fmt.Errorf("table %s: a point needs its %s and at least one tag in %s", t.Name, t.Columns[n.Metric].Name, t.Columns[n.Tags].Name)
	}
	u := x.uids()
	mid, err := u.Assign(ctx, n.Physical, catalog.TSDBMetrics, metric.S, n.Width)
	if err != nil {
		return Mutation{}, err
	}
	type pair struct {
		k, v  int64
		bytes []byte
	}
	var pairs []pair
	for _, e := range tags.M.Entries {
		k, err := u.Assign(ctx, n.Physical, catalog.TSDBTagK, e.Key.S, n.Width)
		if err != nil {
			return Mutation{}, err
		}
		v, err := u.Assign(ctx, n.Physical, catalog.TSDBTagV, e.Val.S, n.Width)
		if err != nil {
			return Mutation{}, err
		}
		pairs = append(pairs, pair{k, v, append(slices.Clone(n.UIDBytes(k)), n.UIDBytes(v)...)})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return bytes.Compare(a.bytes, b.bytes) })
	r := slices.Clone(row)
	r[n.MetricUID], r[n.TagK], r[n.TagV] = catalog.Bigint(mid), catalog.Bigint(pairs[0].k), catalog.Bigint(pairs[0].v)
	r[n.Metric], r[n.Tags] = catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeMap)
	m, err := RowMutation(t, r, ts, nil, cols)
	if err != nil {
		return Mutation{}, err
	}
	// The key as written holds the first pair; put them all in.
	key := m.Key[:len(m.Key)-len(pairs[0].bytes)]
	salt := 0
	if c := t.Key.Components[0]; c.Kind == catalog.KindSalt {
		salt = c.Width
	}
	rest := slices.Clone(key[salt:])
	for _, p := range pairs {
		rest = append(rest, p.bytes...)
	}
	if salt == 0 {
		m.Key = rest
		return m, nil
	}
	sb, err := t.Salt(rest)
	if err != nil {
		return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
	}
	m.Key = append(slices.Clone(sb), rest...)
	return m, nil
}

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Map is the value of a MAP column: entries sorted by key, each key once.
// A Map is immutable once built (NewMap), so Values that share one may be
// read concurrently.
type Map struct {
	Entries []MapEntry
}

// MapEntry is one key and its value.
type MapEntry struct {
	Key, Val Value
}

// MapType is the shape of a MAP column: the type of its keys and of its
// values. Column.Map holds it for a column of TypeMap.
type MapType struct {
	Key, Val Type
}

func (m MapType) String() string { return "MAP<" + m.Key.String() + ", " + m.Val.String() + ">" }

// NewMap returns a MAP value of entries, sorted by key. When a key is
// given twice the last entry wins.
func NewMap(entries []MapEntry) Value {
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, b MapEntry) int { return Compare(a.Key, b.Key) })
	out := es[:0]
	for _, e := range es {
		if n := len(out); n > 0 && Compare(out[n-1].Key, e.Key) == 0 {
			out[n-1] = e
			continue
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		out = nil // one form of the empty map
	}
	return Value{Type: TypeMap, M: &Map{Entries: out}}
}

// Get returns the value of key k; ok is false when the map has none.
func (m *Map) Get(k Value) (Value, bool) {
	if m == nil {
		return Value{}, false
	}
	i, ok := slices.BinarySearchFunc(m.Entries, k, func(e MapEntry, k Value) int { return Compare(e.Key, k) })
	if !ok {
		return Value{}, false
	}
	return m.Entries[i].Val, true
}

// Len is the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.Entries)
}

// compareMaps orders maps entry by entry, key then value; a map that is a
// prefix of another sorts first.
func compareMaps(a, b *Map) int {
	n := min(a.Len(), b.Len())
	for i := 0; i < n; i++ {
		ea, eb := a.Entries[i], b.Entries[i]
		if c := Compare(ea.Key, eb.Key); c != 0 {
			return c
		}
		if c := Compare(ea.Val, eb.Val); c != 0 {
			return c
		}
	}
	return a.Len() - b.Len()
}

// mapText renders a map as {k: v, …} with each key and value as f
// renders it.
func mapText(m *Map, f func(Value) string) string {
	var b strings.Builder
	b.WriteByte('{')
	if m == nil {
		return "{}"
	}
	for i, e := range m.Entries {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f(e.Key))
		b.WriteString(": ")
		b.WriteString(f(e.Val))
	}
	b.WriteByte('}')
	return b.String()
}

// ParseMapType reads "MAP<K, V>" (case-insensitive, spaces optional), K
// and V type names as ParseType knows them; ok is false for anything
// else, a MAP of MAPs included.
func ParseMapType(s string) (MapType, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(u, "MAP") {
		return MapType{}, false
	}
	u = strings.TrimSpace(u[3:])
	if !strings.HasPrefix(u, "<") || !strings.HasSuffix(u, ">") {
		return MapType{}, false
	}
	k, v, ok := strings.Cut(u[1:len(u)-1], ",")
	if !ok {
		return MapType{}, false
	}
	kt, ok1 := ParseType(strings.TrimSpace(k))
	vt, ok2 := ParseType(strings.TrimSpace(v))
	if !ok1 || !ok2 {
		return MapType{}, false
	}
	return MapType{Key: kt, Val: vt}, true
}

// MapKey converts v to the key type of m for a subscript: a value of
// that type as it is, any other through its text (ParseText), so that
// tags['42'] and tags[42] name the same BIGINT key. It fails with a
// message naming the key type.
func (m MapType) MapKey(v Value) (Value, error) {
	if v.Null || v.Type == m.Key {
		return v, nil
	}
	text := v.Text()
	if v.Type == TypeString {
		text = v.S
	}
	k, err := ParseText(m.Key, text)
	if err != nil {
		return Value{}, fmt.Errorf("map key %s is not a %s", v, m.Key)
	}
	return k, nil
}

package embedded

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// tableMeta is what the meta bucket stores for a table, as JSON.
type tableMeta struct {
	Spec exec.TableSpec `json:"spec"`
	// Created is the creation time in ms; it is the id in region names.
	Created int64 `json:"created"`
}

// table is the in-memory form of a table's metadata. It is immutable.
type table struct {
	spec    exec.TableSpec
	created int64
	// meta is the table's entry in the meta bucket. A transaction that
	// finds another one there is looking at a different table of the
	// same name.
	meta []byte
	// fams are the families sorted by name.
	fams []family
	// fam1 marks the bytes that are one-byte family names, the usual
	// kind, so that a row header's family is checked without a compare.
	fam1 [256]bool
	// absent is set on a table CreateTable made in a read-only store: it
	// exists in memory only, has no bucket, and reads as empty.
	absent bool
}

// family is a column family's settings as the read and write paths use
// them.
type family struct {
	name     string
	versions int   // >= 1
	ttlMs    int64 // 0 means forever
}

func newTable(m tableMeta, raw []byte) *table {
	t := &table{spec: m.Spec, created: m.Created, meta: raw}
	for _, f := range m.Spec.Families {
		v := f.Versions
		if v <= 0 {
			v = 1
		}
		t.fams = append(t.fams, family{name: f.Name, versions: v, ttlMs: f.TTL * 1000})
		if len(f.Name) == 1 {
			t.fam1[f.Name[0]] = true
		}
	}
	sort.Slice(t.fams, func(i, j int) bool { return t.fams[i].name < t.fams[j].name })
	return t
}

// bucket returns the table's bucket in tx. It fails if the table has been
// dropped since t was looked up, or dropped and created again.
func (t *table) bucket(tx *bolt.Tx) (*bolt.Bucket, error) {
	name := []byte(t.spec.Name)
	b := tx.Bucket(name)
	meta := tx.Bucket([]byte(metaBucket)).Get(name)
	switch {
	case b == nil || meta == nil:
		return nil, notFound(t.spec.Name)
	case !bytes.Equal(meta, t.meta):
		return nil, fmt.Errorf("embedded: table %s was dropped and created again", t.spec.Name)
	}
	return b, nil
}

// family returns the index in t.fams of the family named name, or -1.
func (t *table) family(name string) int {
	for i := range t.fams {
		if t.fams[i].name == name {
			return i
		}
	}
	return -1
}

// familyBytes is family for a name held as bytes; it does not allocate.
func (t *table) familyBytes(name []byte) int {
	for i := range t.fams {
		if t.fams[i].name == string(name) {
			return i
		}
	}
	return -1
}

// hasTTL reports whether a family of t has a TTL.
func (t *table) hasTTL() bool {
	for _, f := range t.fams {
		if f.ttlMs > 0 {
			return true
		}
	}
	return false
}

// cutoffs returns, per family, the oldest timestamp still visible at now.
func (t *table) cutoffs(now int64) []int64 {
	c := make([]int64, len(t.fams))
	for i, f := range t.fams {
		if f.ttlMs > 0 {
			c[i] = now - f.ttlMs
		}
	}
	return c
}

// regionList returns the table's regions: [nil, s0), [s0, s1), … [sn, nil).
func (t *table) regionList() []exec.Region {
	splits := t.spec.Splits
	regions := make([]exec.Region, 0, len(splits)+1)
	var start []byte
	for i := 0; i <= len(splits); i++ {
		var end []byte
		if i < len(splits) {
			end = bytes.Clone(splits[i])
		}
		regions = append(regions, exec.Region{
			Name:     regionName(t.spec.Name, start, t.created),
			StartKey: start,
			EndKey:   end,
			Server:   "embedded",
		})
		start = end
	}
	return regions
}

// regionName names a region like HBase does: "table,startkey,id." with the
// start key printed as Bytes.toStringBinary prints it.
func regionName(tableName string, start []byte, id int64) string {
	return tableName + "," + binaryString(start) + "," + strconv.FormatInt(id, 10) + "."
}

// regionOf returns the index of the region holding key.
func (t *table) regionOf(key []byte) int {
	splits := t.spec.Splits
	return sort.Search(len(splits), func(i int) bool { return bytes.Compare(splits[i], key) > 0 })
}

// regionsTouched returns how many regions the range [start, stop) overlaps;
// nil bounds are open. An empty range touches none.
func (t *table) regionsTouched(start, stop []byte) int {
	if emptyRange(start, stop) {
		return 0
	}
	splits := t.spec.Splits
	first := 0
	if start != nil {
		first = t.regionOf(start)
	}
	last := len(splits)
	if stop != nil {
		// The last region holds the largest key below stop: it is the one
		// after the last split that is < stop.
		last = sort.Search(len(splits), func(i int) bool { return bytes.Compare(splits[i], stop) >= 0 })
	}
	return last - first + 1
}

// emptyRange reports whether [start, stop) holds no key.
func emptyRange(start, stop []byte) bool {
	return start != nil && stop != nil && bytes.Compare(stop, start) <= 0
}

// binaryString prints b the way HBase's Bytes.toStringBinary does: bytes
// 0x20-0x7E as themselves except '\', everything else as \xNN.
func binaryString(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c <= 0x7e && c != '\\' {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "\\x%02X", c)
	}
	return sb.String()
}

// validateSpec checks a spec the way HBase would refuse it.
func validateSpec(spec exec.TableSpec) error {
	if err := validateTableName(spec.Name); err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("embedded: create table %s: "+format, append([]any{spec.Name}, args...)...)
	}
	if len(spec.Families) == 0 {
		return fail("no column families")
	}
	seen := make(map[string]bool)
	for _, f := range spec.Families {
		switch {
		case f.Name == "":
			return fail("empty family name")
		case strings.ContainsAny(f.Name, ":\x00"):
			return fail("family name %q contains ':' or a NUL byte", f.Name)
		case seen[f.Name]:
			return fail("family %s given twice", f.Name)
		case f.Versions < 0:
			return fail("family %s: negative VERSIONS", f.Name)
		case f.TTL < 0:
			return fail("family %s: negative TTL", f.Name)
		}
		seen[f.Name] = true
	}
	for i, s := range spec.Splits {
		if len(s) == 0 {
			return fail("empty split key")
		}
		if i > 0 && bytes.Compare(spec.Splits[i-1], s) >= 0 {
			return fail("split keys not strictly ascending at %s", binaryString(s))
		}
	}
	return nil
}

// validateTableName accepts HBase table names: an optional namespace of
// [A-Za-z0-9_] and ':', then a qualifier of [A-Za-z0-9_.-] that does not
// start with '.' or '-'.
func validateTableName(name string) error {
	ns, qual, hasNS := strings.Cut(name, ":")
	if !hasNS {
		ns, qual = "", name
	}
	bad := func() error { return fmt.Errorf("embedded: invalid table name %q", name) }
	if hasNS && ns == "" {
		return bad()
	}
	for _, c := range ns {
		if !isWordChar(c) {
			return bad()
		}
	}
	if qual == "" || qual[0] == '.' || qual[0] == '-' {
		return bad()
	}
	for _, c := range qual {
		if !isWordChar(c) && c != '.' && c != '-' {
			return bad()
		}
	}
	return nil
}

func isWordChar(c rune) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// cloneSpec deep-copies a spec so callers cannot change a stored one.
func cloneSpec(s exec.TableSpec) exec.TableSpec {
	out := s
	out.Families = make([]exec.FamilySpec, len(s.Families))
	for i, f := range s.Families {
		if f.BlockCache != nil {
			b := *f.BlockCache
			f.BlockCache = &b
		}
		out.Families[i] = f
	}
	out.Splits = nil
	for _, sp := range s.Splits {
		out.Splits = append(out.Splits, bytes.Clone(sp))
	}
	return out
}

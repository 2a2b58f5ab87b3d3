package embedded

import (
	"context"
	"strconv"

	"github.com/rkql/rkql/exec"
)

var _ exec.StoredTables = (*Store)(nil)

// AllTables lists the tables the file holds: every table is the store's.
func (s *Store) AllTables(ctx context.Context) ([]string, error) { return s.Tables(ctx) }

// DescribeStored returns the families of a table with the settings it was
// created with, named as HBase names them; a setting left unset shows
// HBase's default. The store keeps VERSIONS and TTL; it records the
// others.
func (s *Store) DescribeStored(ctx context.Context, table string) (*exec.StoredTable, error) {
	spec, err := s.Spec(ctx, table)
	if err != nil {
		return nil, err
	}
	out := &exec.StoredTable{Name: spec.Name, Source: "as the table was created (the embedded store keeps VERSIONS and TTL, and records the rest)"}
	for _, f := range spec.Families {
		out.Families = append(out.Families, exec.StoredFamily{Name: f.Name, Settings: familySettings(f)})
	}
	return out, nil
}

// familySettings shows f's settings in the order HBase's describe does.
func familySettings(f exec.FamilySpec) []exec.Setting {
	var out []exec.Setting
	add := func(name, value string, set bool, def string) {
		if !set {
			value = def
		}
		out = append(out, exec.Setting{Name: name, Value: value, Default: !set})
	}
	add("BLOOMFILTER", f.BloomFilter, f.BloomFilter != "", "ROW")
	add("IN_MEMORY", strconv.FormatBool(f.InMemory), f.InMemory, "false")
	add("VERSIONS", strconv.Itoa(f.Versions), f.Versions > 0, "1")
	add("COMPRESSION", f.Compression, f.Compression != "", "NONE")
	add("TTL", strconv.FormatInt(f.TTL, 10), f.TTL > 0, "FOREVER")
	blockCache := f.BlockCache != nil
	add("BLOCKCACHE", strconv.FormatBool(blockCache && *f.BlockCache), blockCache, "true")
	add("BLOCKSIZE", strconv.Itoa(f.BlockSize), f.BlockSize > 0, "65536")
	return out
}

package hbasestore

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

var _ exec.StoredTables = (*Store)(nil)

// AllTables lists the tables of every namespace, HBase's own included.
func (s *Store) AllTables(ctx context.Context) ([]string, error) {
	names, err := s.c.Admin().ListAllTables(ctx, true)
	return names, mapErr(err)
}

// DescribeStored returns table's families and settings from its
// descriptor, with HBase's defaults for the settings it leaves unset.
func (s *Store) DescribeStored(ctx context.Context, table string) (*exec.StoredTable, error) {
	d, err := s.c.Admin().TableDescriptor(ctx, table)
	if err != nil {
		return nil, mapErr(err)
	}
	out := &exec.StoredTable{Name: d.Name, Source: "from the table descriptor"}
	for _, a := range d.Attributes {
		out.Settings = append(out.Settings, exec.Setting{Name: a.Key, Value: a.Value})
	}
	for _, f := range d.Families {
		out.Families = append(out.Families, exec.StoredFamily{Name: f.Name, Settings: familySettings(f)})
	}
	return out, nil
}

// familySettings are f's settings in the order HBase's describe shows
// them: those it always shows (its value, or the default), then the
// others the descriptor sets, then its configuration.
func familySettings(f hbase.FamilyDescriptor) []exec.Setting {
	set := map[string]string{}
	for _, a := range f.Attributes {
		set[a.Key] = a.Value
	}
	var out []exec.Setting
	shown := map[string]bool{}
	for _, d := range hbase.FamilyDefaults() {
		shown[d.Key] = true
		v, ok := set[d.Key]
		if !ok {
			out = append(out, exec.Setting{Name: d.Key, Value: d.Value, Default: true})
			continue
		}
		out = append(out, exec.Setting{Name: d.Key, Value: settingText(d.Key, v)})
	}
	for _, a := range f.Attributes {
		if !shown[a.Key] {
			out = append(out, exec.Setting{Name: a.Key, Value: a.Value})
		}
	}
	if len(f.Configuration) > 0 {
		var kv []string
		for _, c := range f.Configuration {
			kv = append(kv, "'"+c.Key+"' => '"+c.Value+"'")
		}
		out = append(out, exec.Setting{Name: "CONFIGURATION", Value: "{" + strings.Join(kv, ", ") + "}"})
	}
	return out
}

// settingText shows a value as HBase's describe does: a TTL of
// Integer.MAX_VALUE seconds is FOREVER.
func settingText(key, v string) string {
	if key == "TTL" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n == math.MaxInt32 {
			return "FOREVER"
		}
	}
	return v
}

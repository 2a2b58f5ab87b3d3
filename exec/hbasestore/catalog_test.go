package hbasestore_test

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// extraSplits pre-split the example tables the catalog leaves in one
// region, so that their scans and gets cross regions here too.
var extraSplits = map[string][]string{
	"logs_by_host": {"host12", "web1"},
	"phone_users":  {"3", "6"},
	"sites":        {"gro", "nc"},
	"order_events": {"0000000050", "0000000100", "0000000150"},
}

// indexSplits pre-split index tables (the catalog has no syntax for it).
var indexSplits = map[string][]string{
	"orders_by_buyer": {"b15", "b2", "b5"},
	"sites_by_owner":  {"owner3", "owner6"},
}

// scratchCatalog is the example catalog with every physical table, index
// tables included, renamed to <prefix>_<name> under a fresh prefix, and
// extra splits. It returns the catalog and the physical names.
func scratchCatalog(t testing.TB) (*catalog.Catalog, []string) {
	t.Helper()
	prefix := hbasetest.TableName("rkql_it")
	var doc yaml.Node
	if err := yaml.Unmarshal(examples.CatalogYAML, &doc); err != nil {
		t.Fatal(err)
	}
	tables := mapValue(doc.Content[0], "tables")
	if tables == nil {
		t.Fatal("example catalog has no tables")
	}
	for _, tb := range tables.Content {
		name := mapValue(tb, "name").Value
		setScalar(tb, "hbase", prefix+"_"+name)
		if s, ok := extraSplits[name]; ok {
			if mapValue(tb, "split") != nil || mapValue(tb, "splits") != nil {
				t.Fatalf("table %s has splits now: drop it from extraSplits", name)
			}
			seq := &yaml.Node{Kind: yaml.SequenceNode}
			for _, k := range s {
				seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k, Style: yaml.DoubleQuotedStyle})
			}
			tb.Content = append(tb.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "splits"}, seq)
		}
		if ixs := mapValue(tb, "indexes"); ixs != nil {
			for _, ix := range ixs.Content {
				setScalar(ix, "hbase", prefix+"_"+mapValue(ix, "name").Value)
			}
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(out)
	if err != nil {
		t.Fatalf("scratch catalog: %v", err)
	}
	var names []string
	for _, tb := range cat.Tables {
		names = append(names, tb.Physical)
		for _, ix := range tb.Indexes {
			if s, ok := indexSplits[ix.Name]; ok {
				ix.Table.Splits = catalog.SplitPolicy{Explicit: byteKeys(s)}
			}
			names = append(names, ix.Physical)
		}
	}
	return cat, names
}

func byteKeys(s []string) [][]byte {
	out := make([][]byte, len(s))
	for i, k := range s {
		out[i] = []byte(k)
	}
	return out
}

// mapValue returns the value of key in a YAML mapping, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// setScalar sets key to a string value in a YAML mapping.
func setScalar(m *yaml.Node, key, val string) {
	if v := mapValue(m, key); v != nil {
		v.Kind, v.Value, v.Tag = yaml.ScalarNode, val, ""
		return
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &yaml.Node{Kind: yaml.ScalarNode, Value: val})
}

func TestScratchCatalog(t *testing.T) {
	cat, names := scratchCatalog(t)
	if len(names) != 12 {
		t.Errorf("%d physical tables, want 9 tables and 3 indexes: %v", len(names), names)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("physical name %s used twice", n)
		}
		seen[n] = true
	}
	want := map[string]int{
		"orders": 16, "user_calendar_record": 10, "logs": 16, "device_metrics": 16,
		"logs_by_host": 3, "phone_users": 3, "sites": 3, "order_events": 4, "hbase_meta": 1,
	}
	for _, tb := range cat.Tables {
		if got := len(tb.SplitKeys()) + 1; got != want[tb.Name] {
			t.Errorf("%s: %d regions, want %d", tb.Name, got, want[tb.Name])
		}
		if tb.Physical == tb.Name {
			t.Errorf("%s keeps its physical name", tb.Name)
		}
	}
	t.Logf("physical tables: %v", names)
}

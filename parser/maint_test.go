package parser

import (
	"strings"
	"testing"
)

func TestMaintenanceStatements(t *testing.T) {
	cases := []struct{ src, want string }{
		{"flush orders", "FLUSH orders"},
		{"COMPACT orders", "COMPACT orders"},
		{"major compact \"orders\"", "MAJOR COMPACT orders"},
		{"SPLIT orders AT (seller = 's5')", "SPLIT orders AT (seller = 's5')"},
		{"split orders at (seller='s5', ts = 3)", "SPLIT orders AT (seller = 's5', ts = 3)"},
		{"SPLIT orders AT x'00ff'", "SPLIT orders AT x'00ff'"},
		{"SPLIT orders AT 'r\\x00'", "SPLIT orders AT 'r\\x00'"},
		{"MERGE REGIONS orders '', x'10'", "MERGE REGIONS orders '', x'10'"},
		{"merge regions orders 'a', 'b', 'c'", "MERGE REGIONS orders 'a', 'b', 'c'"},
		{"BALANCER on", "BALANCER ON"},
		{"balancer OFF", "BALANCER OFF"},
		{"BALANCER", "BALANCER"},
		{"show cluster", "SHOW CLUSTER"},
		{"check cluster", "CHECK CLUSTER"},
		{"CHECK CLUSTER orders", "CHECK CLUSTER orders"},
		{"check meta \"ns:orders\"", "CHECK CLUSTER \"ns:orders\""},
		{"CHECK META", "CHECK CLUSTER"},
		{"snapshot orders as orders_1", "SNAPSHOT orders AS orders_1"},
		{"SHOW SNAPSHOTS", "SHOW SNAPSHOTS"},
		{"drop snapshot orders_1", "DROP SNAPSHOT orders_1"},
		{"restore snapshot orders_1", "RESTORE SNAPSHOT orders_1"},
		{"clone snapshot orders_1 as orders2", "CLONE SNAPSHOT orders_1 AS orders2"},
		{"CLONE SNAPSHOT orders_1 AS orders2 HBASE 'ns:orders2'", "CLONE SNAPSHOT orders_1 AS orders2 HBASE 'ns:orders2'"},
	}
	var stmts []Stmt
	for _, c := range cases {
		s, err := ParseOne(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := s.String(); got != c.want {
			t.Errorf("%s: String() = %q, want %q", c.src, got, c.want)
		}
		stmts = append(stmts, s)
	}
	checkRoundTrip(t, stmts)

	for _, c := range []struct{ src, want string }{
		{"MERGE REGIONS orders 'a'", `","`},
		{"SPLIT orders (seller = 's5')", "AT"},
		{"SPLIT orders AT (m['k'] = 1)", "not map entries"},
		{"BALANCER maybe", ""},
		{"COMPACT", ""},
		{"CLONE SNAPSHOT s1", "AS"},
		{"CLONE s1 AS t2", "SNAPSHOT"},
		{"CLONE SNAPSHOT s1 AS t2 HBASE ''", "cannot be empty"},
		{"CHECK", "INDEX, CLUSTER or META"},
		{"CHECK CLUSTER a b", "unexpected"},
	} {
		_, err := ParseOne(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.src, err, c.want)
		}
	}
	// The new words stay names where the grammar wants a name.
	for _, src := range []string{
		"SELECT flush, compact, major, merge, balancer, at, off, clone, meta, cluster FROM t",
		"SELECT * FROM split WHERE at = 1",
		"CREATE TABLE merge (at STRING, off INT) ROWKEY (at)",
	} {
		if _, err := ParseOne(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

func TestNamespaceStatements(t *testing.T) {
	cases := []struct{ src, want string }{
		{"create namespace sales", "CREATE NAMESPACE sales"},
		{"DROP NAMESPACE \"sales\"", "DROP NAMESPACE sales"},
		{"CREATE NAMESPACE \"two words\"", `CREATE NAMESPACE "two words"`},
		{"show namespaces", "SHOW NAMESPACES"},
	}
	var stmts []Stmt
	for _, c := range cases {
		s, err := ParseOne(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := s.String(); got != c.want {
			t.Errorf("%s: String() = %q, want %q", c.src, got, c.want)
		}
		stmts = append(stmts, s)
	}
	checkRoundTrip(t, stmts)
	if s, _ := ParseOne("DROP NAMESPACE sales"); s.(*DropNamespaceStmt).Name.Name != "sales" {
		t.Errorf("DROP NAMESPACE sales names %q", s.(*DropNamespaceStmt).Name.Name)
	}
	for _, c := range []struct{ src, want string }{
		{"CREATE NAMESPACE", "namespace name"},
		{"DROP NAMESPACE a b", ""},
		{"SHOW NAMESPACE", ""},
	} {
		_, err := ParseOne(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.src, err, c.want)
		}
	}
	// The new words stay names where the grammar wants a name.
	for _, src := range []string{
		"SELECT namespace, namespaces FROM t",
		"CREATE TABLE namespace (namespaces STRING) ROWKEY (namespaces)",
		"DROP TABLE namespace",
	} {
		if _, err := ParseOne(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

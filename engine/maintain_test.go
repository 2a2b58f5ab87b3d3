package engine_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestMaintenanceEmbedded: on the embedded store FLUSH and COMPACT do
// nothing and say so, with the regions; SPLIT, MERGE REGIONS and BALANCER
// are refused in one line.
func TestMaintenanceEmbedded(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte(fmt.Sprintf(maintCatalog, "morders")))
	if _, err := runNotes(t, e, "INSERT INTO morders (seller, order_id, ts, amount) VALUES ('s5', 1, 1714521600000, 1.5)"); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{"FLUSH morders", "COMPACT morders", "MAJOR COMPACT morders"} {
		out, err := runNotes(t, e, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if !strings.Contains(out, "nothing to do") || !strings.Contains(out, "morders,") {
			t.Errorf("%s does not say it has nothing to do, with the regions:\n%s", sql, out)
		}
	}
	for _, c := range []struct{ sql, want string }{
		{"SPLIT morders AT (seller = 's5')", "SPLIT needs an HBase cluster"},
		{"SPLIT morders AT x'10'", "SPLIT needs an HBase cluster"},
		{"MERGE REGIONS morders '', x'10'", "MERGE REGIONS needs an HBase cluster"},
		{"BALANCER OFF", "no balancer"},
		{"BALANCER", "no balancer"},
		{"SHOW CLUSTER", "SHOW CLUSTER needs an HBase cluster"},
		{"CHECK CLUSTER", "CHECK CLUSTER needs an HBase cluster"},
		{"CHECK META morders", "CHECK CLUSTER needs an HBase cluster"},
		{"CHECK CLUSTER nosuch", "CHECK CLUSTER needs an HBase cluster"},
		{"SNAPSHOT morders AS s1", "SNAPSHOT needs an HBase cluster"},
		{"SHOW SNAPSHOTS", "SHOW SNAPSHOTS needs an HBase cluster"},
		{"DROP SNAPSHOT s1", "DROP SNAPSHOT needs an HBase cluster"},
		{"RESTORE SNAPSHOT s1", "RESTORE SNAPSHOT needs an HBase cluster"},
		{"SPLIT morders AT (order_id = 5)", "give the fields before it too"},
		{"SPLIT morders AT (amount = 5)", "not a key field"},
		{"SPLIT morders AT ''", "cannot be empty"},
		{"MERGE REGIONS morders 'a', 'a'", "twice"},
		{"FLUSH nosuch", "does not exist"},
	} {
		_, err := runNotes(t, e, c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", c.sql, err, c.want)
		}
	}
}

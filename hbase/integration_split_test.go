package hbase_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestSplit splits one region of a pre-split table in two, and refuses a
// key that already starts a region, and an empty one.
func TestSplit(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	if err := a.Split(ctx, e.table, []byte("r050")); err != nil {
		t.Fatalf("split: %v", err)
	}
	regions, err := a.Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	var bounds []string
	for _, r := range regions[1:] {
		bounds = append(bounds, string(r.StartKey))
	}
	if got := strings.Join(bounds, " "); got != "r020 r040 r050 r060 r080" {
		t.Errorf("region starts after the split: %s", got)
	}
	if !bytes.Equal(regions[2].EndKey, []byte("r050")) {
		t.Errorf("the first daughter ends at %q", regions[2].EndKey)
	}
	for _, c := range []struct{ key, want string }{
		{"r040", "the key already starts a region"},
		{"", "empty split key"},
	} {
		if err := a.Split(ctx, e.table, []byte(c.key)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("split at %q: %v, want an error saying %q", c.key, err, c.want)
		}
	}
}

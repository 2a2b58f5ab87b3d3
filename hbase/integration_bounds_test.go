package hbase_test

import (
	"testing"

	"github.com/rkql/rkql/hbase"
)

// TestIntegrationScanBounds checks ExcludeStart and IncludeStop, forward
// and reversed, with bounds on region boundaries (r020, r040, r060, r080
// start regions) and inside regions.
func TestIntegrationScanBounds(t *testing.T) {
	e := newEnv(t)
	loadRows(t, e)
	cases := []struct {
		name        string
		start, stop string
		opts        []hbase.Option
		want        []string
		regions     int
	}{
		{"forward-include-stop-at-boundary", "r015", "r040", []hbase.Option{hbase.IncludeStop()}, keyRange(15, 40, 1), 3},
		{"forward-include-stop-inside", "r015", "r033", []hbase.Option{hbase.IncludeStop()}, keyRange(15, 33, 1), 2},
		{"forward-exclude-start-at-boundary", "r040", "r061", []hbase.Option{hbase.ExcludeStart()}, keyRange(41, 60, 1), 2},
		{"forward-exclude-both-ends", "r040", "r060", []hbase.Option{hbase.ExcludeStart()}, keyRange(41, 59, 1), 1},
		// Reversed [a, b): from b exclusive down to a inclusive.
		{"reversed-half-open-on-boundaries", "r060", "r020", []hbase.Option{hbase.Reversed(), hbase.ExcludeStart(), hbase.IncludeStop()}, keyRange(59, 20, -1), 2},
		{"reversed-half-open-inside", "r075", "r015", []hbase.Option{hbase.Reversed(), hbase.ExcludeStart(), hbase.IncludeStop()}, keyRange(74, 15, -1), 4},
		{"reversed-include-stop-open-start", "", "r090", []hbase.Option{hbase.Reversed(), hbase.IncludeStop()}, keyRange(99, 90, -1), 1},
		{"reversed-exclude-start-open-stop", "r020", "", []hbase.Option{hbase.Reversed(), hbase.ExcludeStart()}, keyRange(19, 0, -1), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]hbase.Option{hbase.Caching(3)}, c.opts...)
			keys, _, st := scanKeys(t, e, c.start, c.stop, opts...)
			equalKeys(t, c.name, keys, c.want)
			if st.Regions != c.regions {
				t.Errorf("opened %d region scanners, want %d", st.Regions, c.regions)
			}
		})
	}
}

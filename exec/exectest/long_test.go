package exectest

import "testing"

// TestSize: -short picks the short size whatever RKQL_LONG says;
// otherwise RKQL_LONG=1 picks the long one, and anything else the normal.
func TestSize(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int
	}{{"1", 3}, {"", 2}, {"0", 2}} {
		t.Setenv(EnvLong, c.env)
		want := c.want
		if testing.Short() {
			want = 1
		}
		if got := Size(1, 2, 3); got != want {
			t.Errorf("%s=%q: Size(1, 2, 3) = %d, want %d", EnvLong, c.env, got, want)
		}
	}
}

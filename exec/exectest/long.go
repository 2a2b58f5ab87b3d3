package exectest

import (
	"os"
	"testing"
)

// EnvLong is the environment variable that selects the long randomized
// runs: with RKQL_LONG=1 (make test-long) the differential and write
// suites run at their long sizes.
const EnvLong = "RKQL_LONG"

// Long reports whether the long randomized runs are selected.
func Long() bool { return os.Getenv(EnvLong) == "1" }

// Size picks a randomized run's size: short under go test -short, long
// with RKQL_LONG=1, normal otherwise. -short wins over RKQL_LONG, so that
// make test-short stays short whatever the environment says.
func Size(short, normal, long int) int {
	switch {
	case testing.Short():
		return short
	case Long():
		return long
	}
	return normal
}

package exectest

import (
	"os"
	"reflect"
	"strconv"
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

// diffSeed is a run's seed when it names one, or $RKQL_DIFF_SEED, or 1.
func diffSeed(seed uint64) uint64 {
	if seed != 0 {
		return seed
	}
	if s, err := strconv.ParseUint(os.Getenv("RKQL_DIFF_SEED"), 10, 64); err == nil && s > 0 {
		return s
	}
	return 1
}

// addCounts adds every int field of *from to the same field of *to, two
// pointers to one struct type: a run's statistics summed over its
// tables, a counter added to the struct summed without being listed.
func addCounts[T any](to, from *T) {
	t, f := reflect.ValueOf(to).Elem(), reflect.ValueOf(from).Elem()
	for i := range t.NumField() {
		if fi := t.Field(i); fi.Kind() == reflect.Int {
			fi.SetInt(fi.Int() + f.Field(i).Int())
		}
	}
}

package expr

import (
	"slices"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// A subscript reads its map's column and its key's: a condition on
// tags['host'] is not constant, and a read fetches the map.
func TestSubscriptColumns(t *testing.T) {
	s := &Subscript{X: &Col{Index: 3, T: catalog.TypeMap}, Key: &Col{Index: 1, T: catalog.TypeString},
		Map: catalog.MapType{Key: catalog.TypeString, Val: catalog.TypeString}}
	if got := ScalarColumns(s); !slices.Equal(got, []int{3, 1}) {
		t.Fatalf("ScalarColumns(%s) = %v, want [3 1]", s, got)
	}
	c := &Compare{L: s, R: &Lit{V: catalog.String("web01")}, Op: Eq}
	if got := c.Columns(); !slices.Equal(got, []int{3, 1}) {
		t.Fatalf("Columns(%s) = %v, want [3 1]", c, got)
	}
}

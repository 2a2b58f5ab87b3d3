package expr

import (
	"testing"

	"github.com/rkql/rkql/catalog"
)

func TestSubscript(t *testing.T) {
	mt := catalog.MapType{Key: catalog.TypeString, Val: catalog.TypeString}
	row := catalog.Row{
		catalog.NewMap([]catalog.MapEntry{{Key: catalog.String("sports"), Val: catalog.String("golf")}}),
		catalog.Null(catalog.TypeMap),
	}
	ids := catalog.MapType{Key: catalog.TypeBigint, Val: catalog.TypeDouble}
	scores := catalog.Row{catalog.NewMap([]catalog.MapEntry{{Key: catalog.Bigint(7), Val: catalog.Double(0.5)}})}
	for _, tc := range []struct {
		name string
		s    *Subscript
		row  catalog.Row
		want string
	}{
		{"present", &Subscript{X: &Col{Index: 0, Name: "tags", T: catalog.TypeMap}, Key: &Lit{V: catalog.String("sports")}, Map: mt}, row, "golf"},
		{"absent", &Subscript{X: &Col{Index: 0, Name: "tags", T: catalog.TypeMap}, Key: &Lit{V: catalog.String("music")}, Map: mt}, row, "NULL"},
		{"null map", &Subscript{X: &Col{Index: 1, Name: "t2", T: catalog.TypeMap}, Key: &Lit{V: catalog.String("sports")}, Map: mt}, row, "NULL"},
		{"null key", &Subscript{X: &Col{Index: 0, Name: "tags", T: catalog.TypeMap}, Key: &Lit{V: catalog.Null(catalog.TypeString)}, Map: mt}, row, "NULL"},
		{"text key of a number", &Subscript{X: &Col{Index: 0, Name: "s", T: catalog.TypeMap}, Key: &Lit{V: catalog.String("7")}, Map: ids}, scores, "0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.s.Value(tc.row)
			if err != nil {
				t.Fatal(err)
			}
			if v.Text() != tc.want || v.Type != tc.s.Map.Val {
				t.Errorf("%s = %s (%s), want %s (%s)", tc.s, v.Text(), v.Type, tc.want, tc.s.Map.Val)
			}
		})
	}
	bad := &Subscript{X: &Col{Index: 0, Name: "s", T: catalog.TypeMap}, Key: &Lit{V: catalog.String("x")}, Map: ids}
	if _, err := bad.Value(scores); err == nil {
		t.Errorf("%s: no error for a key that is no BIGINT", bad)
	}
	if got := bad.String(); got != "s['x']" {
		t.Errorf("String = %q", got)
	}
}

package exectest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

const modelCatalog = `
tables:
  - name: m
    families:
      - {name: f, versions: 2}
      - {name: t, ttl: 60}
    columns:
      - {name: id, type: STRING}
      - {name: a, type: STRING, column: "f:a"}
      - {name: b, type: STRING, column: "t:b"}
    rowkey:
      - {field: id}
`

// TestModel checks the model's cell semantics on small write sequences:
// each step is "put COL VALUE TS", "null COL TS", "keys TS" (key fields
// alone) or "delete TS", all on row 'r', and the row it shows at time now
// (ms) is "a b _ts", or "-" for no row.
func TestModel(t *testing.T) {
	cat, err := catalog.Parse([]byte(modelCatalog))
	if err != nil {
		t.Fatal(err)
	}
	tb := cat.Tables[0]
	const now = 1_000_000
	cases := []struct {
		name    string
		markers bool
		steps   string
		want    string
	}{
		{"newest wins", false, "put a x 10; put a y 20; put a z 15", "y NULL 20"},
		{"same timestamp replaces", false, "put a x 10; put a y 10", "y NULL 10"},
		{"null removes up to its time", false, "put a x 10; put a y 30; null a 20", "y NULL 30"},
		{"null removes all before", false, "put a x 10; null a 20", "NULL NULL 20"},
		{"null leaves the empty-row cell", false, "keys 5; put a x 10; null a 20", "NULL NULL 20"},
		{"without markers an older put shows", false, "put a x 10; null a 20; put a y 15", "y NULL 20"},
		{"a marker hides an older put", true, "put a x 10; null a 20; put a y 15", "NULL NULL 20"},
		{"a marker hides an equal put", true, "null a 20; put a y 20", "NULL NULL 20"},
		{"a marker leaves a newer put", true, "null a 20; put a y 21", "y NULL 21"},
		{"a row marker hides the empty-row cell", true, "keys 10; delete 20; keys 20", "-"},
		{"row delete up to its time", true, "put a x 10; put a y 30; delete 20", "y NULL 30"},
		{"row marker hides an older put", true, "delete 20; put a x 19", "-"},
		{"no row marker without markers", false, "delete 20; put a x 19", "x NULL 19"},
		{"expired cell", false, "put b x " + itoa(now-60_001), "-"},
		{"cell at the TTL's edge", false, "put b x " + itoa(now-60_000), "NULL x " + itoa(now-60_000)},
		{"expired cell beside a live one", false, "put a x 10; put b y " + itoa(now-70_000), "x NULL 10"},
		{"versions beyond the family's are dropped", false, "put a x 10; put a y 20; put a z 30; null a 25", "z NULL 30"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewModel(tb, c.markers)
			key := []string{"r"}
			for _, st := range strings.Split(c.steps, "; ") {
				f := strings.Fields(st)
				row := catalog.Row{catalog.String(key[0]), catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeString)}
				col := map[string]int{"a": 1, "b": 2}
				var err error
				switch f[0] {
				case "put":
					row[col[f[1]]] = catalog.String(f[2])
					err = m.Insert(Write{Row: row, Cols: []int{0, col[f[1]]}, TS: atoi(t, f[3])})
				case "null":
					err = m.Insert(Write{Row: row, Cols: []int{0, col[f[1]]}, TS: atoi(t, f[2])})
				case "keys":
					err = m.Insert(Write{Row: row, Cols: []int{0}, TS: atoi(t, f[1])})
				case "delete":
					k, kerr := m.Key(row)
					if kerr != nil {
						t.Fatal(kerr)
					}
					m.DeleteRow(k, atoi(t, f[1]))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got := "-"
			if rows := m.Rows(now); len(rows) == 1 {
				r := rows[0]
				ts := "NULL"
				if !r[3].Null {
					ts = itoa(r[3].I)
				}
				got = r[1].Text() + " " + r[2].Text() + " " + ts
			} else if len(rows) > 1 {
				t.Fatalf("%d rows", len(rows))
			}
			if got != c.want {
				t.Errorf("%s: got %q, want %q", c.steps, got, c.want)
			}
		})
	}
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func atoi(t *testing.T, s string) int64 {
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

package catalog

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const phoenixTableYAML = `
tables:
  - name: m
    hbase: S.M
    families: [{name: "0"}]
    columns:
      - {name: host, type: STRING}
      - {name: cpu, type: DOUBLE, column: "0:\x80\x0B", encoding: phoenix}
    rowkey:
      - {field: host, encoding: phoenix}
    phoenix: {table: S.M, empty_column: "0:\x00\x00\x00\x00", global_indexes: [S.M_HOST]}
`

func TestPhoenixTableBlock(t *testing.T) {
	cat, err := Parse([]byte(phoenixTableYAML))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("m")
	p := tb.Phoenix
	if p == nil || p.Name != "S.M" || p.EmptyFamily != "0" || p.EmptyQualifier != "\x00\x00\x00\x00" || p.Storage != PhoenixOneCellPerColumn ||
		len(p.GlobalIndexes) != 1 || p.GlobalIndexes[0] != "S.M_HOST" {
		t.Fatalf("phoenix block: %+v", p)
	}
	// The block renders and reads back the same.
	var y yCatalog
	if err := yaml.Unmarshal([]byte(phoenixTableYAML), &y); err != nil {
		t.Fatal(err)
	}
	out := RenderTable(&y.Tables[0])
	if !strings.Contains(out, "phoenix: {table: S.M, empty_column: ") {
		t.Fatalf("render:\n%s", out)
	}
	cat2, err := Parse([]byte("tables:\n" + indent(out, "  ")))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tb2, _ := cat2.Table("m")
	if !reflect.DeepEqual(tb2.Phoenix, p) {
		t.Fatalf("round trip: %+v, want %+v", tb2.Phoenix, p)
	}
}

func TestPhoenixTableBlockErrors(t *testing.T) {
	for _, c := range []struct{ block, want string }{
		{`{empty_column: "0:_0"}`, "needs table:"},
		{`{table: S.M, storage: rows}`, "unknown Phoenix storage scheme"},
		{`{table: S.M, empty_column: "_0"}`, "not family:qualifier"},
		{`{table: S.M, empty_column: "1:_0"}`, `no family "1"`},
		{`{table: S.M, empty_column: "0:\x80\x0B"}`, `column "cpu"'s cell`},
		{`{table: S.M, global_indexes: [""]}`, "global index's name is empty"},
	} {
		src := strings.Replace(phoenixTableYAML, `{table: S.M, empty_column: "0:\x00\x00\x00\x00", global_indexes: [S.M_HOST]}`, c.block, 1)
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.block, err, c.want)
		}
	}
}

// phoenixIndexYAML is a Phoenix table and its global index, as CREATE
// TABLE … FROM PHOENIX imports them: the index holds cpu (a nullable
// DOUBLE, so a DECIMAL), n (a nullable INTEGER, so a DECIMAL too), then
// the data table's key, and covers name.
const phoenixIndexYAML = `
tables:
  - name: m
    hbase: S.M
    families: [{name: "0"}]
    columns:
      - {name: host, type: STRING}
      - {name: cpu, type: DOUBLE, column: "0:\x80\x0B", encoding: phoenix}
      - {name: n, type: INT, column: "0:\x80\x0C", encoding: phoenix, phoenix: INTEGER}
      - {name: name, type: STRING, column: "0:\x80\x0D", encoding: phoenix}
    rowkey:
      - {salt: 4}
      - {field: host, encoding: phoenix}
    phoenix: {table: S.M, empty_column: "0:\x00\x00\x00\x00", global_indexes: [S.M_CPU]}
  - name: m_cpu
    hbase: S.M_CPU
    families: [{name: "0"}]
    columns:
      - {name: cpu, type: STRING}
      - {name: n, type: STRING}
      - {name: host, type: STRING}
      - {name: name, type: STRING, column: "0:\x80\x0B", encoding: phoenix, phoenix: VARCHAR}
    rowkey:
      - {salt: 4}
      - {field: cpu, encoding: phoenix, phoenix: DECIMAL}
      - {field: n, encoding: phoenix, phoenix: DECIMAL}
      - {field: host, encoding: phoenix, phoenix: VARCHAR}
    phoenix: {table: S.M_CPU, empty_column: "0:\x00\x00\x00\x00", index_of: S.M}
`

func TestPhoenixIndexLink(t *testing.T) {
	cat, err := Parse([]byte(phoenixIndexYAML))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cat.Table("m")
	if len(m.PhoenixIndexes) != 1 || len(m.Indexes) != 0 || len(cat.Warnings) != 0 {
		t.Fatalf("indexes %v, Phoenix's %v, warnings %v", m.Indexes, m.PhoenixIndexes, cat.Warnings)
	}
	ix := m.PhoenixIndexes[0]
	if ix.Name != "m_cpu" || ix.Physical != "S.M_CPU" || !ix.Phoenix || ix.Table.IndexOf != m {
		t.Fatalf("index %+v", ix)
	}
	// The linked index has the data table's types; the entry queried by
	// its name keeps its own.
	for _, c := range []struct {
		name string
		typ  Type
	}{{"cpu", TypeDouble}, {"n", TypeInt}, {"host", TypeString}, {"name", TypeString}} {
		i, ok := ix.Table.Column(c.name)
		if !ok || ix.Table.Columns[i].Type != c.typ {
			t.Errorf("linked column %s: %+v, want %s", c.name, ix.Table.Columns[i], c.typ)
		}
	}
	own, _ := cat.Table("m_cpu")
	if i, _ := own.Column("n"); own.Columns[i].Type != TypeString || own.IndexOf != nil {
		t.Errorf("the index's own entry: %+v, IndexOf %v", own.Columns[i], own.IndexOf)
	}
	// Its key writes a DOUBLE and an INT as Phoenix's DECIMAL, and reads
	// them back.
	row := ix.Table.NewRow()
	row[0], row[1], row[2] = Double(-2.25), Int(7), String("h1")
	key, err := ix.Table.EncodeKey(row, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := ix.Table.NewRow()
	if err := ix.Table.NewKeyChecker().Decode(key, back, make([]int, 5)); err != nil {
		t.Fatalf("decode %q: %v", key, err)
	}
	if Compare(back[0], row[0]) != 0 || Compare(back[1], row[1]) != 0 || back[2].S != "h1" {
		t.Errorf("key %q reads %v, want %v", ToStringBinary(key), back, row)
	}

	// An index holding a column the data table lacks is left unlinked,
	// with a warning.
	bad := strings.Replace(phoenixIndexYAML, "{name: n, type: STRING}", "{name: z, type: STRING}", 1)
	bad = strings.Replace(bad, "{field: n, encoding", "{field: z, encoding", 1)
	cat, err = Parse([]byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	m, _ = cat.Table("m")
	if len(m.PhoenixIndexes) != 0 || len(cat.Warnings) != 1 || !strings.Contains(cat.Warnings[0], "its column z is no column of m") {
		t.Errorf("unlinkable index: %v, warnings %v", m.PhoenixIndexes, cat.Warnings)
	}
}

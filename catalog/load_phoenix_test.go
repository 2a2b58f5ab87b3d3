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

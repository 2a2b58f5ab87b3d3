package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rkql/rkql/catalog"
)

// fastTimestamp accepts only text catalog.ParseTime accepts, and reads it
// to the same millisecond.
func TestFastTimestamp(t *testing.T) {
	cases := []string{
		"2024-05-01T23:48:57.943Z", "2024-05-01 23:48:57.943", "2024-05-01T23:48:57",
		"2024-05-01 23:48:57Z", "2024-02-29 00:00:00", "2023-02-29 00:00:00",
		"2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T23:60:00Z",
		"2024-05-01T23:59:60Z", "2024-05-01T23:59:59.Z", "2024-05-01T23:59:59.123456789Z",
		"2024-05-01T23:59:59.1234567891Z", "2024-05-01T23:59:59.9999Z", "0000-01-01T00:00:00Z",
		"1969-12-31T23:59:59.999Z", "1969-12-31 23:59:59.0005", "2024-13-01T00:00:00Z",
		"2024-5-01T00:00:00Z", "2024-05-01x00:00:00", "2024-05-01T00:00:00+00:00",
		"2024-05-01T00:00:00ZZ", "2024-05-01T0a:00:00Z", "2024-05-01",
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		b := []byte("2024-05-01T23:48:57.943Z")
		b[r.IntN(len(b))] = "0123456789 T:.-Z"[r.IntN(16)]
		cases = append(cases, string(b[:r.IntN(len(b)+1)]))
	}
	for _, s := range cases {
		ms, ok := fastTimestamp(s)
		tm, want := catalog.ParseTime(s)
		if ok && (!want || ms != tm.UnixMilli()) {
			t.Errorf("fastTimestamp(%q) = %d, ParseTime gives %v %v", s, ms, tm, want)
		}
		if !ok && want && len(s) == 24 && s[23] == 'Z' && s[10] == 'T' && s[19] == '.' {
			t.Errorf("fastTimestamp(%q) fell back on the common form", s)
		}
	}
}

// flatObject gives the row encoding/json gives, or declines.
func TestFlatObject(t *testing.T) {
	cat, err := catalog.Parse([]byte(`
tables:
  - name: t
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: n, type: BIGINT, column: "d:n"}
      - {name: f, type: DOUBLE, column: "d:f"}
      - {name: b, type: BOOLEAN, column: "d:b"}
      - {name: ts, type: TIMESTAMP, column: "d:ts"}
    rowkey:
      - {field: k}
`))
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := cat.Table("t")
	lines := []string{
		`{"k":"a","n":1,"f":1.5,"b":true,"ts":"2024-05-01T00:00:00.001Z"}`,
		` { "k" : "a" , "n" : -12 , "f" : 1e3 , "b" : false , "ts" : 1714521600000 } ` + "\n",
		`{"k":"a","n":null}`, `{}`, `{"k":"é"}`, `{"k":"a\"b"}`, `{"k":"a","k":"b"}`,
		`{"k":"a","n":01}`, `{"k":"a","n":1.}`, `{"k":"a","n":"7"}`, `{"k":"a","f":-0.5E-2}`,
		`{"k":"a","x":1}`, `{"k":"a","n":1.5}`, `{"k":"a"} {}`, `{"k":"a",}`, `{"k":"\xff"}`,
		`{"k":"a","b":"true"}`, `{"k":"a","n":[1]}`, `{"k":"a","n":{}}`, `{"k":"a","n":tru}`,
		`{"k":"a","n":-}`, `{"k":"a","f":1e}`, `{"k":"a"`, `{"k":1}`, `{"k":"tab` + "\t" + `"}`,
	}
	declined := 0
	for _, line := range lines {
		t.Run(fmt.Sprintf("%.20s", strings.TrimSpace(line)), func(t *testing.T) {
			got, ok := flatObject(tab, line, make([]bool, len(tab.Columns)))
			var obj map[string]any
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			jerr := dec.Decode(&obj)
			var want catalog.Row
			if jerr == nil && !dec.More() {
				want, jerr = rowFromObject(tab, obj)
			} else if jerr == nil {
				jerr = fmt.Errorf("more than one value")
			}
			if !ok {
				declined++
				return
			}
			if jerr != nil {
				t.Fatalf("flatObject accepted what encoding/json refuses: %v", jerr)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("row (-encoding/json +flatObject):\n%s", d)
			}
		})
	}
	if declined == 0 || declined == len(lines) {
		t.Errorf("flatObject declined %d of %d lines", declined, len(lines))
	}
	if _, ok := flatObject(tab, lines[0], make([]bool, len(tab.Columns))); !ok {
		t.Errorf("flatObject declined the common form %s", lines[0])
	}
}

// rowFromObject converts one JSON object decoded by encoding/json to a row
// of t, as the oracle of flatObject.
func rowFromObject(t *catalog.Table, obj map[string]any) (catalog.Row, error) {
	row := t.NewRow()
	for k, v := range obj {
		i, ok := t.Column(k)
		if !ok {
			return nil, fmt.Errorf("column %q does not exist in table %s", k, t.Name)
		}
		val, err := convertJSON(&t.Columns[i], v)
		if err != nil {
			return nil, err
		}
		row[i] = val
	}
	return row, nil
}

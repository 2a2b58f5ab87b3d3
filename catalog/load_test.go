package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// base is a valid table; cases change one line of it. Its lines:
//
//	 1 tables:
//	 2   - name: t
//	 3     families:
//	 4       - {name: d}
//	 5     columns:
//	 6       - {name: a, type: STRING}
//	 7       - {name: b, type: BIGINT, column: "d:b"}
//	 8     rowkey:
//	 9       - {field: a}
//	10       - {literal: "|"}
//	11       - {field: b, encoding: binary}
const base = `tables:
  - name: t
    families:
      - {name: d}
    columns:
      - {name: a, type: STRING}
      - {name: b, type: BIGINT, column: "d:b"}
    rowkey:
      - {field: a}
      - {literal: "|"}
      - {field: b, encoding: binary}
`

// edit replaces line n (1-based) of base with repl, which may hold
// several lines or none.
func edit(n int, repl string) string {
	lines := strings.Split(strings.TrimSuffix(base, "\n"), "\n")
	var out []string
	out = append(out, lines[:n-1]...)
	if repl != "" {
		out = append(out, strings.Split(repl, "\n")...)
	}
	out = append(out, lines[n:]...)
	return strings.Join(out, "\n") + "\n"
}

// after appends lines after line n of base.
func after(n int, extra string) string {
	lines := strings.Split(strings.TrimSuffix(base, "\n"), "\n")
	return edit(n, lines[n-1]+"\n"+extra)
}

func TestLoadBase(t *testing.T) {
	c := mustParse(t, base)
	tb := mustTable(t, c, "t")
	if got, want := tb.Key.String(), "a:str| | b:i64f"; got != want {
		t.Fatalf("key = %q, want %q", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string
	}{
		{"empty", "", `the catalog is empty: it needs a tables: list`},
		{"unknown key at top", "tables: []\nbogus: 1\n", `line 2: unknown key "bogus" in the catalog (known keys: tables)`},
		{"unknown key in table", after(2, "    bogus: 1"), `line 3: unknown key "bogus" in a table (known keys: name, hbase, doc, families, columns, rowkey, splits, split, indexes, wide, phoenix)`},
		{"unknown key in family", edit(4, "      - {name: d, versoins: 2}"), `line 4: unknown key "versoins" in a family (known keys: name, versions, ttl, compression, bloomfilter, blocksize, blockcache, in_memory)`},
		{"unknown key in column", edit(6, "      - {name: a, type: STRING, nullable: true}"), `line 6: unknown key "nullable" in a column (known keys: name, type, column, encoding, width, unsigned, phoenix, family, qualifier)`},
		{"unknown key in component", edit(9, "      - {field: a, wdth: 3}"), `line 9: unknown key "wdth" in a rowkey component (known keys: field, encoding, width, pad, align, order, reverse, hash, of, mod, bucket, salt, random, literal, binary, unsigned, unit, seed, group, phoenix)`},
		{"unknown key in split", after(11, "    split: {algorithm: HexStringSplit, regoins: 4}"), `line 12: unknown key "regoins" in split (known keys: algorithm, regions, buckets)`},
		{"duplicate key", after(2, "    name: u"), `line 3: key "name" is given twice (first at line 2)`},
		{"duplicate key in flow mapping", edit(6, "      - {name: a, type: STRING, type: BIGINT}"), `line 6: key "type" is given twice (first at line 6)`},
		{"wrong kind of value", edit(9, "      - {field: a, width: abc}"), `line 9: want a whole number, not "abc"`},
		{"list where a mapping belongs", edit(9, "      - [field, a]"), `line 9: want a mapping, not a list`},
		{"duplicate table", base + strings.Join(strings.Split(base, "\n")[1:], "\n"), `line 12: table "t" is defined twice`},
		{"duplicate column", after(7, "      - {name: a, type: INT, column: \"d:x\"}"), `line 8: column "a" is defined twice`},
		{"column mapped twice", after(7, "      - {name: c, type: INT, column: \"d:b\"}"), `line 8: columns "b" and "c" are both mapped to d:b`},
		{"unknown type", edit(6, "      - {name: a, type: STRNG}"), `line 6: column "a" has unknown type "STRNG" (want STRING, BIGINT, INT, DOUBLE, BOOLEAN, TIMESTAMP, DATE, BYTES or MAP<key, value>)`},
		{"unknown family", edit(7, "      - {name: b, type: BIGINT, column: \"x:b\"}"), `line 7: column "b": table "t" has no family "x" (families: d)`},
		{"not family:qualifier", edit(7, "      - {name: b, type: BIGINT, column: \"d\"}"), `line 7: column "b": "d" is not family:qualifier`},
		{"column in neither key nor family", after(7, "      - {name: c, type: INT}"), `line 8: column "c" is neither in the rowkey nor mapped to a family:qualifier`},
		{"variable width not followed by a literal", edit(10, ""), `line 9: field "a" has no fixed width and is not followed by a literal delimiter, so its end cannot be found: give it a width or put a literal after it`},
		{"salt not first", after(9, "      - {salt: 4}"), `line 10: a salt byte must be the first rowkey component`},
		{"bad pad", edit(9, "      - {field: a, width: 8, pad: xy}"), `line 9: field "a": pad "xy" must be one byte: a character or \xNN`},
		{"pad character U+00FF in double quotes", edit(9, "      - {field: a, width: 8, pad: \"\\u00FF\"}"), `line 9: field "a": pad "ÿ" must be one byte: a character or \xNN`},
		{"pad without width", edit(9, "      - {field: a, pad: x}"), `line 9: field "a": pad and align need a fixed-width text field (width: N)`},
		{"width too small", after(8, "      - {bucket: b, mod: 100, width: 1}"), `line 9: width 1 is too small: bucket % 100 needs 2 to hold values up to 99`},
		{"width over 8", after(8, "      - {random: 10, width: 9}"), `line 9: width 9 is over 8: a random value takes at most 8 bytes or digits`},
		{"negative width", edit(9, "      - {field: a, width: -2}"), `line 9: width -2 cannot be negative`},
		{"md5 too wide", after(8, "      - {hash: md5, of: [a], width: 33}"), `line 9: md5 takes a width of 1..32 hex characters, not 33`},
		{"binary width", edit(11, "      - {field: b, encoding: binary, width: 9}"), `line 11: field "b": BIGINT takes 8 bytes in sortable, not 9`},
		{"two kinds in one component", edit(9, "      - {field: a, literal: x}"), `line 9: a rowkey component needs exactly one of field, literal, hash, bucket, salt, random or group`},
		{"split both ways", after(11, "    splits: [\"a\"]\n    split: {algorithm: HexStringSplit, regions: 4}"), `line 13: give either splits or split, not both`},
		{"splits out of order", after(11, "    splits: [\"b\", \"c\", \"a\"]"), `line 12: split "a" is not after the split before it ("c"): splits must be in increasing byte order`},
		{"split with a bad escape", after(11, "    splits: ['\\x1g']"), `line 12: split '\x1g': bad escape '\x1g' (want \xNN with two hex digits)`},
		{"empty split", after(11, "    splits: [\"\"]"), `line 12: a split key cannot be empty`},
		{"unknown split algorithm", after(11, "    split: {algorithm: RandomSplit, regions: 4}"), `line 12: unknown split algorithm "RandomSplit" (want HexStringSplit, DecimalStringSplit or UniformSplit)`},
		{"split without algorithm", after(11, "    split: {regions: 4}"), `line 12: split needs an algorithm (HexStringSplit, DecimalStringSplit or UniformSplit) with regions, or buckets: true`},
		{"too few regions", after(11, "    split: {algorithm: UniformSplit, regions: 1}"), `line 12: split algorithm UniformSplit needs regions between 2 and 65536, not 1`},
		{"too many regions", after(11, "    split: {algorithm: HexStringSplit, regions: 100000}"), `line 12: split algorithm HexStringSplit needs regions between 2 and 65536, not 100000`},
		{"buckets without a bucket", after(11, "    split: {buckets: true}"), `line 12: split by buckets needs a salt, bucket or hash component first in the rowkey`},
		{"unknown field in rowkey", edit(9, "      - {field: z}"), `line 9: rowkey field "z" is not a column of table "t"`},
		{"field twice in rowkey", edit(10, "      - {literal: \"|\"}\n      - {field: a}\n      - {literal: \"|\"}"), `line 11: field "a" appears twice in the rowkey`},
		{"bad table name", edit(2, "  - name: t-1"), `line 2: table name "t-1" must be letters, digits and underscores`},
		{"no rowkey", edit(8, "")[:strings.Index(edit(8, ""), "      - {field: a}")], `line 2: table "t" has no rowkey`},
		{"index over unknown column", after(11, "    indexes:\n      - name: t_by_z\n        rowkey:\n          - {field: z}"), `line 15: index "t_by_z": "z" is not a column of table "t"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			if err == nil {
				t.Fatalf("Parse succeeded, want %q\n%s", tc.want, tc.src)
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is %T, want *LoadError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("\n got: %s\nwant: %s", err, tc.want)
			}
		})
	}
}

func TestLoadFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cat.yaml")
	if err := os.WriteFile(path, []byte(edit(6, "      - {name: a, type: STRNG}")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	want := path + `:6: column "a" has unknown type "STRNG" (want STRING, BIGINT, INT, DOUBLE, BOOLEAN, TIMESTAMP, DATE, BYTES or MAP<key, value>)`
	if err == nil || err.Error() != want {
		t.Fatalf("LoadFile error\n got: %v\nwant: %s", err, want)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.HasPrefix(err.Error(), "catalog: open ") {
		t.Fatalf("LoadFile(missing) = %v, want a catalog: open error", err)
	}
}

// TestIndexOf: an index table names its data table; a data table names
// none.
func TestIndexOf(t *testing.T) {
	c := mustParse(t, base+`    indexes:
      - name: t_by_b
        rowkey:
          - {field: b, encoding: binary}
        carries: [a]
`)
	data, ix := mustTable(t, c, "t"), mustTable(t, c, "t_by_b")
	if data.IndexOf != nil {
		t.Errorf("data table: IndexOf = %s, want nil", data.IndexOf.Name)
	}
	if ix.IndexOf != data {
		t.Errorf("index table: IndexOf = %v, want table t", ix.IndexOf)
	}
	if len(data.Indexes) != 1 || data.Indexes[0].Table != ix {
		t.Errorf("table t's index is not t_by_b")
	}
}

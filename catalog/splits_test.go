package catalog

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func hexKeys(keys [][]byte) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = ToStringBinary(k)
	}
	return out
}

// TestAlgorithmSplits checks RegionSplitter's algorithms against the keys
// HBase computes. NumberStringSplit (Hex and Decimal) splits the inclusive
// range first..last, of size last-first+1, at first + i*(size/n), printed
// lower-case and left-padded with '0' to 8 characters. UniformSplit is
// Bytes.split(empty, 8 x 0xFF, inclusive, n-1): 2^64 values, interval
// 2^64/n, each key the 8 big-endian bytes of i*interval.
func TestAlgorithmSplits(t *testing.T) {
	cases := []struct {
		alg  string
		n    int
		want []string
	}{
		{"HexStringSplit", 16, []string{
			"10000000", "20000000", "30000000", "40000000", "50000000", "60000000", "70000000",
			"80000000", "90000000", "a0000000", "b0000000", "c0000000", "d0000000", "e0000000", "f0000000"}},
		{"HexStringSplit", 3, []string{"55555555", "aaaaaaaa"}},
		{"HexStringSplit", 2, []string{"80000000"}},
		// 2^32/10 = 429496729 = 0x19999999.
		{"HexStringSplit", 10, []string{"19999999", "33333332", "4ccccccb", "66666664", "7ffffffd", "99999996", "b333332f", "ccccccc8", "e6666661"}},
		{"DecimalStringSplit", 16, []string{
			"06250000", "12500000", "18750000", "25000000", "31250000", "37500000", "43750000",
			"50000000", "56250000", "62500000", "68750000", "75000000", "81250000", "87500000", "93750000"}},
		{"DecimalStringSplit", 3, []string{"33333333", "66666666"}},
		{"UniformSplit", 16, []string{
			`\x10\x00\x00\x00\x00\x00\x00\x00`, ` \x00\x00\x00\x00\x00\x00\x00`, `0\x00\x00\x00\x00\x00\x00\x00`,
			`@\x00\x00\x00\x00\x00\x00\x00`, `P\x00\x00\x00\x00\x00\x00\x00`, "`\\x00\\x00\\x00\\x00\\x00\\x00\\x00",
			`p\x00\x00\x00\x00\x00\x00\x00`, `\x80\x00\x00\x00\x00\x00\x00\x00`, `\x90\x00\x00\x00\x00\x00\x00\x00`,
			`\xA0\x00\x00\x00\x00\x00\x00\x00`, `\xB0\x00\x00\x00\x00\x00\x00\x00`, `\xC0\x00\x00\x00\x00\x00\x00\x00`,
			`\xD0\x00\x00\x00\x00\x00\x00\x00`, `\xE0\x00\x00\x00\x00\x00\x00\x00`, `\xF0\x00\x00\x00\x00\x00\x00\x00`}},
		{"UniformSplit", 3, []string{`UUUUUUUU`, `\xAA\xAA\xAA\xAA\xAA\xAA\xAA\xAA`}},
		{"uniformsplit", 2, []string{`\x80\x00\x00\x00\x00\x00\x00\x00`}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%d", tc.alg, tc.n), func(t *testing.T) {
			keys, err := algorithmSplits(tc.alg, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if got := hexKeys(keys); strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("splits\n got: %q\nwant: %q", got, tc.want)
			}
			for i := 1; i < len(keys); i++ {
				if bytes.Compare(keys[i-1], keys[i]) >= 0 {
					t.Fatalf("splits out of order at %d", i)
				}
			}
		})
	}
	if _, err := algorithmSplits("DecimalStringSplit", 100_000_001); err == nil {
		t.Fatal("DecimalStringSplit with more regions than values must fail")
	}
}

func TestSplitKeys(t *testing.T) {
	cat := loadExamples(t)
	cases := []struct {
		table string
		want  string
	}{
		{"logs", `\x01 \x02 \x03 \x04 \x05 \x06 \x07 \x08 \x09 \x0A \x0B \x0C \x0D \x0E \x0F`},
		{"user_calendar_record", `1 2 3 4 5 6 7 8 9`},
		{"orders", `10000000 20000000 30000000 40000000 50000000 60000000 70000000 80000000 90000000 a0000000 b0000000 c0000000 d0000000 e0000000 f0000000`},
	}
	for _, tc := range cases {
		t.Run(tc.table, func(t *testing.T) {
			tb := mustTable(t, cat, tc.table)
			if got := strings.Join(hexKeys(tb.SplitKeys()), " "); got != tc.want {
				t.Fatalf("SplitKeys\n got: %s\nwant: %s", got, tc.want)
			}
		})
	}
	// Buckets over a salt, a decimal bucket and an md5 prefix.
	src := `
tables:
  - name: salted
    columns: [{name: k, type: STRING}]
    rowkey: [{salt: 4}, {field: k}]
    split: {buckets: true}
  - name: dec_bucket
    columns: [{name: n, type: BIGINT}]
    rowkey: [{bucket: n, mod: 12}, {field: n}]
    split: {buckets: true}
  - name: md5_1
    columns: [{name: k, type: STRING}]
    rowkey: [{hash: md5, of: [k], width: 1}, {field: k}]
    split: {buckets: true}
`
	c2 := mustParse(t, src)
	for name, want := range map[string]string{
		"salted":     `\x01 \x02 \x03`,
		"dec_bucket": `01 02 03 04 05 06 07 08 09 10 11`,
		"md5_1":      `1 2 3 4 5 6 7 8 9 a b c d e f`,
	} {
		if got := strings.Join(hexKeys(mustTable(t, c2, name).SplitKeys()), " "); got != want {
			t.Errorf("%s: SplitKeys = %s, want %s", name, got, want)
		}
	}
}

func TestParseBinary(t *testing.T) {
	cases := []struct {
		in, want, err string
	}{
		{`abc`, "abc", ""},
		{`\x00\xFFa\x7f`, "\x00\xffa\x7f", ""},
		{`\\`, `\`, ""},
		{`\x1g`, "", `bad escape '\x1g' (want \xNN with two hex digits)`},
		{`a\x1`, "", `bad escape at byte 1 of 'a\x1' (want \xNN, or \\ for a backslash)`},
		{`\q`, "", `bad escape at byte 0 of '\q' (want \xNN, or \\ for a backslash)`},
		{`\x+1`, "", `bad escape '\x+1' (want \xNN with two hex digits)`},
	}
	for _, tc := range cases {
		got, err := ParseBinary(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseBinary(%q) error = %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("ParseBinary(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	// ParseBinary reads what ToStringBinary prints.
	for i := range 256 {
		b := []byte{byte(i), 'a', byte(255 - i), '\\'}
		got, err := ParseBinary(ToStringBinary(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("ParseBinary(ToStringBinary(%x)) = %x, %v", b, got, err)
		}
	}
}

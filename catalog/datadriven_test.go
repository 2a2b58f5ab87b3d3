package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// TestCodecDataDriven runs testdata/codec against the example catalog.
//
//	encode table=T [random=N]
//	field=value
//	...
//	----
//	key:   the key as Bytes.toStringBinary prints it
//	hex:   the key in hex
//	parts: each component's bytes in brackets, in layout order
//
//	decode table=T
//	key (as toStringBinary prints it)
//	----
//	field=value, one per key field in layout order
//
// Errors print as "error: ...". Regenerate with -rewrite.
func TestCodecDataDriven(t *testing.T) {
	cat := loadExamples(t)
	datadriven.RunTest(t, "testdata/codec", func(t *testing.T, d *datadriven.TestData) string {
		var name string
		d.ScanArgs(t, "table", &name)
		tb, ok := cat.Table(name)
		if !ok {
			t.Fatalf("%s: no table %q", d.Pos, name)
		}
		switch d.Cmd {
		case "encode":
			rnd := int64(0)
			if d.HasArg("random") {
				d.ScanArgs(t, "random", &rnd)
			}
			row, err := parseRow(tb, d.Input)
			if err != nil {
				t.Fatalf("%s: %v", d.Pos, err)
			}
			key, err := tb.EncodeKey(row, rndConst(rnd))
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return describeKey(tb, key)
		case "decode":
			key, err := ParseBinary(strings.TrimSpace(d.Input))
			if err != nil {
				t.Fatalf("%s: %v", d.Pos, err)
			}
			row := tb.NewRow()
			if err := tb.DecodeKey(key, row, nil); err != nil {
				return "error: " + err.Error() + "\n"
			}
			var b strings.Builder
			for _, i := range tb.KeyColumns() {
				fmt.Fprintf(&b, "%s=%s\n", tb.Columns[i].Name, row[i].Text())
			}
			return b.String()
		}
		t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
		return ""
	})
}

func describeKey(tb *Table, key []byte) string {
	offs := make([]int, len(tb.Key.Components)+1)
	if err := tb.DecodeKey(key, tb.NewRow(), offs); err != nil {
		return "error: the encoded key does not decode: " + err.Error() + "\n"
	}
	parts := make([]string, len(tb.Key.Components))
	for i := range parts {
		parts[i] = "[" + ToStringBinary(key[offs[i]:offs[i+1]]) + "]"
	}
	return fmt.Sprintf("key:   %s\nhex:   %x\nparts: %s\n", ToStringBinary(key), key, strings.Join(parts, ""))
}

// parseRow reads field=value lines into a row of tb.
func parseRow(tb *Table, input string) (Row, error) {
	row := tb.NewRow()
	for _, line := range strings.Split(input, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, text, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not field=value", line)
		}
		i, ok := tb.Column(name)
		if !ok {
			return nil, fmt.Errorf("table %s has no column %q", tb.Name, name)
		}
		v, err := parseValue(tb.Columns[i].Type, text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		row[i] = v
	}
	return row, nil
}

func parseValue(typ Type, s string) (Value, error) {
	switch typ {
	case TypeString, TypeBytes:
		b, err := ParseBinary(s)
		if err != nil {
			return Value{}, err
		}
		if typ == TypeBytes {
			return Bytes(b), nil
		}
		return String(string(b)), nil
	case TypeBigint, TypeInt:
		n, err := strconv.ParseInt(s, 10, 64)
		return Value{Type: typ, I: n}, err
	case TypeDouble:
		f, err := strconv.ParseFloat(s, 64)
		return Double(f), err
	case TypeBoolean:
		x, err := strconv.ParseBool(s)
		return Bool(x), err
	case TypeDate:
		tm, err := time.Parse("2006-01-02", s)
		return Date(tm), err
	case TypeTimestamp:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return TimestampMillis(n), nil
		}
		tm, err := time.Parse("2006-01-02 15:04:05.999", s)
		return Timestamp(tm), err
	}
	return Value{}, fmt.Errorf("type %s", typ)
}

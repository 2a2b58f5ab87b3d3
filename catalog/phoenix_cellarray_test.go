package catalog

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// A cell array as Phoenix 5.2 wrote it for (A INTEGER 1, B NULL, C VARCHAR
// 'y'), read and written back; and malformed ones refused in a line.
func TestPhoenixCellArray(t *testing.T) {
	// The data x, 80000001, y; the offsets 0, 1, -5 (NULL), 5; from 6; 4
	// elements; version 3.
	phx, _ := hex.DecodeString("78" + "80000001" + "79" + "0000" + "0001" + "fffb" + "0005" + "00000006" + "00000004" + "03")
	got, err := DecodePhoenixCellArray(phx)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{{0x80, 0, 0, 1}, nil, {'y'}}
	if len(got) != 3 || !bytes.Equal(got[0], want[0]) || got[1] != nil || !bytes.Equal(got[2], want[2]) {
		t.Fatalf("read %x", got)
	}
	if b, err := EncodePhoenixCellArray(want); err != nil || !bytes.Equal(b, phx) {
		t.Fatalf("wrote %x (%v), want %x", b, err, phx)
	}
	for _, c := range []struct{ hex, want string }{
		{"7803", "too short"},
		{"78" + "0000" + "00000001" + "00000001" + "02", "version 2"},
		{"78" + "0000" + "00000001" + "00000002" + "03", "not of 2-byte offsets"},
		{"79" + "0000" + "00000001" + "00000001" + "03", "element 0 is not"},
		{"78" + "0005" + "00000001" + "00000001" + "03", "runs from 5 to 1"},
	} {
		b, _ := hex.DecodeString(c.hex)
		if _, err := DecodePhoenixCellArray(b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.hex, err, c.want)
		}
	}
	if _, err := EncodePhoenixCellArray([][]byte{make([]byte, 1<<15)}); err == nil {
		t.Error("a cell array past 2-byte offsets is written")
	}
}

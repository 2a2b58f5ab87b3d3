package hbase

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestDecodeWorkedCell(t *testing.T) {
	// Row "r", family "cf", qualifier "q", ts 1, Put, value "v".
	b, _ := hex.DecodeString("00000019" + "00000010" + "00000001" + "000172" + "026366" + "71" + "0000000000000001" + "04" + "76")
	cells, rest, err := decodeCells(nil, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := Cell{Row: []byte("r"), Family: []byte("cf"), Qualifier: []byte("q"), Timestamp: 1, Type: CellPut, Value: []byte("v")}
	if len(rest) != 0 || len(cells) != 1 || fmt.Sprint(cells[0]) != fmt.Sprint(want) {
		t.Errorf("got %+v rest %x", cells, rest)
	}
	if got := appendCell(nil, want); !bytes.Equal(got, b) {
		t.Errorf("appendCell = %x, want %x", got, b)
	}
}

func TestCellRoundTrip(t *testing.T) {
	cells := []Cell{
		{Row: []byte("row1"), Family: []byte("f"), Qualifier: []byte(""), Timestamp: LatestTimestamp, Type: CellDeleteFamily},
		{Row: []byte{0, 0xff}, Family: []byte("fam"), Qualifier: []byte("qual"), Timestamp: -1, Type: CellPut, Value: bytes.Repeat([]byte("x"), 300)},
		{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte("q"), Type: CellPut},
	}
	var b []byte
	for _, c := range cells {
		b = appendCell(b, c)
	}
	b = append(b, "tail"...)
	got, rest, err := decodeCells(nil, b, len(cells))
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != "tail" {
		t.Errorf("rest = %q", rest)
	}
	for i := range cells {
		if fmt.Sprint(got[i]) != fmt.Sprint(cells[i]) {
			t.Errorf("cell %d: got %+v want %+v", i, got[i], cells[i])
		}
	}
}

func TestDecodeCellsRejectsCorruption(t *testing.T) {
	good := appendCell(nil, Cell{Row: []byte("row"), Family: []byte("f"), Qualifier: []byte("q"), Value: []byte("v")})
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := map[string][]byte{
		"empty":          nil,
		"short-length":   good[:3],
		"truncated":      good[:len(good)-1],
		"kv-too-short":   mutate(func(b []byte) []byte { b[3] = 4; return b }),
		"key-too-long":   mutate(func(b []byte) []byte { b[7] = 200; return b }),
		"key-too-short":  mutate(func(b []byte) []byte { b[7] = 5; return b }),
		"value-too-long": mutate(func(b []byte) []byte { b[11] = 200; return b }),
		"row-too-long":   mutate(func(b []byte) []byte { b[13] = 100; return b }),
		"family-too-long": mutate(func(b []byte) []byte {
			b[4+4+4+2+3] = 100
			return b
		}),
	}
	for name, b := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := decodeCells(nil, b, 1); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func TestNewResultMixesInlineAndCellblock(t *testing.T) {
	inline := &pb.Cell{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte("a"), Timestamp: proto.Uint64(5),
		CellType: pb.CellType_PUT.Enum(), Value: []byte("1")}
	block := appendCell(nil, Cell{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte("b"), Timestamp: 6, Type: CellPut, Value: []byte("2")})
	block = appendCell(block, Cell{Row: []byte("s"), Family: []byte("f"), Qualifier: []byte("c"), Type: CellPut})
	res, rest, err := newResult(&pb.Result{Cell: []*pb.Cell{inline}, AssociatedCellCount: proto.Int32(1), Partial: proto.Bool(true)}, block)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Row) != "r" || len(res.Cells) != 2 || !res.partial || string(res.Value("f", "b")) != "2" || string(res.Value("f", "a")) != "1" {
		t.Errorf("result %+v", res)
	}
	res2, rest, err := newResult(&pb.Result{AssociatedCellCount: proto.Int32(1)}, rest)
	if err != nil || len(rest) != 0 || string(res2.Row) != "s" {
		t.Errorf("second result %+v rest %x err %v", res2, rest, err)
	}
	if _, _, err := newResult(&pb.Result{AssociatedCellCount: proto.Int32(1)}, nil); err == nil {
		t.Error("want an error for a missing cellblock")
	}
	if (*Result)(nil).Value("f", "a") != nil {
		t.Error("nil result has a value")
	}
}

func TestScanResultsBothEncodings(t *testing.T) {
	var block []byte
	for _, row := range []string{"a", "a", "b"} {
		block = appendCell(block, Cell{Row: []byte(row), Family: []byte("f"), Qualifier: []byte("q" + row), Type: CellPut})
	}
	resp := &pb.ScanResponse{CellsPerResult: []uint32{1, 1, 1}, PartialFlagPerResult: []bool{true, false, false}}
	got, err := scanResults(resp, block)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !got[0].partial || got[1].partial || string(got[2].Row) != "b" {
		t.Errorf("cellblock results %+v", got)
	}
	inline := &pb.ScanResponse{Results: []*pb.Result{{Cell: []*pb.Cell{{Row: []byte("x"), Family: []byte("f")}}, Partial: proto.Bool(true)}}}
	got, err = scanResults(inline, nil)
	if err != nil || len(got) != 1 || string(got[0].Row) != "x" || !got[0].partial {
		t.Errorf("inline results %+v %v", got, err)
	}
	if _, err := scanResults(&pb.ScanResponse{CellsPerResult: []uint32{2}}, block[:10]); err == nil {
		t.Error("want an error for a short cellblock")
	}
}

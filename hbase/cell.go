package hbase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// LatestTimestamp is the timestamp HBase reads as "now, on the server".
const LatestTimestamp = math.MaxInt64

// CellType is the kind of a cell, numbered as HBase's KeyValue.Type.
type CellType uint8

// Cell types.
const (
	CellPut                 CellType = 4
	CellDelete              CellType = 8
	CellDeleteFamilyVersion CellType = 10
	CellDeleteColumn        CellType = 12
	CellDeleteFamily        CellType = 14
)

// Cell is one version of one column of one row.
//
// In results the byte slices point into the response buffer; they stay
// valid, but copy them before modifying them.
type Cell struct {
	Row       []byte
	Family    []byte
	Qualifier []byte
	// Timestamp is in milliseconds since the Unix epoch. In a Put, zero
	// means "let the server assign the time".
	Timestamp int64
	Type      CellType
	Value     []byte
}

// Result is one row, or part of one when a scan returns partial rows.
// A Get of a missing row returns a Result with nil Row and no Cells.
type Result struct {
	Row   []byte
	Cells []Cell

	// partial is true while more cells of Row may follow.
	partial bool
}

// Value returns the newest value of family:qualifier, or nil.
func (r *Result) Value(family, qualifier string) []byte {
	if r == nil {
		return nil
	}
	for _, c := range r.Cells {
		if string(c.Family) == family && string(c.Qualifier) == qualifier {
			return c.Value // cells are sorted newest first within a column
		}
	}
	return nil
}

func cellFromProto(c *pb.Cell) Cell {
	return Cell{
		Row: c.GetRow(), Family: c.GetFamily(), Qualifier: c.GetQualifier(),
		Timestamp: int64(c.GetTimestamp()), Type: CellType(c.GetCellType()), Value: c.GetValue(),
	}
}

// newResult builds a Result from a protobuf Result: its inline cells, then
// associated_cell_count cells taken from the front of the cellblock. It
// returns the rest of the cellblock.
func newResult(r *pb.Result, cellblock []byte) (*Result, []byte, error) {
	res := &Result{partial: r.GetPartial()}
	for _, c := range r.GetCell() {
		res.Cells = append(res.Cells, cellFromProto(c))
	}
	n := int(r.GetAssociatedCellCount())
	if n > 0 {
		var err error
		res.Cells, cellblock, err = decodeCells(res.Cells, cellblock, n)
		if err != nil {
			return nil, nil, err
		}
	}
	if len(res.Cells) > 0 {
		res.Row = res.Cells[0].Row
	}
	return res, cellblock, nil
}

var errShortCellblock = errors.New("hbase: cellblock ends early")

// decodeCells reads n KeyValue-encoded cells from b and appends them to
// dst. Each cell is
//
//	int32 total length, int32 key length, int32 value length,
//	int16 row length, row, int8 family length, family, qualifier,
//	int64 timestamp, uint8 type, value [, tags]
//
// The returned cells alias b.
func decodeCells(dst []Cell, b []byte, n int) ([]Cell, []byte, error) {
	for i := 0; i < n; i++ {
		if len(b) < 4 {
			return nil, nil, errShortCellblock
		}
		kvLen := int(binary.BigEndian.Uint32(b))
		if kvLen < 8 || kvLen > len(b)-4 {
			return nil, nil, fmt.Errorf("hbase: cell length %d does not fit the cellblock", kvLen)
		}
		kv := b[4 : 4+kvLen]
		b = b[4+kvLen:]
		c, err := decodeKeyValue(kv)
		if err != nil {
			return nil, nil, err
		}
		dst = append(dst, c)
	}
	return dst, b, nil
}

func decodeKeyValue(kv []byte) (Cell, error) {
	keyLen := int(binary.BigEndian.Uint32(kv))
	valLen := int(binary.BigEndian.Uint32(kv[4:]))
	const fixed = 2 + 1 + 8 + 1 // row length, family length, timestamp, type
	if keyLen < fixed || valLen < 0 || keyLen > len(kv)-8 || valLen > len(kv)-8-keyLen {
		return Cell{}, fmt.Errorf("hbase: bad cell key length %d or value length %d", keyLen, valLen)
	}
	key := kv[8 : 8+keyLen]
	rowLen := int(binary.BigEndian.Uint16(key))
	if rowLen > keyLen-fixed {
		return Cell{}, fmt.Errorf("hbase: bad cell row length %d", rowLen)
	}
	famLen := int(key[2+rowLen])
	qualLen := keyLen - fixed - rowLen - famLen
	if qualLen < 0 {
		return Cell{}, fmt.Errorf("hbase: bad cell family length %d", famLen)
	}
	p := 2
	c := Cell{Row: key[p : p+rowLen : p+rowLen]}
	p += rowLen + 1
	c.Family = key[p : p+famLen : p+famLen]
	p += famLen
	c.Qualifier = key[p : p+qualLen : p+qualLen]
	p += qualLen
	c.Timestamp = int64(binary.BigEndian.Uint64(key[p:]))
	c.Type = CellType(key[p+8])
	c.Value = kv[8+keyLen : 8+keyLen+valLen : 8+keyLen+valLen]
	return c, nil
}

// appendCell encodes c as a cellblock entry (KeyValueCodec, no tags).
func appendCell(b []byte, c Cell) []byte {
	keyLen := 2 + len(c.Row) + 1 + len(c.Family) + len(c.Qualifier) + 8 + 1
	b = binary.BigEndian.AppendUint32(b, uint32(8+keyLen+len(c.Value)))
	b = binary.BigEndian.AppendUint32(b, uint32(keyLen))
	b = binary.BigEndian.AppendUint32(b, uint32(len(c.Value)))
	b = binary.BigEndian.AppendUint16(b, uint16(len(c.Row)))
	b = append(b, c.Row...)
	b = append(b, byte(len(c.Family)))
	b = append(b, c.Family...)
	b = append(b, c.Qualifier...)
	b = binary.BigEndian.AppendUint64(b, uint64(c.Timestamp))
	b = append(b, byte(c.Type))
	return append(b, c.Value...)
}

// stitch appends the cells of a partial piece to a Result being built.
func (r *Result) stitch(piece *Result) bool {
	if !bytes.Equal(r.Row, piece.Row) {
		return false
	}
	r.Cells = append(r.Cells, piece.Cells...)
	r.partial = piece.partial
	return true
}

package catalog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"
)

// EncodeCell writes a stored column's value as its Encoding says: binary as
// Java's Bytes.toBytes (long, int, double, boolean as 0xFF/0x00, string as
// UTF-8; TIMESTAMP as a long of ms, DATE as an int of days), or text (a
// DOUBLE as Java's Double.toString writes it: 3.0, 1.0E-4).
func (c *Column) EncodeCell(v Value) []byte {
	if c.Encoding == EncPhoenix {
		// CheckCell refused what Phoenix's type cannot hold.
		b, _ := phoenixEncode(nil, c.Phoenix, c.Type, v, c.Width)
		return b
	}
	if c.Encoding == EncText {
		switch c.Type {
		case TypeString:
			return []byte(v.S)
		case TypeBytes:
			return v.B
		case TypeTimestamp:
			return strconv.AppendInt(nil, v.I, 10)
		case TypeDate:
			return []byte(v.Time().Format("2006-01-02"))
		case TypeBoolean:
			return strconv.AppendBool(nil, v.I != 0)
		case TypeDouble:
			return []byte(javaDouble(v.F))
		}
		return strconv.AppendInt(nil, v.I, 10)
	}
	if c.Width > 0 {
		return appendInt(nil, uint64(v.I), c.Width)
	}
	switch c.Type {
	case TypeString:
		return []byte(v.S)
	case TypeBytes:
		return v.B
	case TypeInt, TypeDate:
		return binary.BigEndian.AppendUint32(nil, uint32(int32(v.I)))
	case TypeBoolean:
		if v.I != 0 {
			return []byte{0xFF}
		}
		return []byte{0}
	case TypeDouble:
		return binary.BigEndian.AppendUint64(nil, math.Float64bits(v.F))
	}
	return binary.BigEndian.AppendUint64(nil, uint64(v.I))
}

// DecodeCell reads a stored column's value. The value does not alias b.
func (c *Column) DecodeCell(b []byte) (Value, error) {
	bad := func() (Value, error) {
		return Value{}, fmt.Errorf("column %s: cannot read %s from '%s'", c.Name, c.Type, ToStringBinary(b))
	}
	if c.Encoding == EncPhoenix {
		v, err := phoenixDecode(b, c.Phoenix, c.Type)
		if err != nil {
			return Value{}, fmt.Errorf("column %s: %v", c.Name, err)
		}
		return v, nil
	}
	if c.Encoding == EncText {
		s := string(b)
		switch c.Type {
		case TypeString:
			return String(s), nil
		case TypeBytes:
			return Bytes(bytes.Clone(b)), nil
		case TypeDouble:
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return bad()
			}
			return Double(f), nil
		case TypeBoolean:
			x, err := strconv.ParseBool(s)
			if err != nil {
				return bad()
			}
			return Bool(x), nil
		case TypeDate:
			t, err := time.Parse("2006-01-02", s)
			if err != nil {
				return bad()
			}
			return Date(t), nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || (c.Type == TypeInt && int64(int32(n)) != n) {
			return bad()
		}
		return Value{Type: c.Type, I: n}, nil
	}
	if c.Width > 0 {
		if len(b) != c.Width {
			return bad()
		}
		n := signExtend(readUint(b), c.Width)
		if c.Unsigned {
			if n = int64(readUint(b)); n < 0 {
				return bad()
			}
		}
		if c.Type == TypeInt && int64(int32(n)) != n {
			return bad()
		}
		return Value{Type: c.Type, I: n}, nil
	}
	switch c.Type {
	case TypeString:
		return String(string(b)), nil
	case TypeBytes:
		return Bytes(bytes.Clone(b)), nil
	case TypeInt, TypeDate:
		if len(b) != 4 {
			return bad()
		}
		return Value{Type: c.Type, I: int64(int32(binary.BigEndian.Uint32(b)))}, nil
	case TypeBoolean:
		if len(b) != 1 {
			return bad()
		}
		return Bool(b[0] != 0), nil
	case TypeDouble:
		if len(b) != 8 {
			return bad()
		}
		return Double(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
	}
	if len(b) != 8 {
		return bad()
	}
	return Value{Type: c.Type, I: int64(binary.BigEndian.Uint64(b))}, nil
}

// CheckCell refuses a value that the column's cell cannot hold: an
// integer outside a narrow java cell's range.
func (c *Column) CheckCell(v Value) error {
	if c.Encoding == EncPhoenix {
		if v.Null {
			return nil
		}
		if _, err := phoenixEncode(nil, c.Phoenix, c.Type, v, c.Width); err != nil {
			return fmt.Errorf("column %s: %v", c.Name, err)
		}
		return nil
	}
	if c.Width == 0 || c.Width >= 8 && !c.Unsigned || v.Null {
		return nil
	}
	k := Component{Width: c.Width, Unsigned: c.Unsigned}
	lo, hi := -k.javaMax()-1, k.javaMax()
	if c.Unsigned {
		lo = 0
	}
	if v.I < lo || v.I > hi {
		return fmt.Errorf("column %s: %s does not fit in %d bytes", c.Name, v, c.Width)
	}
	return nil
}

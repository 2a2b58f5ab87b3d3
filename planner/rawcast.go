package planner

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// javaWidths are the CASTs of a raw read's bytes: the SQL type, the
// number of bytes Java's Bytes.toBytes writes for it (0: any), and the
// Java type named in errors.
var javaWidths = map[string]struct {
	t     catalog.Type
	width int
	java  string
}{
	"BIGINT": {catalog.TypeBigint, 8, "long"}, "LONG": {catalog.TypeBigint, 8, "long"},
	"INT": {catalog.TypeInt, 4, "int"}, "INTEGER": {catalog.TypeInt, 4, "int"},
	"SMALLINT": {catalog.TypeInt, 2, "short"},
	"DOUBLE":   {catalog.TypeDouble, 8, "double"}, "FLOAT": {catalog.TypeDouble, 4, "float"},
	"BOOLEAN": {catalog.TypeBoolean, 1, "boolean"}, "BOOL": {catalog.TypeBoolean, 1, "boolean"},
	"VARCHAR": {catalog.TypeString, 0, "String"}, "STRING": {catalog.TypeString, 0, "String"}, "TEXT": {catalog.TypeString, 0, "String"},
}

// javaCast is CAST(x AS typ) over bytes, read as Bytes.toBytes wrote
// them: big-endian two's complement integers, IEEE floats, one byte for
// a boolean (true unless 0), UTF-8 text (Bytes.toString: a malformed
// sequence becomes U+FFFD). Bytes of another length are an error that
// names the cell's bytes. ok is false for a type it does not read.
func javaCast(x expr.Scalar, typ string) (expr.Scalar, bool) {
	w, ok := javaWidths[strings.ToUpper(typ)]
	if !ok {
		return nil, false
	}
	name := "CAST_" + strings.ToUpper(typ)
	return &expr.Func{Name: name, Args: []expr.Scalar{x}, T: w.t, Apply: func(args []catalog.Value) (catalog.Value, error) {
		v := args[0]
		if v.Null {
			return catalog.Null(w.t), nil
		}
		b := v.B
		if w.width > 0 && len(b) != w.width {
			return catalog.Value{}, fmt.Errorf("CAST(%s AS %s): '%s' is %d bytes, and Bytes.toBytes(%s) writes %d", x, strings.ToUpper(typ), catalog.ToStringBinary(b), len(b), w.java, w.width)
		}
		switch w.width {
		case 8:
			if w.t == catalog.TypeDouble {
				return catalog.Double(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
			}
			return catalog.Bigint(int64(binary.BigEndian.Uint64(b))), nil
		case 4:
			if w.t == catalog.TypeDouble {
				return catalog.Double(float64(math.Float32frombits(binary.BigEndian.Uint32(b)))), nil
			}
			return catalog.Int(int32(binary.BigEndian.Uint32(b))), nil
		case 2:
			return catalog.Int(int32(int16(binary.BigEndian.Uint16(b)))), nil
		case 1:
			return catalog.Bool(b[0] != 0), nil
		}
		return catalog.String(strings.ToValidUTF8(string(b), "\uFFFD")), nil
	}}, true
}

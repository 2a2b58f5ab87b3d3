package catalog

import (
	"fmt"
	"math/big"
	"strings"
)

// SplitPolicy says where a table's regions start.
type SplitPolicy struct {
	// Explicit split keys, as written in the catalog.
	Explicit [][]byte
	// Algorithm is HexStringSplit, DecimalStringSplit or UniformSplit, with
	// Regions regions.
	Algorithm string
	Regions   int
	// Buckets splits at every value of the key's leading salt, bucket or
	// hash component.
	Buckets bool
}

// SplitKeys returns the table's region boundaries, sorted, without the
// empty first key.
func (t *Table) SplitKeys() [][]byte {
	p := t.Splits
	switch {
	case len(p.Explicit) > 0:
		return p.Explicit
	case p.Buckets:
		c := &t.Key.Components[0]
		vals := c.ValueBytes()
		return vals[1:]
	case p.Algorithm != "":
		keys, _ := algorithmSplits(p.Algorithm, p.Regions)
		return keys
	}
	return nil
}

// algorithmSplits computes the split keys of HBase's RegionSplitter
// algorithms for n regions.
//
// HexStringSplit and DecimalStringSplit (NumberStringSplit) take the range
// of "00000000".."FFFFFFFF" (or .."99999999") inclusive, so its size is
// last-first+1, and split at first + i*(size/n) for i in 1..n-1, printed in
// lower-case in the radix and left-padded with '0' to 8 characters.
//
// UniformSplit calls Bytes.split(empty, 8 x 0xFF, inclusive, n-1): the
// inclusive range over 8 bytes has 2^64 values, the interval is 2^64/n and
// the keys are the 8 big-endian bytes of i*interval.
func algorithmSplits(alg string, n int) ([][]byte, error) {
	var size *big.Int
	radix := 16
	switch strings.ToLower(alg) {
	case "hexstringsplit":
		size = big.NewInt(0x100000000)
	case "decimalstringsplit":
		size, radix = big.NewInt(100000000), 10
	case "uniformsplit":
		size, radix = new(big.Int).Lsh(big.NewInt(1), 64), 0
	default:
		return nil, fmt.Errorf("unknown split algorithm %q (want HexStringSplit, DecimalStringSplit or UniformSplit)", alg)
	}
	if n < 2 {
		return nil, nil
	}
	if size.Cmp(big.NewInt(int64(n))) < 0 {
		return nil, fmt.Errorf("%s cannot make %d regions", alg, n)
	}
	step := new(big.Int).Div(size, big.NewInt(int64(n)))
	out := make([][]byte, 0, n-1)
	for i := 1; i < n; i++ {
		v := new(big.Int).Mul(step, big.NewInt(int64(i)))
		if radix == 0 {
			out = append(out, v.FillBytes(make([]byte, 8)))
			continue
		}
		s := v.Text(radix)
		out = append(out, []byte(strings.Repeat("0", 8-len(s))+s))
	}
	return out, nil
}

// ParseBinary reads text in the form Bytes.toStringBinary prints, turning
// each \xNN escape into its byte.
func ParseBinary(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			out = append(out, '\\')
			i++
			continue
		}
		if i+3 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') {
			hi, lo := unhex(s[i+2]), unhex(s[i+3])
			if hi < 0 || lo < 0 {
				return nil, fmt.Errorf("bad escape '%s' (want \\xNN with two hex digits)", shownText(s[i:i+4]))
			}
			out = append(out, byte(hi<<4|lo))
			i += 3
			continue
		}
		return nil, fmt.Errorf("bad escape at byte %d of '%s' (want \\xNN, or \\\\ for a backslash)", i, shownText(s))
	}
	return out, nil
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

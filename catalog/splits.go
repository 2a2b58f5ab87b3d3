package catalog

import (
	"fmt"
	"math/big"
	"sort"
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

// algorithmSplits computes HBase's RegionSplitter splits: for the string
// algorithms, first + i*(last-first)/n for i in 1..n-1, printed in the
// radix and left-padded to 8 characters; for UniformSplit, the same over
// 8 raw bytes.
func algorithmSplits(alg string, n int) ([][]byte, error) {
	if n < 2 {
		return nil, nil
	}
	var first, last *big.Int
	radix := 16
	switch strings.ToLower(alg) {
	case "hexstringsplit":
		first, last = big.NewInt(0), big.NewInt(0xFFFFFFFF)
	case "decimalstringsplit":
		first, last, radix = big.NewInt(0), big.NewInt(99999999), 10
	case "uniformsplit":
		first = big.NewInt(0)
		last = new(big.Int).SetUint64(^uint64(0))
		radix = 0
	default:
		return nil, fmt.Errorf("unknown split algorithm %q (want HexStringSplit, DecimalStringSplit or UniformSplit)", alg)
	}
	size := new(big.Int).Div(new(big.Int).Sub(last, first), big.NewInt(int64(n)))
	out := make([][]byte, 0, n-1)
	for i := 1; i < n; i++ {
		v := new(big.Int).Add(first, new(big.Int).Mul(size, big.NewInt(int64(i))))
		if radix == 0 {
			b := v.FillBytes(make([]byte, 8))
			out = append(out, b)
			continue
		}
		s := v.Text(radix)
		out = append(out, []byte(strings.Repeat("0", 8-len(s))+s))
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i]) < string(out[j]) })
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
		if i+3 < len(s)+0 && (s[i+1] == 'x' || s[i+1] == 'X') && i+3 <= len(s)-1 {
			var b byte
			if _, err := fmt.Sscanf(s[i+2:i+4], "%02x", &b); err != nil {
				return nil, fmt.Errorf("bad escape %q", s[i:i+4])
			}
			out = append(out, b)
			i += 3
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			out = append(out, '\\')
			i++
			continue
		}
		return nil, fmt.Errorf("bad escape at byte %d of %q (want \\xNN)", i, s)
	}
	return out, nil
}

package infer_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/infer"
)

// FuzzInfer: on any sample Infer does not panic, and a layout it finds
// loads and writes every sampled key back byte for byte.
func FuzzInfer(f *testing.F) {
	f.Add([]byte("a|1\x00b|22\x00c|333"), byte('\x00'))
	f.Add([]byte("3f2as1|\x7f\xff\x00ab12|\x7f\xfe"), byte('|'))
	f.Add([]byte("0000000042000000001234070000000042000000001234"), byte('7'))
	f.Fuzz(func(t *testing.T, data []byte, sep byte) {
		var s infer.Sample
		for _, k := range bytes.Split(data, []byte{sep}) {
			s.Rows = append(s.Rows, infer.Row{Key: k, Cells: []infer.Cell{{Family: "f", Qualifier: "q", Value: k}}})
		}
		checkInvariant(t, s)
	})
}

// TestInferInvariant runs the invariant over samples of many shapes.
func TestInferInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	alphabets := []string{"0123456789", "abc|~-.", "0123456789abcdef|", "\x00\x01\xff|a", "xyz \x00"}
	for range 300 {
		var s infer.Sample
		a := alphabets[r.IntN(len(alphabets))]
		n := 1 + r.IntN(40)
		width := r.IntN(12)
		for range n {
			k := make([]byte, width+r.IntN(4))
			for i := range k {
				k[i] = a[r.IntN(len(a))]
			}
			s.Rows = append(s.Rows, infer.Row{Key: k})
		}
		checkInvariant(t, s)
	}
}

func checkInvariant(t *testing.T, s infer.Sample) {
	t.Helper()
	p := infer.Infer(s, infer.Options{})
	c, err := catalog.Parse([]byte("tables:\n" + indent(p.YAML(), "  ")))
	if err != nil {
		t.Fatalf("the proposal does not load: %v\n%s", err, p.Text())
	}
	if !p.Found {
		return
	}
	tb := c.Tables[0]
	for _, row := range s.Rows {
		if len(row.Key) == 0 {
			continue
		}
		v := tb.NewRow()
		offs := make([]int, len(tb.Key.Components)+1)
		if err := tb.DecodeKey(row.Key, v, offs); err != nil {
			t.Fatalf("key %q: %v\n%s", row.Key, err, p.Text())
		}
		var rnd []int64
		for i := range tb.Key.Components {
			if k := &tb.Key.Components[i]; k.Kind == catalog.KindRandom {
				n, _ := k.DecodeNumber(row.Key[offs[i]:])
				rnd = append(rnd, n)
			}
		}
		got, err := tb.EncodeKey(v, func(int64) int64 { n := rnd[0]; rnd = rnd[1:]; return n })
		if err != nil || !bytes.Equal(got, row.Key) {
			t.Fatalf("key %q writes back as %q (%v)\n%s", row.Key, got, err, p.Text())
		}
	}
}

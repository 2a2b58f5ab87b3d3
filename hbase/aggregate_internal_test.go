package hbase

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func countPart(n int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(n))
	return b
}

func longPart(t *testing.T, v int64) []byte {
	b, err := proto.Marshal(&pb.LongMsg{LongMsg: proto.Int64(v)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func doublePart(t *testing.T, v float64) []byte {
	b, err := proto.Marshal(&pb.DoubleMsg{DoubleMsg: proto.Float64(v)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAggregateCombine folds regions' partial answers as the endpoint
// sends them: an empty answer is a region without a value.
func TestAggregateCombine(t *testing.T) {
	resp := func(first []byte, second []byte) *pb.AggregateResponse {
		r := &pb.AggregateResponse{SecondPart: second}
		if first != nil {
			r.FirstPart = [][]byte{first}
		}
		return r
	}
	fold := func(fn AggregateFunc, in Interpreter, parts ...*pb.AggregateResponse) (AggregateResult, error) {
		acc := aggregateAcc{fn: fn, interp: in}
		for _, p := range parts {
			if err := acc.add(p); err != nil {
				return acc.res, err
			}
		}
		return acc.res, nil
	}
	longs := []*pb.AggregateResponse{resp(longPart(t, 5), countPart(2)), resp(nil, nil), resp(longPart(t, -7), countPart(3))}
	for _, c := range []struct {
		fn   AggregateFunc
		want int64
	}{{Sum, -2}, {Min, -7}, {Max, 5}, {Avg, -2}} {
		got, err := fold(c.fn, LongInterpreter, longs...)
		if err != nil || !got.Valid || got.Long != c.want {
			t.Errorf("%s of longs = %+v, %v; want %d", c.fn, got, err, c.want)
		}
		if c.fn == Avg && got.Rows != 5 {
			t.Errorf("avg rows %d, want 5", got.Rows)
		}
	}
	negZero := math.Copysign(0, -1)
	doubles := []*pb.AggregateResponse{resp(doublePart(t, 0), nil), resp(doublePart(t, negZero), nil), resp(doublePart(t, 1.5), nil)}
	if got, _ := fold(Min, DoubleInterpreter, doubles...); !math.Signbit(got.Double) || got.Double != 0 {
		t.Errorf("min of 0, -0, 1.5 = %v, want -0 (Java's Double.compare)", got.Double)
	}
	if got, _ := fold(Max, DoubleInterpreter, append(doubles, resp(doublePart(t, math.NaN()), nil))...); !math.IsNaN(got.Double) {
		t.Errorf("max with NaN = %v, want NaN", got.Double)
	}
	if got, _ := fold(Sum, DoubleInterpreter, resp(nil, nil)); got.Valid {
		t.Errorf("sum over regions without values is valid: %+v", got)
	}
	if got, _ := fold(RowCount, LongInterpreter, resp(countPart(3), nil), resp(countPart(0), nil), resp(countPart(4), nil)); got.Rows != 7 {
		t.Errorf("row count %d, want 7", got.Rows)
	}
	for name, c := range map[string]struct {
		fn    AggregateFunc
		parts []*pb.AggregateResponse
		want  string
	}{
		"overflow":    {Sum, []*pb.AggregateResponse{resp(longPart(t, math.MaxInt64), nil), resp(longPart(t, 1), nil)}, "overflows"},
		"short count": {RowCount, []*pb.AggregateResponse{resp([]byte{1, 2}, nil)}, "not 8"},
		"no count":    {RowCount, []*pb.AggregateResponse{resp(nil, nil)}, "no row count"},
		"bad message": {Max, []*pb.AggregateResponse{resp([]byte{0xff}, nil)}, "decode"},
	} {
		if _, err := fold(c.fn, LongInterpreter, c.parts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}

func TestClampRange(t *testing.T) {
	for _, c := range []struct {
		start, stop, rstart, rend string
		from, to                  string
		meet                      bool
	}{
		{"", "", "", "", "", "", true},
		{"b", "m", "", "c", "b", "c", true},
		{"b", "m", "c", "f", "c", "f", true},
		{"b", "m", "f", "", "f", "m", true},
		{"b", "m", "m", "", "", "", false},
		{"b", "m", "", "b", "", "", false},
		{"", "", "f", "", "f", "", true},
	} {
		from, to := clampRange([]byte(c.start), []byte(c.stop), []byte(c.rstart), []byte(c.rend))
		if (from != nil) != c.meet || (c.meet && (string(from) != c.from || string(to) != c.to)) {
			t.Errorf("clamp [%q,%q) to region [%q,%q) = [%q,%q) (meet %v), want [%q,%q) meet %v",
				c.start, c.stop, c.rstart, c.rend, from, to, from != nil, c.from, c.to, c.meet)
		}
	}
}

func TestNewAggregateRefuses(t *testing.T) {
	plain, _ := NewScan("t", nil, nil)
	rev, _ := NewScan("t", []byte("z"), []byte("a"), Reversed())
	limited, _ := NewScan("t", nil, nil, Limit(3), Families("f"))
	for name, c := range map[string]struct {
		fn   AggregateFunc
		in   Interpreter
		scan *Scan
	}{
		"no family":   {Sum, LongInterpreter, plain},
		"reversed":    {RowCount, LongInterpreter, rev},
		"limited":     {Max, LongInterpreter, limited},
		"interpreter": {RowCount, Interpreter(9), plain},
		"function":    {AggregateFunc(9), LongInterpreter, plain},
		"nil scan":    {RowCount, LongInterpreter, nil},
	} {
		if _, err := NewAggregate(c.fn, c.in, c.scan); err == nil {
			t.Errorf("%s: NewAggregate accepted it", name)
		}
	}
	if _, err := NewAggregate(RowCount, LongInterpreter, plain); err != nil {
		t.Errorf("row count over a plain scan: %v", err)
	}
}

func TestAggregatePieces(t *testing.T) {
	regions := []*Region{
		{StartKey: nil, EndKey: []byte("c")},
		{StartKey: []byte("c"), EndKey: []byte("f")},
		{StartKey: []byte("f"), EndKey: []byte("k")},
		{StartKey: []byte("k"), EndKey: nil},
	}
	show := func(ps [][2][]byte) string {
		var b strings.Builder
		for _, p := range ps {
			b.WriteString("[" + string(p[0]) + "," + string(p[1]) + ")")
		}
		return b.String()
	}
	s, _ := NewScan("t", []byte("b"), []byte("m"))
	a, _ := NewAggregate(RowCount, LongInterpreter, s)
	if got := show(a.pieces(regions)); got != "[b,c)[c,f)[f,k)[k,m)" {
		t.Errorf("pieces of [b,m) = %s", got)
	}
	a, _ = NewAggregate(RowCount, LongInterpreter, s, InRanges(
		KeyRange{[]byte("b"), []byte("b5")}, KeyRange{[]byte("d"), []byte("d5")}, KeyRange{[]byte("e"), []byte("g")}, KeyRange{[]byte("l"), []byte("m")}))
	if got := show(a.pieces(regions)); got != "[b,b5)[d,f)[f,g)[l,m)" {
		t.Errorf("pieces of four ranges = %s", got)
	}
	a, _ = NewAggregate(RowCount, LongInterpreter, s, InRanges(
		KeyRange{[]byte("b"), []byte("b5")}, KeyRange{[]byte("d"), []byte("d5")}, KeyRange{[]byte("l"), []byte("m")}))
	if got := show(a.pieces(regions)); got != "[b,b5)[d,d5)[l,m)" {
		t.Errorf("pieces of three ranges = %s, want the third region skipped", got)
	}
}

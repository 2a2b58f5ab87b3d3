package design

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
)

// GenKind is how SIMULATE draws a field's values.
type GenKind int

// Generators.
const (
	// GenSequence counts up from Lo: 0, 1, 2, … (a TIMESTAMP counts
	// milliseconds from the simulation's start).
	GenSequence GenKind = iota
	// GenUniform draws uniformly from [Lo, Hi).
	GenUniform
	// GenZipf draws from [Lo, Hi) with Zipf's law (s = 1.1): a few values
	// take most of the rows.
	GenZipf
	// GenNow is the write time: every row a millisecond after the last.
	GenNow
)

// Gen draws the values of one field.
type Gen struct {
	Kind   GenKind
	Lo, Hi int64
}

func (g Gen) String() string {
	switch g.Kind {
	case GenSequence:
		return "sequence"
	case GenNow:
		return "now"
	case GenZipf:
		return fmt.Sprintf("zipf(%d)", g.Hi-g.Lo)
	}
	if g.Lo == 0 {
		return fmt.Sprintf("uniform(%d)", g.Hi)
	}
	return fmt.Sprintf("uniform(%d, %d)", g.Lo, g.Hi)
}

// Spread is where a simulated write stream lands over a table's regions.
type Spread struct {
	Table string
	Rows  int64
	// Starts are the regions' start keys; the first is empty.
	Starts [][]byte
	Counts []int64
	// Gens names the generator each key field used.
	Gens map[string]Gen
}

// Used is the number of regions that received a row.
func (s *Spread) Used() int {
	n := 0
	for _, c := range s.Counts {
		if c > 0 {
			n++
		}
	}
	return n
}

// Hottest returns the busiest region's index.
func (s *Spread) Hottest() int {
	h := 0
	for i, c := range s.Counts {
		if c > s.Counts[h] {
			h = i
		}
	}
	return h
}

// Skew is the busiest region's rows over the mean rows per region: 1 is a
// perfect spread, the region count is every row in one region.
func (s *Spread) Skew() float64 {
	if s.Rows == 0 {
		return 0
	}
	mean := float64(s.Rows) / float64(len(s.Counts))
	return float64(s.Counts[s.Hottest()]) / mean
}

// simEpoch is the simulated first write time, fixed so runs repeat.
var simEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

// DefaultGen is the generator a field gets when SIMULATE names none: a
// TIMESTAMP or DATE is the write time, anything else uniform over 10,000
// values.
func DefaultGen(t catalog.Type) Gen {
	switch t {
	case catalog.TypeTimestamp, catalog.TypeDate:
		return Gen{Kind: GenNow}
	case catalog.TypeBoolean:
		return Gen{Kind: GenUniform, Hi: 2}
	}
	return Gen{Kind: GenUniform, Hi: 10000}
}

// maxSimRows bounds a simulation; SIMULATE encodes every key in memory.
const maxSimRows = 10_000_000

// Simulate encodes rows keys drawn by gens (DefaultGen for key fields it
// does not name) and counts how many land in each region of t's split
// policy. Nothing is written. The run is repeatable: seed fixes the draws.
func Simulate(t *catalog.Table, rows int64, gens map[string]Gen, seed uint64) (*Spread, error) {
	if rows < 1 || rows > maxSimRows {
		return nil, fmt.Errorf("ROWS must be between 1 and %d, not %d", maxSimRows, rows)
	}
	for name, g := range gens {
		i, ok := t.Column(name)
		if !ok {
			return nil, fmt.Errorf("table %s has no column %s", t.Name, name)
		}
		if !t.Columns[i].KeyField {
			return nil, fmt.Errorf("%s is not in %s's rowkey, so it cannot move a write", name, t.Name)
		}
		if (g.Kind == GenUniform || g.Kind == GenZipf) && g.Hi <= g.Lo {
			return nil, fmt.Errorf("%s: %s draws from no values", name, g)
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	used := map[string]Gen{}
	var draws []drawer
	for _, ci := range t.KeyColumns() {
		col := t.Columns[ci]
		g, ok := gens[col.Name]
		if !ok {
			g = DefaultGen(col.Type)
		}
		used[col.Name] = g
		d, err := newDrawer(ci, col, g, rng)
		if err != nil {
			return nil, err
		}
		if inSeconds(t, ci) {
			// The key holds whole seconds: the row time is the second.
			draw := d.draw
			d.draw = func(i int64) catalog.Value {
				v := draw(i)
				v.I -= ((v.I % 1000) + 1000) % 1000
				return v
			}
		}
		draws = append(draws, d)
	}
	splits := t.SplitKeys()
	s := &Spread{Table: t.Name, Rows: rows, Starts: append([][]byte{{}}, splits...), Counts: make([]int64, len(splits)+1), Gens: used}
	row := t.NewRow()
	rnd := func(n int64) int64 { return rng.Int64N(n) }
	for i := range rows {
		for _, d := range draws {
			row[d.col] = d.draw(i)
		}
		key, err := t.EncodeKey(row, rnd)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		s.Counts[regionOf(splits, key)]++
	}
	return s, nil
}

type drawer struct {
	col  int
	draw func(i int64) catalog.Value
}

// inSeconds reports whether column ci is a TIMESTAMP key field counted in
// seconds.
func inSeconds(t *catalog.Table, ci int) bool {
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		if c.Kind == catalog.KindGroup {
			for j := range c.Group {
				if c.Group[j].Column() == ci && c.Group[j].Unit == catalog.Seconds {
					return true
				}
			}
		}
		if c.Kind == catalog.KindField && c.Column() == ci && c.Unit == catalog.Seconds {
			return true
		}
	}
	return false
}

func newDrawer(ci int, col catalog.Column, g Gen, rng *rand.Rand) (drawer, error) {
	var num func(i int64) int64
	switch g.Kind {
	case GenSequence:
		num = func(i int64) int64 { return g.Lo + i }
	case GenNow:
		num = func(i int64) int64 { return simEpoch + i }
	case GenUniform:
		num = func(int64) int64 { return g.Lo + rng.Int64N(g.Hi-g.Lo) }
	case GenZipf:
		z := rand.NewZipf(rng, 1.1, 1, uint64(g.Hi-g.Lo-1))
		num = func(int64) int64 { return g.Lo + int64(z.Uint64()) }
	}
	typ := col.Type
	var conv func(n int64) catalog.Value
	switch typ {
	case catalog.TypeString:
		conv = func(n int64) catalog.Value { return catalog.String(fmt.Sprintf("%s%d", col.Name, n)) }
		if g.Kind == GenNow {
			conv = func(n int64) catalog.Value {
				return catalog.String(time.UnixMilli(n).UTC().Format("20060102150405.000"))
			}
		}
	case catalog.TypeBytes:
		conv = func(n int64) catalog.Value { return catalog.Bytes([]byte(fmt.Sprintf("%s%d", col.Name, n))) }
	case catalog.TypeBigint, catalog.TypeInt, catalog.TypeBoolean:
		conv = func(n int64) catalog.Value { return catalog.Value{Type: typ, I: n} }
		if g.Kind == GenNow && typ != catalog.TypeBigint {
			return drawer{}, fmt.Errorf("%s is %s; now needs a TIMESTAMP, DATE, BIGINT or STRING", col.Name, typ)
		}
	case catalog.TypeTimestamp:
		conv = func(n int64) catalog.Value { return catalog.TimestampMillis(n) }
		if g.Kind == GenSequence {
			conv = func(n int64) catalog.Value { return catalog.TimestampMillis(simEpoch + n) }
		}
	case catalog.TypeDate:
		conv = func(n int64) catalog.Value { return catalog.DateDays(n) }
		if g.Kind == GenNow || g.Kind == GenSequence {
			// A day per 86,400,000 rows would never move; one per 1,000.
			base := simEpoch / 86_400_000
			conv = func(n int64) catalog.Value { return catalog.DateDays(base + (n-simEpoch)/1000) }
			if g.Kind == GenSequence {
				conv = func(n int64) catalog.Value { return catalog.DateDays(base + n/1000) }
			}
		}
	case catalog.TypeDouble:
		conv = func(n int64) catalog.Value { return catalog.Double(float64(n)) }
	default:
		return drawer{}, fmt.Errorf("%s: cannot simulate %s values", col.Name, typ)
	}
	return drawer{col: ci, draw: func(i int64) catalog.Value { return conv(num(i)) }}, nil
}

// histogramLines caps the histogram's height; wider tables group
// neighbouring regions into one bar.
const histogramLines = 32

// barWidth is the longest bar, in characters.
const barWidth = 40

// Text draws the spread: a summary and a histogram of rows per region.
func (s *Spread) Text() string {
	var b strings.Builder
	gens := make([]string, 0, len(s.Gens))
	for name, g := range s.Gens {
		gens = append(gens, name+" = "+g.String())
	}
	sort.Strings(gens)
	fmt.Fprintf(&b, "%s: %s rows (%s) over %d regions\n", s.Table, catalog.Thousands(s.Rows), strings.Join(gens, ", "), len(s.Counts))
	h := s.Hottest()
	fmt.Fprintf(&b, "regions used %d of %d; busiest region %d (start '%s') takes %s rows, %.2f x the mean\n",
		s.Used(), len(s.Counts), h+1, catalog.ToStringBinary(s.Starts[h]), catalog.Thousands(s.Counts[h]), s.Skew())
	group := (len(s.Counts) + histogramLines - 1) / histogramLines
	var peak int64
	sums := make([]int64, 0, histogramLines)
	for i := 0; i < len(s.Counts); i += group {
		var sum int64
		for _, c := range s.Counts[i:min(i+group, len(s.Counts))] {
			sum += c
		}
		sums = append(sums, sum)
		peak = max(peak, sum)
	}
	for k, sum := range sums {
		i := k * group
		j := min(i+group, len(s.Counts))
		label := fmt.Sprintf("%d", i+1)
		if j-i > 1 {
			label = fmt.Sprintf("%d-%d", i+1, j)
		}
		n := 0
		if peak > 0 {
			n = int(math.Round(float64(sum) / float64(peak) * barWidth))
		}
		if n == 0 && sum > 0 {
			n = 1
		}
		fmt.Fprintf(&b, "%9s %-12s %s %s\n", label, clip("'"+catalog.ToStringBinary(s.Starts[i])+"'", 12), strings.Repeat("#", n)+strings.Repeat(" ", barWidth-n), catalog.Thousands(sum))
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// CompareText puts two spreads' summaries side by side.
func CompareText(a, b *Spread) string {
	var out strings.Builder
	row := func(k, x, y string) { fmt.Fprintf(&out, "%-22s %-18s %s\n", k, x, y) }
	row("", a.Table, b.Table)
	row("regions", fmt.Sprint(len(a.Counts)), fmt.Sprint(len(b.Counts)))
	row("regions used", fmt.Sprint(a.Used()), fmt.Sprint(b.Used()))
	row("busiest region rows", catalog.Thousands(a.Counts[a.Hottest()]), catalog.Thousands(b.Counts[b.Hottest()]))
	row("max / mean", fmt.Sprintf("%.2f", a.Skew()), fmt.Sprintf("%.2f", b.Skew()))
	out.WriteString("\n")
	out.WriteString(a.Text())
	out.WriteString("\n")
	out.WriteString(b.Text())
	return out.String()
}

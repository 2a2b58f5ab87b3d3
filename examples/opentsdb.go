package examples

import (
	_ "embed"
	"encoding/binary"
	"math"
	"sort"
	"time"
)

// OpenTSDBYAML is opentsdb.yaml: OpenTSDB's tsdb and tsdb-uid tables.
//
//go:embed opentsdb.yaml
var OpenTSDBYAML []byte

// OpenTSDBPairsYAML is opentsdb_pairs.yaml: the same tables, tsdb read
// one row per point and tag pair, with uids as numbers.
//
//go:embed opentsdb_pairs.yaml
var OpenTSDBPairsYAML []byte

// RawCell is one cell as a store writes it, built byte by byte.
type RawCell struct {
	Key, Family, Qualifier, Value []byte
}

// Point is one data point as OpenTSDB's TSDB.addPoint receives it. Value
// is an int64 or a float32 or float64.
type Point struct {
	Metric string
	Tags   map[string]string
	// Time is in whole seconds, unless Millis is set or it has a
	// fraction of a second: then it was given in milliseconds, which
	// OpenTSDB writes as a 4-byte qualifier (Internal.buildQualifier).
	Time   time.Time
	Millis bool
	Value  any
}

// OpenTSDB writes cells exactly as OpenTSDB 2.x does, salt width 1 and
// 20 buckets, 3-byte uids: uids are assigned in order of first use per
// kind from 1, written both ways in tsdb-uid with the MAXID counters, and
// each point goes into the tsdb row of its metric, hour and tags. The
// bytes are built here from OpenTSDB's rules, not with rkql's codecs.
type OpenTSDB struct {
	uids   map[string]map[string]uint32 // kind -> name -> uid
	UID    []RawCell                    // tsdb-uid cells
	Points []RawCell                    // tsdb cells
}

// NewOpenTSDB returns an empty writer.
func NewOpenTSDB() *OpenTSDB {
	return &OpenTSDB{uids: map[string]map[string]uint32{}}
}

// uid returns the 3-byte uid of name, assigning it as UniqueId does: the
// MAXID row's counter is incremented, and the forward (name -> id:kind)
// and reverse (uid -> name:kind) cells are written.
func (o *OpenTSDB) uid(kind, name string) []byte {
	m := o.uids[kind]
	if m == nil {
		m = map[string]uint32{}
		o.uids[kind] = m
	}
	if _, ok := m[name]; !ok {
		id := uint32(len(m) + 1)
		m[name] = id
		b := uid3(id)
		o.UID = append(o.UID,
			RawCell{Key: []byte{0}, Family: []byte("id"), Qualifier: []byte(kind), Value: binary.BigEndian.AppendUint64(nil, uint64(id))},
			RawCell{Key: []byte(name), Family: []byte("id"), Qualifier: []byte(kind), Value: b},
			RawCell{Key: b, Family: []byte("name"), Qualifier: []byte(kind), Value: []byte(name)})
	}
	return uid3(m[name])
}

func uid3(id uint32) []byte { return []byte{byte(id >> 16), byte(id >> 8), byte(id)} }

// Add writes one point.
func (o *OpenTSDB) Add(p Point) {
	const saltBuckets, maxTimespan = 20, 3600
	metric := o.uid("metrics", p.Metric)
	// Tags.resolveOrCreateAll: tagk+tagv uids, sorted by their bytes.
	var names []string
	for k := range p.Tags {
		names = append(names, k)
	}
	sort.Strings(names) // uids are assigned in a repeatable order
	var tags [][]byte
	for _, k := range names {
		tags = append(tags, append(o.uid("tagk", k), o.uid("tagv", p.Tags[k])...))
	}
	sort.Slice(tags, func(i, j int) bool { return string(tags[i]) < string(tags[j]) })
	ts := p.Time.Unix()
	base := ts - ts%maxTimespan
	row := []byte{0} // the salt, filled in below
	row = append(row, metric...)
	row = binary.BigEndian.AppendUint32(row, uint32(base))
	for _, t := range tags {
		row = append(row, t...)
	}
	// RowKey.prefixKeyWithSalt: Arrays.hashCode of the metric and tags.
	saltBase := append(append([]byte{}, row[1:4]...), row[8:]...)
	h := int32(1)
	for _, b := range saltBase {
		h = 31*h + int32(int8(b))
	}
	mod := h % saltBuckets
	if mod < 0 {
		mod *= -1
	}
	row[0] = byte(mod)
	// TSDB.addPoint: the value in the fewest bytes, its length - 1 in the
	// flags, 0x8 for a float.
	var val []byte
	var flags uint16
	switch v := p.Value.(type) {
	case int64:
		switch {
		case v >= math.MinInt8 && v <= math.MaxInt8:
			val = []byte{byte(v)}
		case v >= math.MinInt16 && v <= math.MaxInt16:
			val = binary.BigEndian.AppendUint16(nil, uint16(v))
		case v >= math.MinInt32 && v <= math.MaxInt32:
			val = binary.BigEndian.AppendUint32(nil, uint32(v))
		default:
			val = binary.BigEndian.AppendUint64(nil, uint64(v))
		}
		flags = uint16(len(val) - 1)
	case float32:
		val, flags = binary.BigEndian.AppendUint32(nil, math.Float32bits(v)), 0x8|0x3
	case float64:
		val, flags = binary.BigEndian.AppendUint64(nil, math.Float64bits(v)), 0x8|0x7
	}
	var qual []byte
	if ms := p.Time.UnixMilli() - base*1000; p.Millis || ms%1000 != 0 {
		// 0xF in the first nibble, the offset in ms, 2 unused bits, the flags.
		qual = binary.BigEndian.AppendUint32(nil, 0xF0000000|uint32(ms)<<6|uint32(flags))
	} else {
		qual = binary.BigEndian.AppendUint16(nil, uint16(ts-base)<<4|flags)
	}
	o.Points = append(o.Points, RawCell{Key: row, Family: []byte("t"), Qualifier: qual, Value: val})
}

// Compact rewrites the point cells of each row keep picks into one cell,
// as OpenTSDB's CompactionQueue does once the row's hour has passed: the
// points in time order (the last written of a time kept), the qualifier
// their qualifiers, the value their values and, for more than one point,
// a meta byte, 1 when seconds and milliseconds are mixed. The compacted
// cell takes the place of the row's first cell.
func (o *OpenTSDB) Compact(keep func(row []byte) bool) {
	at := map[string]int{} // row -> index of its first cell in out
	var rows [][]RawCell
	var out []RawCell
	for _, c := range o.Points {
		if !keep(c.Key) {
			out = append(out, c)
			continue
		}
		i, ok := at[string(c.Key)]
		if !ok {
			i = len(rows)
			at[string(c.Key)] = i
			rows = append(rows, nil)
			out = append(out, RawCell{Key: c.Key, Family: c.Family})
		}
		rows[i] = append(rows[i], c)
	}
	n := 0
	for j := range out {
		if out[j].Qualifier != nil {
			continue
		}
		cells := rows[n]
		n++
		millis := func(q []byte) uint32 {
			if len(q) == 4 {
				return binary.BigEndian.Uint32(q) & 0x0FFFFFFF >> 6
			}
			return uint32(binary.BigEndian.Uint16(q)>>4) * 1000
		}
		sort.SliceStable(cells, func(a, b int) bool { return millis(cells[a].Qualifier) < millis(cells[b].Qualifier) })
		var pts []RawCell
		for _, c := range cells {
			if len(pts) > 0 && millis(pts[len(pts)-1].Qualifier) == millis(c.Qualifier) {
				pts[len(pts)-1] = c // the later write of the same time
				continue
			}
			pts = append(pts, c)
		}
		if len(pts) == 1 {
			out[j] = pts[0]
			continue
		}
		var qual, val []byte
		var sec, ms bool
		for _, c := range pts {
			qual, val = append(qual, c.Qualifier...), append(val, c.Value...)
			sec, ms = sec || len(c.Qualifier) == 2, ms || len(c.Qualifier) == 4
		}
		meta := byte(0)
		if sec && ms {
			meta = 1
		}
		out[j].Qualifier, out[j].Value = qual, append(val, meta)
	}
	o.Points = out
}

// Append rewrites the point cells of each row keep picks into one append
// cell, as OpenTSDB writes a row with tsd.storage.enable_appends
// (AppendDataPoints): qualifier 05 00 00, and a value that is each point's
// qualifier and value one after the other, in the order they were
// written, a time written twice included. The append cell takes the place
// of the row's first cell.
func (o *OpenTSDB) Append(keep func(row []byte) bool) {
	at := map[string]int{} // row -> index of its append cell in out
	var out []RawCell
	for _, c := range o.Points {
		if !keep(c.Key) {
			out = append(out, c)
			continue
		}
		i, ok := at[string(c.Key)]
		if !ok {
			i = len(out)
			at[string(c.Key)] = i
			out = append(out, RawCell{Key: c.Key, Family: c.Family, Qualifier: []byte{0x05, 0, 0}})
		}
		out[i].Value = append(append(out[i].Value, c.Qualifier...), c.Value...)
	}
	o.Points = out
}

// OpenTSDBDemo is a day of points for two metrics on four hosts, every
// 10 minutes, with values of every width OpenTSDB writes. web01 and web02
// send seconds, db01 milliseconds, db02 both in turn; the rows of the
// hours before noon are compacted, the later ones hold a cell per point.
func OpenTSDBDemo() ([]Point, *OpenTSDB) {
	o := NewOpenTSDB()
	var pts []Point
	start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	hosts := []string{"web01", "web02", "db01", "db02"}
	for m, metric := range []string{"sys.cpu.user", "sys.mem.free"} {
		for h, host := range hosts {
			for i := 0; i < 24*6; i++ {
				p := Point{Metric: metric, Tags: map[string]string{"host": host, "dc": []string{"lga", "sjc"}[h%2]},
					Time: start.Add(time.Duration(i*600+h*7+m) * time.Second)}
				if host == "db01" || host == "db02" && i%2 == 0 {
					p.Time = p.Time.Add(time.Duration(i%8*125) * time.Millisecond)
					p.Millis = true
				}
				switch i % 6 {
				case 0:
					p.Value = int64(i)
				case 1:
					p.Value = int64(1000 + i)
				case 2:
					p.Value = int64(100000 + i)
				case 3:
					p.Value = int64(1)<<40 + int64(i)
				case 4:
					p.Value = float32(i) + 0.5
				default:
					p.Value = float64(i) + 0.25
				}
				pts = append(pts, p)
				o.Add(p)
			}
		}
	}
	noon := uint32(start.Add(12 * time.Hour).Unix())
	o.Compact(func(row []byte) bool { return binary.BigEndian.Uint32(row[4:8]) < noon })
	return pts, o
}

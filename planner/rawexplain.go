package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// maxShownGets bounds the get lines EXPLAIN prints for a raw read.
const maxShownGets = 5

// Explain builds the EXPLAIN model of a raw read on the store named
// store, which applies the read's bounds, time range, cells, versions,
// direction and store limit itself; an is nil unless it ran.
func (r *RawRead) Explain(store string, an *Analysis) *Explained {
	var steps []Step
	read := Step{Op: "RAW SCAN", Title: "RAW SCAN OVER " + r.Table}
	switch {
	case r.Empty:
		read = Step{Op: "EMPTY", Title: "EMPTY: the conditions select no cell of " + r.Table}
	case r.Keys != nil:
		read = Step{Op: "RAW GET", Title: fmt.Sprintf("RAW GET OVER %s (%d rows)", r.Table, len(r.Keys))}
		read.Attrs = append(read.Attrs, Attr{Label: "SERVER KEYS", Value: shownKeys(r.Keys)})
	case r.Start == nil && r.Stop == nil:
		read = Step{Op: "RAW FULL SCAN", Title: "RAW FULL SCAN OVER " + r.Table}
	default:
		read.Attrs = append(read.Attrs, Attr{Label: "SERVER ROWS", Value: fmt.Sprintf("[%s, %s)", shownKey(r.Start, "start"), shownKey(r.Stop, "end"))})
	}
	if !r.Empty {
		read.Attrs = append(read.Attrs, r.serverAttrs(store)...)
	}
	steps = append(steps, read)
	if r.Filter != nil {
		steps = append(steps, Step{Op: "CLIENT FILTER", Title: "CLIENT FILTER BY " + r.Filter.String()})
	}
	if r.Limit >= 0 {
		steps = append(steps, Step{Op: "CLIENT LIMIT", Title: fmt.Sprintf("CLIENT %d ROW LIMIT", r.Limit)})
	}
	ex := &Explained{Steps: steps}
	if len(r.Pushed) > 0 {
		ex.Plan = append(ex.Plan, Attr{Label: "PUSHED", Value: strings.Join(r.Pushed, " AND ") + ": the read's bounds, applied by the " + store + " store"})
	}
	if !r.Empty {
		ex.Plan = append(ex.Plan, Attr{Label: "HBASE SHELL", Value: r.Shell()})
	}
	if an != nil {
		ex.Plan = append(ex.Plan, analysisAttrs(an, false)...)
	}
	return ex
}

// serverAttrs are the parts of the read the store applies.
func (r *RawRead) serverAttrs(store string) []Attr {
	var out []Attr
	switch {
	case r.Families != nil && r.Qualifiers != nil:
		out = append(out, Attr{Label: "SERVER COLUMNS", Value: strings.Join(r.columns(), ", ")})
	case r.Families != nil:
		out = append(out, Attr{Label: "SERVER FAMILIES", Value: strings.Join(r.Families, ", ")})
	case r.Qualifiers != nil:
		out = append(out, Attr{Label: "SERVER QUALIFIERS", Value: strings.Join(binaries(r.Qualifiers), ", ") + " in every family (" + qualifierFilter(r.Qualifiers) + ")"})
	}
	if r.Timed {
		out = append(out, Attr{Label: "SERVER TIMERANGE", Value: fmt.Sprintf("[%d, %d) (%s)", r.From, r.To, timeRangeText(r.From, r.To))})
	}
	if r.Versions > 1 {
		out = append(out, Attr{Label: "SERVER VERSIONS", Value: fmt.Sprint(r.Versions)})
	}
	if r.Reverse {
		out = append(out, Attr{Label: "SERVER REVERSED", Value: true})
	}
	if r.StoreLimit > 0 {
		out = append(out, Attr{Label: "SERVER LIMIT", Value: fmt.Sprintf("%d rows", r.StoreLimit)})
	}
	out = append(out, Attr{Label: "STORE", Value: store})
	return out
}

func (r *RawRead) columns() []string {
	var out []string
	for _, f := range r.Families {
		for _, q := range r.Qualifiers {
			out = append(out, catalog.ToStringBinary([]byte(f))+":"+catalog.ToStringBinary([]byte(q)))
		}
	}
	return out
}

func binaries(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = catalog.ToStringBinary([]byte(s))
	}
	return out
}

func timeRangeText(from, to int64) string {
	text := func(ms int64) string { return catalog.TimestampMillis(ms).Text() }
	if to == math.MaxInt64 {
		return "from " + text(from)
	}
	return text(from) + " to before " + text(to)
}

func shownKey(k []byte, open string) string {
	if k == nil {
		return open
	}
	return "'" + catalog.ToStringBinary(k) + "'"
}

func shownKeys(keys [][]byte) []string {
	var out []string
	for i, k := range keys {
		if i == maxShownGets {
			out = append(out, fmt.Sprintf("… %d more", len(keys)-i))
			break
		}
		out = append(out, shownKey(k, ""))
	}
	return out
}

// Shell is the HBase shell command that reads what the raw read reads
// (before the client's filter and limit): a scan, or one get per key.
func (r *RawRead) Shell() []string {
	var opts []string
	if r.Keys == nil {
		if r.Reverse {
			// The shell's reversed scan reads from STARTROW down to
			// STOPROW, STARTROW in and STOPROW out; rkql leaves its
			// stop key out and its start key in.
			if r.Stop != nil {
				opts = append(opts, "STARTROW => "+rubyString(r.Stop))
			}
			if r.Start != nil {
				opts = append(opts, "STOPROW => "+rubyString(r.Start))
			}
		} else {
			if r.Start != nil {
				opts = append(opts, "STARTROW => "+rubyString(r.Start))
			}
			if r.Stop != nil {
				opts = append(opts, "STOPROW => "+rubyString(r.Stop))
			}
		}
	}
	switch {
	case r.Families != nil && r.Qualifiers != nil:
		opts = append(opts, "COLUMNS => "+rubyList(r.columnBytes()))
	case r.Families != nil:
		var fs [][]byte
		for _, f := range r.Families {
			fs = append(fs, []byte(f))
		}
		opts = append(opts, "COLUMNS => "+rubyList(fs))
	case r.Qualifiers != nil:
		opts = append(opts, "FILTER => "+rubyString([]byte(qualifierFilter(r.Qualifiers))))
	}
	if r.Timed {
		opts = append(opts, fmt.Sprintf("TIMERANGE => [%d, %d]", r.From, r.To))
	}
	if r.Versions > 1 {
		opts = append(opts, fmt.Sprintf("VERSIONS => %d", r.Versions))
	}
	if r.Keys != nil {
		var out []string
		for i, k := range r.Keys {
			if i == maxShownGets {
				out = append(out, fmt.Sprintf("… and %d more gets", len(r.Keys)-i))
				break
			}
			out = append(out, "get "+rubyString([]byte(r.Table))+", "+rubyString(k)+rubyOpts(opts))
		}
		return out
	}
	if r.Reverse {
		opts = append(opts, "REVERSED => true")
	}
	if r.StoreLimit > 0 {
		opts = append(opts, fmt.Sprintf("LIMIT => %d", r.StoreLimit))
	}
	line := "scan " + rubyString([]byte(r.Table)) + rubyOpts(opts)
	if r.Reverse && (r.Start != nil || r.Stop != nil) {
		return []string{line, "(rkql reads STOPROW's own row and leaves STARTROW's out)"}
	}
	return []string{line}
}

func (r *RawRead) columnBytes() [][]byte {
	var out [][]byte
	for _, f := range r.Families {
		for _, q := range r.Qualifiers {
			out = append(out, []byte(f+":"+q))
		}
	}
	return out
}

func rubyOpts(opts []string) string {
	if len(opts) == 0 {
		return ""
	}
	return ", {" + strings.Join(opts, ", ") + "}"
}

func rubyList(bs [][]byte) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = rubyString(b)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rubyString writes b as the shell (Ruby) reads it: in single quotes
// when every byte is printable, else in double quotes with \xNN.
func rubyString(b []byte) string {
	plain := true
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '\'' {
			plain = false
		}
	}
	if plain {
		return "'" + string(b) + "'"
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '"' || c == '#' {
			fmt.Fprintf(&sb, "\\x%02X", c)
		} else {
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// qualifierFilter is the filter language text of the qualifiers' filter.
func qualifierFilter(qs []string) string {
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = "QualifierFilter(=, 'binary:" + strings.ReplaceAll(q, "'", "''") + "')"
	}
	return strings.Join(parts, " OR ")
}

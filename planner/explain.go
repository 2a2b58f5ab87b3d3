package planner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Analysis is what EXPLAIN ANALYZE measured by running the query.
type Analysis struct {
	RowsRead     int64
	RowsReturned int64
	RPCs         int64
	Regions      int64
	// DataReads counts data rows read through an index; Dangling counts
	// index entries skipped because their data row no longer matches.
	DataReads int64
	Dangling  int64
	// Malformed counts rows skipped because they do not fit the layout.
	Malformed int64
	Millis    float64
}

// LookupBatch is how many index hits one data-table multi-get serves.
const LookupBatch = 100

// printer writes EXPLAIN lines; it cannot fail.
type printer struct {
	b strings.Builder
}

func (p *printer) line(indent int, format string, args ...any) {
	p.b.WriteString(strings.Repeat("    ", indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

// Header is the access path's first EXPLAIN line, without bounds.
func (a *Access) Header() string {
	var parts []string
	if a.Ways > 1 && a.Kind != PointLookup {
		parts = append(parts, fmt.Sprintf("PARALLEL %d-WAY", a.Ways))
	}
	switch a.Kind {
	case PointLookup:
		parts = append(parts, fmt.Sprintf("POINT LOOKUP ON %d %s", len(a.Ranges), plural(len(a.Ranges), "KEY", "KEYS")))
	case RangeScan:
		parts = append(parts, "RANGE SCAN")
	case SkipScan:
		parts = append(parts, fmt.Sprintf("SKIP SCAN ON %d RANGES", len(a.Ranges)))
	case FullScan:
		parts = append(parts, "FULL SCAN")
	case EmptyResult:
		return "EMPTY RESULT OVER " + a.Table.Name
	}
	if a.Reverse {
		parts = append(parts, "REVERSE")
	}
	parts = append(parts, "OVER", a.Table.Name)
	return strings.Join(parts, " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func bracket(vals []string) string { return "[" + strings.Join(vals, ",") + "]" }

// bounds shows the first range's start and the last range's end.
func (a *Access) bounds() string {
	if len(a.Ranges) == 0 || a.Kind == FullScan {
		return ""
	}
	first, last := a.Ranges[0], a.Ranges[len(a.Ranges)-1]
	if a.Kind == PointLookup {
		if len(a.Ranges) == 1 {
			return " " + bracket(first.From)
		}
		return " " + bracket(first.From) + " … " + bracket(last.From)
	}
	return " " + bracket(first.From) + " - " + bracket(last.To)
}

func (a *Access) bytesLine() string {
	if len(a.Ranges) == 0 || a.Kind == FullScan {
		return ""
	}
	r := a.Ranges[0]
	s := catalog.ToStringBinary(r.Start)
	if !r.Point {
		stop := "<end>"
		if r.Stop != nil {
			stop = catalog.ToStringBinary(r.Stop)
		}
		if r.Start == nil {
			s = "<start>"
		}
		s += " - " + stop
	}
	if n := len(a.Ranges); n > 1 {
		s += fmt.Sprintf("  (+%d more)", n-1)
	}
	return s
}

// Cost is the planner's estimate of the work.
func (a *Access) Cost() string {
	switch a.Kind {
	case EmptyResult:
		return "0 reads"
	case PointLookup:
		return fmt.Sprintf("%d %s in 1 batch, ~1 RPC per region server", len(a.Ranges), plural(len(a.Ranges), "get", "gets"))
	}
	n := len(a.Ranges)
	return fmt.Sprintf("%d %s, ~%d RPCs or more", n, plural(n, "scan", "scans"), n)
}

// Text renders EXPLAIN. With an analysis it adds what the run measured.
func (s *Select) Text(an *Analysis) string {
	var p printer
	a := s.Access
	if s.Index != nil {
		p.line(0, "INDEX LOOKUP OVER %s%s", a.Table.Name, a.bounds())
		p.line(1, "ACCESS %s", strings.TrimSuffix(a.Header(), " OVER "+a.Table.Name))
	} else {
		p.line(0, "%s%s", a.Header(), a.bounds())
	}
	p.line(1, "KEY    %s", a.Table.Key)
	if b := a.bytesLine(); b != "" {
		p.line(1, "BYTES  %s", b)
	}
	if a.Filter != nil {
		p.line(1, "SERVER FILTER BY %s", a.Filter)
	}
	if a.Limit > 0 && (len(a.Ranges) > 1 || s.Merge != nil) {
		p.line(1, "SERVER %d ROW LIMIT PER SCAN", a.Limit)
	}
	if s.Merge != nil {
		p.line(0, "CLIENT MERGE SORT ON %s", strings.Join(s.Merge.On, ", "))
	}
	if ix := s.Index; ix != nil {
		if ix.Covered {
			p.line(1, "COVERED: verified entries hold every column the query reads, so %s is read only for unverified ones", ix.Data.Name)
		} else {
			p.line(0, "POINT LOOKUP ON n KEYS OVER %s (one batched multi-get per %d index hits)", ix.Data.Name, LookupBatch)
		}
		if ix.DataOnly != nil {
			p.line(1, "CLIENT FILTER BY %s", ix.DataOnly)
		}
	}
	if s.Sort != nil {
		if s.Sort.Limit >= 0 {
			p.line(0, "CLIENT TOP %d SORTED BY %s", s.Sort.Limit, strings.Join(orderNames(s.Sort.Keys), ", "))
		} else {
			p.line(0, "CLIENT SORTED BY %s", strings.Join(orderNames(s.Sort.Keys), ", "))
		}
	}
	if s.Count {
		p.line(0, "CLIENT COUNT")
	}
	if s.Limit >= 0 {
		p.line(0, "CLIENT %d ROW LIMIT", s.Limit)
	}
	p.line(0, "COST   %s", a.Cost())
	for i, n := range s.Notes {
		if i == 0 {
			p.line(0, "NOTE   %s", n)
		} else {
			p.line(0, "       %s", n)
		}
	}
	if an != nil {
		p.line(0, "ANALYZE rows read %d, rows returned %d, RPCs %d, regions %d, time %.1f ms",
			an.RowsRead, an.RowsReturned, an.RPCs, an.Regions, an.Millis)
		if s.Index != nil {
			p.line(0, "        data-table reads %d, dangling index entries %d", an.DataReads, an.Dangling)
		}
		if an.Malformed > 0 {
			p.line(0, "        rows skipped because they do not fit the layout %d", an.Malformed)
		}
	}
	return p.b.String()
}

// jsonPlan is EXPLAIN (FORMAT JSON).
type jsonPlan struct {
	Index    string      `json:"index,omitempty"`
	Covered  bool        `json:"covered,omitempty"`
	Access   string      `json:"access"`
	Table    string      `json:"table"`
	Ways     int64       `json:"ways"`
	Reverse  bool        `json:"reverse"`
	Key      string      `json:"key"`
	Ranges   []jsonRange `json:"ranges"`
	Filter   string      `json:"server_filter,omitempty"`
	Merge    []string    `json:"merge_sort_on,omitempty"`
	Sort     []string    `json:"client_sort_by,omitempty"`
	Limit    *int64      `json:"limit,omitempty"`
	Cost     string      `json:"cost"`
	Notes    []string    `json:"notes"`
	Analysis *Analysis   `json:"analyze,omitempty"`
}

type jsonRange struct {
	Start string   `json:"start"`
	Stop  string   `json:"stop,omitempty"`
	Point bool     `json:"point,omitempty"`
	From  []string `json:"from"`
	To    []string `json:"to"`
}

// JSON renders EXPLAIN (FORMAT JSON).
func (s *Select) JSON(an *Analysis) string {
	a := s.Access
	j := jsonPlan{Access: a.Header(), Table: s.Table.Name, Ways: a.Ways, Reverse: a.Reverse, Key: s.Table.Key.String(), Cost: a.Cost(), Notes: s.Notes, Analysis: an}
	if j.Notes == nil {
		j.Notes = []string{}
	}
	for _, r := range a.Ranges {
		jr := jsonRange{Start: catalog.ToStringBinary(r.Start), Point: r.Point, From: r.From, To: r.To}
		if !r.Point {
			jr.Stop = catalog.ToStringBinary(r.Stop)
		}
		j.Ranges = append(j.Ranges, jr)
	}
	if a.Filter != nil {
		j.Filter = a.Filter.String()
	}
	if s.Index != nil {
		j.Index, j.Covered = s.Index.Index.Name, s.Index.Covered
	}
	if s.Merge != nil {
		j.Merge = s.Merge.On
	}
	if s.Sort != nil {
		j.Sort = orderNames(s.Sort.Keys)
	}
	if s.Limit >= 0 {
		l := s.Limit
		j.Limit = &l
	}
	b, _ := json.MarshalIndent(j, "", "  ")
	return string(b) + "\n"
}

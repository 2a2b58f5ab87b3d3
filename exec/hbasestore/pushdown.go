package hbasestore

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
)

// Pushdown is what a region server evaluates for rkql: the column
// projection, keys-only reads, the row limit of a scan, several ranges
// read forward by one scan (a MultiRowRangeFilter), and the parts of
// a filter that HBase's filters decide exactly as SQL does (a row passes
// only when the condition is TRUE). See SplitFilter for which parts those
// are.
type Pushdown struct{}

var _ exec.Pushdown = Pushdown{}

// Pushdown returns the store's Pushdown.
func (s *Store) Pushdown() exec.Pushdown { return Pushdown{} }

// StoreName names the store in EXPLAIN.
func (Pushdown) StoreName() string { return "HBase" }

// Features are what the region server applies.
func (Pushdown) Features() exec.Features {
	return exec.Features{Projection: true, KeysOnly: true, Limit: true, MultiRange: true, Cells: true}
}

// SplitFilter gives the region server each top-level conjunct of f that
// becomes an exact HBase filter, and keeps the rest in the client:
//
//   - a stored column compared with =, != or IN, where its encoding has
//     one byte form per value (strings and bytes, text dates, binary
//     integers); with <, <=, >, >= or BETWEEN where its bytes also sort
//     like its values (strings and bytes, text dates) or where the
//     values split at zero into ranges of bytes that do (binary
//     integers, see signed.go); with LIKE (strings and bytes); and IS
//     [NOT] NULL: SingleColumnValueFilters, with filterIfMissing where a
//     missing cell (NULL) must fail. Text numbers and booleans have
//     several byte forms, and doubles two zeros: they stay in the client;
//   - a key field compared with =, != or IN, or matched with LIKE (text
//     fields that end at a one-byte delimiter or at the end of the key):
//     a RowFilter whose regular expression walks the whole key layout;
//     = and IN on a field at a fixed offset are, on forward reads, a
//     FuzzyRowFilter, which seeks over the rows that cannot match;
//   - NOT over those, rewritten to the negated predicate, and AND and OR
//     of them (FilterLists).
//
// An IN list or OR of more than maxServerTests values stays in the
// client: HBase would test every row against its values one by one,
// where the client looks the row's value up in a hash set.
//
// A read of several versions keeps the whole filter in the client, which
// sees each version as a row of its own.
func (Pushdown) SplitFilter(t *catalog.Table, f expr.Expr, versions int) exec.Split {
	if f == nil {
		return exec.Split{}
	}
	if versions > 1 {
		return exec.Split{Client: f, Why: []string{"VERSIONS: the filter applies to each version of a row, and HBase filters test the newest"}}
	}
	var sp exec.Split
	var server, client []expr.Expr
	for _, c := range expr.Conjuncts(f) {
		tr, err := compile(t, c)
		if err != nil {
			client = append(client, c)
			sp.Why = append(sp.Why, err.Error())
			continue
		}
		server = append(server, c)
		sp.How = append(sp.How, tr.how)
	}
	sp.Server, sp.Client = expr.AndOf(server), expr.AndOf(client)
	return sp
}

// checkPushable refuses a read with parts the Pushdown does not accept: a
// filter that does not translate whole into HBase filters, a filter over
// several versions, or a projection or filter without the table layout.
func checkPushable(o exec.ReadOptions) error {
	if o.Ranges != nil && o.Reverse {
		return fmt.Errorf("several ranges in one reversed scan: %w", exec.ErrNotPushable)
	}
	if (o.Filter != nil || o.Columns != nil) && o.Table == nil {
		return fmt.Errorf("a projection or filter without the table layout: %w", exec.ErrNotPushable)
	}
	if o.Filter == nil {
		return nil
	}
	if o.Versions > 1 {
		return fmt.Errorf("a filter over %d versions: %w", o.Versions, exec.ErrNotPushable)
	}
	for _, c := range expr.Conjuncts(o.Filter) {
		if _, err := compile(o.Table, c); err != nil {
			return fmt.Errorf("%s: %w", err.Error(), exec.ErrNotPushable)
		}
	}
	return nil
}

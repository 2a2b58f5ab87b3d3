package hbase

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
)

// Pushdown is what a region server evaluates for rkql: the row limit of a
// scan. Filters stay in the client.
type Pushdown struct{}

var _ exec.Pushdown = Pushdown{}

// Pushdown returns the store's Pushdown.
func (s *Store) Pushdown() exec.Pushdown { return Pushdown{} }

// StoreName names the store in EXPLAIN.
func (Pushdown) StoreName() string { return "HBase" }

// Features are what the region server applies.
func (Pushdown) Features() exec.Features { return exec.Features{Limit: true} }

// SplitFilter leaves the filter to the client.
func (Pushdown) SplitFilter(_ *catalog.Table, f expr.Expr, _ int) exec.Split {
	return exec.Split{Client: f, Why: []string{"no server filter is built for this condition"}}
}

// checkPushable refuses a read with parts the Pushdown did not accept.
func checkPushable(o exec.ReadOptions) error {
	if o.Filter != nil || o.Columns != nil {
		return exec.ErrNotPushable
	}
	return nil
}

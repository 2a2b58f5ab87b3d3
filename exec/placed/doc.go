// Package placed holds a plan placed on a store: the planner's plan,
// which placing leaves as it is, and what the store was asked to do of
// its work. CockroachDB keeps its logical and physical plans apart the
// same way.
//
//	planner.Select ──exec.Place(store, options)──▶ *placed.Plan ──▶ EXPLAIN, exec
//	  (every filter,        asks the store's Pushdown    a Scan per access: the
//	   limit and count       and Aggregator what they     store's filter, limit,
//	   in the client)        take                         columns; the conditions
//	                                                      left to the client; the
//	                                                      counts the store does
//
// Invariants: a Plan never changes the planner's nodes it refers to, and
// placing one plan twice (say with pushdown on and off) gives two Plans
// over the same unchanged plan. Package exec fills a Plan and reads it
// back to run it; EXPLAIN reads it through planner.Placing, so that it
// says SERVER only for what the store was asked to do. internal/arch's
// test holds exec to never assigning to a planner node.
package placed

// Package design judges rowkey layouts: LINT finds the anti-patterns
// rowkey-design guides warn about (hotspots, long keys, delimiters and
// padding that break order, …), SIMULATE shows how a write stream spreads over
// a table's regions, and CreateStatement prints the HBase shell statement
// that makes a table with its families and split points.
//
// It reads only the catalog; nothing here touches a store.
package design

// Package examples holds the example catalog (catalog.yaml, embedded in the
// binary) and deterministic data for its tables: one table per rowkey
// pattern of the source documents. Data and the differential tests' random
// queries draw values from the same per-column domains, so queries match
// rows; Rows is deterministic for a seed.
package examples

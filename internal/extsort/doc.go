// Package extsort is an external merge sort of byte records by key.
//
// A Sorter takes records (a key and a value) in any order and gives them
// back in key order, records of one key in the order they were added:
// the sort is stable. It holds about a limit's worth of records in
// memory; past it, each full run is sorted and spilled to a temporary
// file, and Iter merges the runs, comparing the heads of all runs at once
// (a heap), so that the records come out in one pass over the files.
//
// A record is stored as one length-prefixed entry: a uvarint length of
// fixed width, then the key's uvarint length, the key and the value. Runs
// in memory and in files hold the same entries. A temporary file is
// removed as soon as it is created, so it is gone once closed however
// the process ends; Close closes them. A spilled entry that does not
// decode is ErrBadRecord.
//
// The bulk import (engine.Import) puts a table's mutations in key order
// with it, so that the store receives them as one ascending sequence.
package extsort

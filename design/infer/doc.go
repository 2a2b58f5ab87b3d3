// Package infer proposes a catalog entry for a table from a sample of its
// rows: the keys (each region's first keys and keys spread through it) and
// the cells of those rows. It is what INFER TABLE prints.
//
// A Sample is plain data (keys and cells), so inference runs and is tested
// without a store. Infer reads the keys left to right: literal delimiters,
// Bytes.toBytes integers and times (a time is an integer whose every
// sampled value, read as milliseconds, seconds or microseconds, forwards
// or as Long.MAX_VALUE minus it, falls in 2000..2100), text fields ended by
// a delimiter, a pad or the key's end, zero-padded decimal numbers and
// yyyyMMdd dates (forwards or as 99999999 minus them), reversed text, and a
// random decimal suffix (rows that share everything before it). Key bytes
// that could be computed from the other fields (an md5 hex prefix, a
// String.hashCode, murmur3 or Arrays.hashCode remainder, a bucket, a
// Phoenix salt byte) are proposed only when recomputing them from the
// fields gives every sampled key's bytes.
//
// Invariants: a proposal with Found set loads as a catalog table that reads
// every sampled key back (catalog.Table.DecodeKey, which also checks each
// derived component) and writes it again byte for byte
// (catalog.Table.EncodeKey); the recomputation is the catalog's own. When
// no reading does, the proposal is the raw entry: the whole key one BYTES
// field, each qualifier a BYTES column, and Found is false.
package infer

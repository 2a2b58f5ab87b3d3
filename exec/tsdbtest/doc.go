// Package tsdbtest checks, on any exec.Store, that rkql reads OpenTSDB's
// tsdb table whatever form its points take: a 2-byte second cell, a
// 4-byte millisecond cell, or a compacted cell holding an hour of either
// (RunPointForms). The cells are built by examples.OpenTSDB from
// OpenTSDB's rules, not with rkql's codecs.
package tsdbtest

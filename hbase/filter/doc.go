// Package filter describes HBase server-side filters and comparators.
//
// A Filter is a value that knows its Java class name and how to serialize
// its class-specific protobuf message; the hbase client wraps that pair in
// the Filter message of a Get or Scan. The server loads the class by name
// and parses the bytes, so a filter only works if its class exists on the
// server (all of these are part of HBase itself).
//
// Filters: Prefix, Row, Family, Qualifier, Value (compare filters, each with
// a Comparator), SingleColumnValue, List (AND/OR), MultiRowRange, FuzzyRow,
// KeyOnly, FirstKeyOnly, Page, ColumnPrefix. Comparators: Binary,
// BinaryPrefix, RegexString, Substring.
//
// Values here do no I/O and are immutable once built. Marshal validates
// what the server would otherwise reject (missing comparators, fuzzy masks
// of the wrong length, empty lists).
package filter

// Package catalog describes HBase tables whose rowkeys were designed by
// hand: their families, logical columns, rowkey layouts, index tables and
// split policies, loaded from a strict YAML file (Parse, LoadFile).
//
// A rowkey Layout is an ordered list of Components: fields (text,
// zero-padded decimal, sortable binary with the sign bit flipped, java as
// Java's Bytes.toBytes writes it, integers of 1 to 8 bytes, signed or
// unsigned, times in s, ms or us; ascending or descending as MAX - v;
// reversed characters; fixed width with padding or delimited by the
// literal that follows), literals, hash prefixes (md5 hex, Java
// String.hashCode() % N, Arrays.hashCode, murmur3 with a seed), buckets
// (f % N), a salt (Phoenix's over the rest of the key, or OpenTSDB's over
// chosen fields), random suffixes, and a repeated group of fields that
// ends the key (OpenTSDB's tag pairs; Table.Repeats). A Table may be Wide:
// each point a cell of a family holds is a logical row, its qualifier
// holding an offset and flags that give the value's width (Wide.Points,
// Wide.RowCell); the opentsdb qualifier format reads OpenTSDB's second,
// millisecond, compacted and append cells.
//
// For each component the package knows how to write it (EncodeField,
// Compute), read it back (DecodeField, DecodeNumber; Table.DecodeKey), and
// which byte span a set of its values occupies (FieldSpan, PrefixSpan),
// which is all the planner needs to turn predicates into key ranges.
//
// Values have one reading from text and one SQL rendering, shared by every
// statement, the importer and DECODE KEY: ParseText (BYTES in HBase's
// Bytes.toStringBinary form) and Value.String. A text-encoded DOUBLE cell
// is written as Java's Double.toString writes it.
//
// The layout statements write catalogs through this package too: TableSpec
// and its parts are the YAML shape the loader reads; RenderTable writes one
// table in the example catalog's style; AddTable, DropTable, AddIndex,
// DropIndex, AddColumn, SetFamily and SetIndexState (an index's state:
// unbuilt, Index.Unbuilt) edit a catalog's text, changing only
// the lines of the table they touch, and return text that Parse loads;
// TableSource returns one table's lines. (The way back, a table as CREATE
// TABLE, is engine.CreateTable, beside the conversion it inverts.)
//
// An encoding's name means the same bytes in a key and in a cell (java,
// text, phoenix); the old name binary loads with a warning
// (Catalog.Warnings). The phoenix encoding writes each Apache Phoenix 5.2
// type (PType) as Phoenix does, in keys (with Phoenix's separators; its
// trailing NULL fields left out, SeparatorOptional) and in cells.
// Qualifiers, literals, pads and splits are bytes in toStringBinary form,
// \xNN one byte even in YAML's double quotes.
//
// Invariants: a hash or bucket gives exactly the bytes the Java expression
// in the source documents gives, so rkql reads keys others wrote; a value
// that could not be read back as itself (a delimiter inside a delimited
// field, a pad byte at the padded edge, a negative number in decimal
// digits) is refused when written; a component whose OrderPreserving is
// true sorts its bytes in value order (reversed when Desc); a SignSplit
// one (ascending java, two's complement) does so within each sign, and
// SignParts cuts a range of it at zero into exact spans. The package imports nothing of rkql and does no I/O but LoadFile.
package catalog

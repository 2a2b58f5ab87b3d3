// Command rkql is an SQL-like query shell over HBase tables whose rowkeys
// were designed by hand.
//
//	rkql [flags]                  REPL on a terminal; otherwise reads statements from stdin
//	rkql -e 'STMT; STMT' [-e …]   run statements, print the results, exit
//	rkql -f script.sql            run a file (- is stdin)
//	rkql import --table T FILE    bulk-load logical rows (JSON lines, a JSON array, or CSV or TSV with a header)
//	rkql store check [--store D]  read every page of the embedded store and report damage
//	rkql store repair [--store D] save every readable row of a damaged store into a new file
//
// -e and -f may be repeated and mixed; they run in the order given.
//
// # Exit status and errors
//
// The exit status is 0 when every statement succeeded, 1 when one failed,
// and 2 for a usage error. The REPL exits 0 after errors, as psql does: the
// person typing saw them. Each failure is one line on stderr,
// "rkql: message", with "line:col: " before the message of a parse or plan
// error (and "file:" before that for -f). When stderr is a terminal, the
// source line and a caret under the error follow.
//
// An -e stops at its first failed statement and no later -e or -f runs.
// A file (-f) and stdin run every statement, like psql, and exit 1 at the
// end if one failed; --stop-on-error makes them stop at the first.
//
// Results that cannot be written fail the statement with one line
// ("writing results: …") and exit 1: a full disk, a closed pipe, and a
// stdout that was closed when rkql started (rkql … >&-). Go's runtime
// replaces such a stream with /dev/null before any Go code runs, so a C
// constructor (closedout_cgo.go) records which streams were closed; a
// build without cgo takes them to be open.
//
// Ctrl-C cancels the running statement, not the shell; --timeout bounds
// each statement.
//
// # The REPL
//
// When stdin and stdout are both terminals, statements are edited with a
// line editor: a statement may span lines (Enter runs it once it ends with
// ';', and starts an indented new line before that), Up and Down recall
// earlier statements whole, Tab completes keywords, meta-commands, tables,
// indexes and the columns of the statement's tables, Ctrl-C clears the
// line and Ctrl-D on an empty line quits. The history is kept in --history
// (default $XDG_STATE_HOME/rkql/history, else ~/.local/state/rkql/history;
// an empty --history keeps none), at most 1000 statements, and only the REPL
// writes it. With stdin a terminal but stdout not, the REPL reads plain
// lines with prompts.
//
// # Output
//
// --format is table on a terminal and tsv otherwise. csv and tsv print a
// header and an empty field for NULL; json prints one array of objects per
// result, jsonl one object per line. In JSON, timestamps are RFC 3339 UTC
// strings with milliseconds, dates YYYY-MM-DD, numbers numbers and BYTES
// toStringBinary text. EXPLAIN prints its plan as text in every format;
// DESCRIBE's key, families and splits follow its table in the table and
// markdown formats only.
//
// The table, markdown and tsv formats, which people read on terminals,
// show control characters escaped, so that a value cannot clear or
// recolour the screen: tab, newline and carriage return as \t, \n and \r
// (a table keeps newlines, markdown writes <br>), the other C0 controls
// and DEL as \xHH (ESC is \x1B, as toStringBinary writes a byte), the C1
// and bidirectional controls (U+0080–U+009F, U+202A–U+202E,
// U+2066–U+2069) as \uHHHH. csv and json keep every value as it is.
// EXPLAIN's text writes any such character as \uHHHH, which its JSON
// form reads as the same character.
//
// # Store
//
// Without --zk, rkql uses the embedded store in --store (default
// $XDG_DATA_HOME/rkql, else the user cache directory's rkql), and creates a
// table's physical table the first time a statement that writes, or an
// import, uses it. Statements that only read open the store read-only under
// a lock other readers share, and find a missing table empty; writes take
// the lock exclusively (see embedded.Options.ReadOnly).
//
// A damaged store file is refused with one line that names it. rkql store
// check reads every page without trusting the file, prints one line per
// table ("table t: 600 rows readable") and per problem ("problem: …"), and
// exits 1 if it found any. rkql store repair saves every table's metadata
// and every readable row into a new file, keeps the damaged file as
// rkql.db.damaged-<time> beside it, and prints per table how many rows it
// saved and how many it could not read. Both wait for the store's lock as
// statements do; a usage error exits 2.
//
// With --zk host:port[,host:port] (and --zk-root, default /hbase), rkql
// reads a real HBase cluster (package exec/hbasestore). It creates nothing on
// demand: CREATE TABLE t creates t's HBase table with its families,
// properties and split keys, and its index tables. Operators point this
// shell at production, so every statement that writes or changes a table
// (CREATE TABLE, INSERT, DELETE, BUILD INDEX, CHECK INDEX … REPAIR, and
// rkql import) is refused unless --allow-writes is given. --timeout
// (default 30s) bounds each statement, also when a server stops
// answering; the next statement reconnects. For rkql import it bounds each
// batch write, and a stalled write ends the import with the rows committed
// so far.
package main

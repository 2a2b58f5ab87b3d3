// Package shell is rkql's statement runner: the read loop shared by the
// REPL, -e, -f and stdin, the meta-commands, the output formats and the
// bulk importer.
//
//	IO.ReadLine ──> meta-command? ──> intent (quit, exec, set, print)
//	     │
//	     └─> buffer until parser.Complete ──> split at ';'
//	           ──> parser.Parse ──> planner.Plan ──> exec ──> rowWriter ──> IO.Stdout
//
// # Invariants
//
//   - A Session reads and writes only through its IO, so a transcript test
//     needs no terminal. Whether it is interactive is decided once, by the
//     IO, before the first line is read.
//   - Every statement runs under its own context: the statement timeout and
//     Ctrl-C (through Config.StatementContext) cancel that statement only.
//   - A failed statement is reported as exactly one line on the error
//     writer, "rkql: message", with line:col for parse and plan errors; a
//     panic inside a statement is recovered into "internal error: …". With
//     Settings.Caret (stderr is a terminal) the source line and a caret
//     follow.
//   - Rows stream from exec to the writer: csv, tsv, json, jsonl and
//     markdown hold one row at a time; table holds at most tableChunk rows
//     before it renders them.
//   - The store is opened on first use, so statements that need none
//     (EXPLAIN, DESCRIBE, ENCODE KEY, …) work without it.
package shell

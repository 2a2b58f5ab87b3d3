// Package shell is rkql's statement runner: the read loop shared by the
// REPL, -e, -f and stdin, the meta-commands and the output formats. It
// reads and formats; the engine runs statements and bulk imports
// (engine.Import), and the shell imports no exec package.
//
// A line read through IO.ReadLine is either a meta-command, which returns
// an intent (quit, exec, set, print) that the read loop carries out, or
// statement text, buffered until parser.Complete says it is whole and
// split at ';' tokens (parser.Scanner). Each statement is parsed
// (parser.Parse) and run by the engine (engine.Engine.Run), and its
// Result is formatted by a rowWriter onto IO.Stdout. The rest of the
// pipeline, from the plan to the store, is the engine's, drawn in
// DESIGN.md ("How a statement runs").
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
//   - An IO may return a statement of several lines from one ReadLine; the
//     session takes the lines one by one, so they behave exactly as if
//     they had been read one at a time.
//
// # The REPL on a terminal
//
// PromptIO is the line editor (go-prompt) used when stdin and stdout are
// both terminals. One ReadLine edits one statement over as many lines as
// it needs: Enter runs the text when enterRuns says it is whole (it ends
// with ';' outside strings and comments, or is a meta-command, quit, exit
// or empty), and otherwise starts an indented new line. Ctrl-C clears the
// text, Ctrl-D on an empty prompt is the end of input. The terminal is
// raw only while a statement is edited, so Ctrl-C during a statement is a
// SIGINT that cancels it.
//
// The history (history.go) keeps whole statements, at most
// DefaultHistorySize, in a file of one escaped statement a line; it is
// written only by PromptIO, and a file that cannot be created is reported
// once and then left alone. The completer (complete.go) reads the text
// around the cursor with parser.Scanner, which reads past malformed text,
// and suggests the words of parser.Keywords, meta-commands, tables,
// indexes and the columns of the tables the statement names, from the
// catalog in memory only. The shell has no scanner or keyword list of its
// own.
package shell

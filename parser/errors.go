package parser

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is an error at a position in rkql text: a syntax error, or an error
// of a later stage such as the planner about a statement that parsed. Every
// error returned by Parse and ParseOne is an *Error; use errors.As to get at
// its position.
type Error struct {
	// Pos is the byte offset of the error in the source text.
	Pos Pos
	// Line and Col are 1-based; Col counts characters, not bytes. They are
	// 0 when the error was made without the source text, as the planner's
	// are; Position(src, Pos) gives them.
	Line, Col int
	// Msg is the message without the position: lowercase, no trailing period.
	Msg string
	// Err is the cause, if any: Msg already says what it says, and Unwrap
	// returns it for errors.Is and errors.As.
	Err error
}

func newError(src string, p Pos, msg string) *Error {
	line, col := Position(src, p)
	return &Error{Pos: p, Line: line, Col: col, Msg: msg}
}

// Errorf returns an *Error at offset p, without a line and column, whose
// message is fmt.Sprintf(format, args...). As with fmt.Errorf, an operand of
// %w becomes the cause that Unwrap returns.
func Errorf(p Pos, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Pos: p, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Error returns "line:col: message", or only the message when the line is
// not known.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Unwrap returns the cause, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Context returns the line of src that holds the error and, under it, a caret
// pointing at the error's column:
//
//	SELECT * FORM t
//	         ^
//
// Tabs before the column are kept so that the caret lines up. The result has
// no trailing newline.
func (e *Error) Context(src string) string {
	p := clampPos(src, e.Pos)
	start := strings.LastIndexByte(src[:p], '\n') + 1
	end := strings.IndexByte(src[p:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += p
	}
	line := strings.TrimSuffix(src[start:end], "\r")
	var caret strings.Builder
	for _, r := range src[start:p] {
		if r == '\t' {
			caret.WriteByte('\t')
		} else {
			caret.WriteByte(' ')
		}
	}
	caret.WriteByte('^')
	return line + "\n" + caret.String()
}

func clampPos(src string, p Pos) int {
	switch {
	case p < 0:
		return 0
	case int(p) > len(src):
		return len(src)
	}
	return int(p)
}

// Position converts a byte offset in src into a 1-based line and column. The
// column counts characters (runes). Offsets outside src are clamped to it.
func Position(src string, p Pos) (line, col int) {
	off := clampPos(src, p)
	line = 1 + strings.Count(src[:off], "\n")
	start := strings.LastIndexByte(src[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(src[start:off])
}

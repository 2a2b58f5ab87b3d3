package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a syntax error. Every error returned by Parse and ParseOne is an
// *Error; use errors.As to get at its position.
type Error struct {
	// Pos is the byte offset of the error in the source text.
	Pos Pos
	// Line and Col are 1-based; Col counts characters, not bytes.
	Line, Col int
	// Msg is the message without the position: lowercase, no trailing period.
	Msg string
}

func newError(src string, p Pos, msg string) *Error {
	line, col := Position(src, p)
	return &Error{Pos: p, Line: line, Col: col, Msg: msg}
}

// Error returns "line:col: message".
func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

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

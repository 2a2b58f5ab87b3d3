package engine

import (
	"fmt"

	"github.com/rkql/rkql/exec"
)

// WriteError is a write statement that failed, with what it left behind.
// On a store that made it one unit (Undone), nothing stays. Otherwise
// Done rows were written before the failure and stay, and up to Unsure
// more, of the write that failed, may have been.
type WriteError struct {
	Verb   string // "INSERT", "UPSERT", "UPDATE" or "DELETE"
	Done   int64
	Unsure int64
	Undone bool
	Err    error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("%s failed %s: %v", e.Verb, e.Left(), e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// Left says what the failed statement left behind, after a verb such as
// "failed" or "timed out": "after 91,000 rows were updated" (and what
// may have been too), or "and was undone: no row was updated".
func (e *WriteError) Left() string {
	done := e.participle()
	if e.Undone {
		return "and was undone: no row was " + done
	}
	s := fmt.Sprintf("after %s %s %s", exec.Thousands(e.Done), rowsWere(e.Done), done)
	if e.Unsure > 0 {
		s += fmt.Sprintf(", and up to %s more may have been", exec.Thousands(e.Unsure))
	}
	return s
}

func (e *WriteError) participle() string {
	switch e.Verb {
	case "INSERT":
		return "inserted"
	case "UPDATE":
		return "updated"
	case "DELETE":
		return "deleted"
	}
	return "written"
}

func rowsWere(n int64) string {
	if n == 1 {
		return "row was"
	}
	return "rows were"
}

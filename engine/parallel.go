package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/exec"
)

// Parallel is the session's choice of how many scanners a read over
// several regions runs side by side: 0 is auto (one per region server
// the read's regions are on, at most exec.MaxAutoParallel), 1 reads
// serially, n runs up to n.
type Parallel int

// ParallelAuto is the default choice.
const ParallelAuto Parallel = 0

// MaxParallel is the most scanners a read runs at once.
const MaxParallel = exec.MaxParallel

// ParseParallel reads auto or a number from 1 to MaxParallel.
func ParseParallel(s string) (Parallel, error) {
	if strings.EqualFold(s, "auto") {
		return ParallelAuto, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxParallel {
		return 0, fmt.Errorf("parallel takes auto or a number of scanners from 1 to %d, not %q", MaxParallel, s)
	}
	return Parallel(n), nil
}

// String is auto or the number.
func (p Parallel) String() string {
	if p <= 0 {
		return "auto"
	}
	return strconv.Itoa(int(p))
}

// placeParallel is p as exec.PlaceOptions.Parallel takes it.
func (p Parallel) placeParallel() int {
	if p <= 0 {
		return exec.ParallelAuto
	}
	return int(p)
}

// Parallel reports the session's choice of parallel region reads.
func (e *Engine) Parallel() Parallel { return e.parallel }

// SetParallel chooses how many scanners a read over several regions
// runs side by side (see Parallel).
func (e *Engine) SetParallel(p Parallel) { e.parallel = p }

package shell

import (
	"fmt"

	"github.com/rkql/rkql/engine"
)

// parallelCmd is \parallel [auto|N]: with no argument it says the
// current choice.
func parallelCmd(c metaCall) (intent, error) {
	switch len(c.args) {
	case 0:
		return intent{kind: intentSet, text: "parallel", set: func(*Settings) {}}, nil
	case 1:
		p, err := engine.ParseParallel(c.args[0])
		if err != nil {
			return intent{}, fmt.Errorf(`\parallel takes auto or a number from 1 to %d, not %q`, engine.MaxParallel, c.args[0])
		}
		return intent{kind: intentSet, text: "parallel", set: func(s *Settings) { s.Parallel = p }}, nil
	}
	return intent{}, fmt.Errorf(`\parallel takes auto or a number from 1 to %d`, engine.MaxParallel)
}

// parallelText says what a choice does.
func parallelText(p engine.Parallel) string {
	switch {
	case p == engine.ParallelAuto:
		return "auto (one scanner per region server the regions read are on)"
	case p == 1:
		return "1 (regions are read one after another)"
	}
	return fmt.Sprintf("%d (up to %d regions read side by side)", int(p), int(p))
}

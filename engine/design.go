package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/planner"
)

// designRun runs the statements that judge a layout: LINT, SHOW CREATE
// TABLE and SIMULATE WRITES. They read only the catalog. ok is false for
// any other plan.
func designRun(p planner.Plan) (res *Result, ok bool, err error) {
	switch p := p.(type) {
	case *planner.Lint:
		return &Result{Text: lintText(p)}, true, nil
	case *planner.ShowCreate:
		return &Result{Text: design.CreateStatement(p.Table)}, true, nil
	case *planner.Simulate:
		res, err := simulate(p)
		return res, true, err
	}
	return nil, false, nil
}

func lintText(p *planner.Lint) string {
	var fs []design.Finding
	for _, t := range p.Tables {
		if t.IndexOf != nil && len(p.Tables) > 1 {
			continue // linted with its data table
		}
		fs = append(fs, design.Lint(t)...)
	}
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s: %s [%s]\n  %s\n  fix: %s\n", f.Table, f.Severity, f.Rule, f.Reason, f.Fix)
	}
	errs, warns := design.Count(fs)
	infos := len(fs) - errs - warns
	if len(fs) == 0 {
		b.WriteString("no findings: the layout avoids every anti-pattern LINT knows\n")
	} else {
		fmt.Fprintf(&b, "%d error(s), %d warning(s), %d note(s)\n", errs, warns, infos)
	}
	return b.String()
}

// simSeed fixes SIMULATE's draws so that a run repeats.
const simSeed = 1

func simulate(p *planner.Simulate) (*Result, error) {
	gens := map[string]design.Gen{}
	for _, f := range p.With {
		g := design.Gen{Lo: f.Lo, Hi: f.Hi}
		switch f.Kind {
		case "sequence":
			g.Kind = design.GenSequence
		case "now":
			g.Kind = design.GenNow
		case "uniform":
			g.Kind = design.GenUniform
		case "zipf":
			g.Kind = design.GenZipf
		default:
			return nil, fmt.Errorf("unknown generator %s", f.Kind)
		}
		gens[f.Column] = g
	}
	a, err := design.Simulate(p.Table, p.Rows, gens, simSeed)
	if err != nil {
		return nil, err
	}
	if p.Compare == nil {
		return &Result{Text: a.Text() + "nothing was written\n"}, nil
	}
	b, err := design.Simulate(p.Compare, p.Rows, gens, simSeed)
	if err != nil {
		return nil, err
	}
	return &Result{Text: design.CompareText(a, b) + "nothing was written\n"}, nil
}

// legend explains the notation of the KEY line: the key of the table the
// SELECT reads first, an index's when it goes through one; for a union,
// of each table its branches read first, each line once.
func legend(sel *planner.Select) []string {
	var out []string
	for _, acc := range sel.Accesses() {
		for _, line := range acc.Table.Key.Legend() {
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out
}

package design

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// LintReport returns LINT's text: the findings of the tables, each with
// its reason and fix, and their count. An index table among several is
// judged with its data table.
func LintReport(tables []*catalog.Table) string {
	var fs []Finding
	for _, t := range tables {
		if t.IndexOf != nil && len(tables) > 1 {
			continue // linted with its data table
		}
		fs = append(fs, Lint(t)...)
	}
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s: %s [%s]\n  %s\n  fix: %s\n", f.Table, f.Severity, f.Rule, f.Reason, f.Fix)
	}
	errs, warns := Count(fs)
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

// SimulateReport returns SIMULATE WRITES's text: how the write stream
// spreads over the table's regions, beside the compared table's when
// there is one.
func SimulateReport(p *planner.Simulate) (string, error) {
	gens := map[string]Gen{}
	for _, f := range p.With {
		g := Gen{Lo: f.Lo, Hi: f.Hi}
		switch f.Kind {
		case "sequence":
			g.Kind = GenSequence
		case "now":
			g.Kind = GenNow
		case "uniform":
			g.Kind = GenUniform
		case "zipf":
			g.Kind = GenZipf
		default:
			return "", fmt.Errorf("unknown generator %s", f.Kind)
		}
		gens[f.Column] = g
	}
	a, err := Simulate(p.Table, p.Rows, gens, simSeed)
	if err != nil {
		return "", err
	}
	if p.Compare == nil {
		return a.Text() + "nothing was written\n", nil
	}
	b, err := Simulate(p.Compare, p.Rows, gens, simSeed)
	if err != nil {
		return "", err
	}
	return CompareText(a, b) + "nothing was written\n", nil
}

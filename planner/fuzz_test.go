package planner_test

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// FuzzPlan plans any statement that parses against the example catalog:
// planning must never panic, and a SELECT's EXPLAIN must render.
func FuzzPlan(f *testing.F) {
	file, err := os.Open("testdata/explain")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(file)
	prev := ""
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(prev, "plan") {
			f.Add(line)
		}
		prev = line
	}
	file.Close()
	cat := exampleCatalog(f)
	plans := []*planner.Planner{
		planner.New(cat, planner.Options{}),
		planner.New(cat, planner.Options{AllowFullScan: true, Limits: planner.Limits{MaxKeys: 2, MaxFanout: 2}}),
	}
	f.Fuzz(func(t *testing.T, src string) {
		stmts, err := parser.Parse(src)
		if err != nil {
			return
		}
		for _, s := range stmts {
			for _, pl := range plans {
				p, err := pl.Plan(context.Background(), s)
				if err != nil {
					continue // an error is a fine answer; a panic is not
				}
				if sel, ok := p.(*planner.Select); ok {
					if e := sel.Explain(planner.ExplainEnv{}, nil); e.Text() == "" || e.JSON() == "" {
						t.Fatalf("empty EXPLAIN for %q", src)
					}
				}
			}
		}
	})
}

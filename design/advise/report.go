package advise

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Report returns ADVISE's text: it reads the workload file, ranks the
// designs for each table its queries read, and shows the table of
// estimated costs and the recommended design. src is the catalog's YAML
// text, from which the candidate designs are made.
func Report(file string, cat *catalog.Catalog, src []byte) (string, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("ADVISE: %w", err)
	}
	queries, err := ParseWorkload(string(text))
	if err != nil {
		return "", fmt.Errorf("ADVISE %s: %w", file, err)
	}
	if len(src) == 0 {
		return "", fmt.Errorf("ADVISE needs the catalog's YAML text, and this session has none")
	}
	var order []string
	byTable := map[string][]Query{}
	for _, q := range queries {
		name := q.Stmt.Table.Name
		t, ok := cat.Table(name)
		if !ok {
			return "", fmt.Errorf("ADVISE %s line %d: table %q does not exist", file, q.Line, name)
		}
		if t.IndexOf != nil {
			return "", fmt.Errorf("ADVISE %s line %d: %s is an index table; ask about its data table %s", file, q.Line, name, t.IndexOf.Name)
		}
		if _, seen := byTable[name]; !seen {
			order = append(order, name)
		}
		byTable[name] = append(byTable[name], q)
	}
	var b strings.Builder
	for _, name := range order {
		t, _ := cat.Table(name)
		qs := byTable[name]
		designs, err := Designs(src, t, qs)
		if err != nil {
			return "", fmt.Errorf("ADVISE: %w", err)
		}
		writeAdvice(&b, t, qs, Rank(qs, designs, Options{}))
	}
	return b.String(), nil
}

func writeAdvice(b *strings.Builder, t *catalog.Table, qs []Query, ranked []Result) {
	fmt.Fprintf(b, "%s: %d quer%s, estimated over 10,000,000 rows (rows read + 10 per scan or get, weighted)\n", t.Name, len(qs), map[bool]string{true: "y", false: "ies"}[len(qs) == 1])
	for i, q := range qs {
		fmt.Fprintf(b, "  Q%d (weight %g, line %d): %s\n", i+1, q.Weight, q.Line, q.Stmt.String())
	}
	best := ranked[0]
	fmt.Fprintf(b, "\n %-4s %-44s %14s %10s\n", "rank", "design", "cost", "vs best")
	for i, r := range ranked {
		ratio := "1x"
		if i > 0 {
			ratio = times(r.Total, best.Total)
		}
		fmt.Fprintf(b, " %-4d %-44s %14s %10s\n", i+1, r.Design.Name, catalog.Thousands(r.Total), ratio)
	}
	fmt.Fprintf(b, "\nrecommended: %s\n", best.Design.Name)
	for i, c := range best.Costs {
		refused := ""
		if c.Refused {
			refused = " (refused: a full scan)"
		}
		fmt.Fprintf(b, "  Q%d: %s, ~%s rows%s\n", i+1, c.Plan, catalog.Thousands(c.Rows), refused)
	}
	worst := ranked[len(ranked)-1]
	if worst.Total > best.Total {
		fmt.Fprintf(b, "  %s less than %s\n", times(worst.Total, best.Total), worst.Design.Name)
	}
	if best.Design.YAML != "" {
		fmt.Fprintf(b, "catalog YAML (under %s):\n%s", map[bool]string{true: "the table's indexes:", false: "tables:"}[strings.Contains(best.Design.Name, "index")], indentLines(best.Design.YAML, "  "))
	}
	b.WriteString("\n")
}

func times(a, b float64) string {
	if b <= 0 {
		return "∞"
	}
	r := a / b
	if r < 10 {
		return fmt.Sprintf("%.1fx", r)
	}
	return catalog.Thousands(math.Round(r)) + "x"
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

package arch

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/rkql/rkql/"

// allowed lists, per package (and its subpackages unless listed apart),
// the rkql packages it may import directly.
var allowed = map[string][]string{
	"parser":          {},
	"catalog":         {},
	"expr":            {"catalog"},
	"planner":         {"parser", "catalog", "expr"},
	"exec":            {"exec/placed", "planner", "catalog", "expr"},
	"exec/placed":     {"planner", "catalog", "expr"},
	"exec/embedded":   {"exec", "catalog", "expr"},
	"exec/hbasestore": {"exec", "hbase", "catalog", "expr"},
	"exec/exectest":   {"exec", "exec/exectest/ref", "planner", "parser", "catalog", "expr", "examples"},
	// The reference evaluator shares no code with what it checks.
	"exec/exectest/ref": {"catalog", "parser"},
	"exec/tsdbtest":     {"exec", "exec/exectest", "planner", "parser", "catalog", "expr", "examples"},
	"engine":            {"parser", "planner", "exec", "catalog", "expr", "design", "internal/extsort"},
	"design":            {"catalog", "parser", "planner"},
	"design/infer":      {"catalog"},
	"hbase":             {"hbase"},
	"examples":          {"catalog"},
	"examples/load":     {"catalog", "examples", "exec", "engine"},
	"internal":          {},
	"internal/extsort":  {},
	// The Phoenix test helper runs Phoenix's JDBC driver; no rkql code.
	"internal/phoenixtest": {},
	"scripts":              {},
}

// rule finds the rule of a package: its own entry or its nearest parent's.
func rule(pkg string) ([]string, bool) {
	for p := pkg; p != ""; {
		if r, ok := allowed[p]; ok {
			return r, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return nil, false
}

func permitted(r []string, imp string) bool {
	for _, a := range r {
		if imp == a || strings.HasPrefix(imp, a+"/") {
			return true
		}
	}
	return false
}

func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/rkql/rkql/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		if strings.HasPrefix(pkg, "cmd/") {
			continue // the binary wires everything
		}
		r, ok := rule(pkg)
		if !ok {
			t.Errorf("package %s has no import rule; add it to allowed", pkg)
			continue
		}
		checked++
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if !permitted(r, imp) {
				t.Errorf("%s imports %s, which DESIGN.md (the repository's architecture document) does not allow", pkg, imp)
			}
		}
	}
	if checked < 8 {
		t.Fatalf("checked only %d packages; go list found too few", checked)
	}
}

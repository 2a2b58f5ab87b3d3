package arch

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shellPkg reads statements, runs meta-commands and formats results; the
// engine runs statements and imports. What the shell needs of a store or
// of a result (the store's opener, row reuse, what a failed write left)
// the engine gives it, so the shell imports no exec package.
const shellPkg = module + "cmd/rkql/shell"

// shellImports is the rkql packages the shell imports, as go list gives
// them.
func shellImports(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, shellPkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var rkql []string
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, module) {
			rkql = append(rkql, strings.TrimPrefix(imp, module))
		}
	}
	return rkql
}

// isExec reports whether pkg is exec or one of its subpackages.
func isExec(pkg string) bool { return pkg == "exec" || strings.HasPrefix(pkg, "exec/") }

func TestShellImportsNoExec(t *testing.T) {
	imps := shellImports(t)
	if len(imps) == 0 {
		t.Fatal("go list found no rkql import of the shell")
	}
	engine := false
	for _, imp := range imps {
		engine = engine || imp == "engine"
		if isExec(imp) {
			t.Errorf("cmd/rkql/shell imports %s: the shell reads and formats, and what it needs of the store the engine gives it (DESIGN.md, The shell)", imp)
		}
	}
	if !engine {
		t.Errorf("cmd/rkql/shell does not import engine (imports: %v): go list read the wrong package", imps)
	}
}

// The shell's tests run on a real store, the embedded one, and reach no
// further into exec than that: what they check of a store or a result,
// they check through the engine. A benchmark may import exec too, for a
// raw baseline that reads the store without rkql.
func TestShellTestsImportOnlyTheEmbeddedStore(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "cmd", "rkql", "shell", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files of cmd/rkql/shell: %v", err)
	}
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			imp := strings.TrimPrefix(strings.Trim(spec.Path.Value, `"`), module)
			switch {
			case !isExec(imp) || imp == "exec/embedded":
			case imp == "exec" && strings.HasSuffix(path, "_bench_test.go"):
			default:
				t.Errorf("%s imports %s: of exec, the shell's tests use only the embedded store (and benchmarks exec, for a raw baseline)", filepath.Base(path), imp)
			}
		}
	}
}

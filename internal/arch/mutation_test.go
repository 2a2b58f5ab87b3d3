package arch

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readers are the packages that take the planner's plans and must leave
// them as they are: exec places a plan by making a placed plan of its own
// (package exec/placed), never by writing into the planner's nodes.
var readers = []string{"exec", "exec/placed", "exec/exectest", "exec/tsdbtest", "engine"}

// TestPlanIsReadOnly type-checks the readers' files and fails on any
// assignment or increment that writes a field of a type declared in
// package planner, an element of one, or a whole planner value through a
// pointer.
func TestPlanIsReadOnly(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", exportData(t, root))
	planner, err := imp.Import(module + "planner")
	if err != nil {
		t.Fatal(err)
	}
	plan := planTypes(planner)
	if len(plan) < 12 {
		t.Fatalf("found only %d types of plans in package planner", len(plan))
	}
	for _, dir := range readers {
		pkg, files := parseDir(t, fset, filepath.Join(root, dir))
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp.(types.ImporterFrom)}
		if _, err := conf.Check(module+dir, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", dir, err)
		}
		for _, f := range files {
			for _, w := range plannerWrites(info, plan, f) {
				t.Errorf("%s: %s writes %s, a part of the planner's plan; place the plan instead (package exec/placed)", fset.Position(w.Pos()), pkg, types.ExprString(w))
			}
		}
	}
}

// exportData returns a lookup of the compiled export data of the
// readers' dependencies, as go list -export finds it.
func exportData(t *testing.T, root string) importer.Lookup {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}"}
	for _, r := range readers {
		args = append(args, "./"+r)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, " "); ok && file != "" {
			files[path] = file
		}
	}
	return func(path string) (io.ReadCloser, error) {
		file, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
}

// parseDir parses the Go files, tests apart, that build for this machine
// in one package directory.
func parseDir(t *testing.T, fset *token.FileSet, dir string) (string, []*ast.File) {
	t.Helper()
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return bp.Name, files
}

// plannerWrites lists the expressions of f that are written to and reach
// into a value of a planner type.
func plannerWrites(info *types.Info, plan map[*types.TypeName]bool, f *ast.File) []ast.Expr {
	var out []ast.Expr
	check := func(lhs ast.Expr) {
		if writesPlan(info, plan, lhs) {
			out = append(out, lhs)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					check(l)
				}
			}
		case *ast.IncDecStmt:
			check(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				if n.Key != nil {
					check(n.Key)
				}
				if n.Value != nil {
					check(n.Value)
				}
			}
		}
		return true
	})
	return out
}

// writesPlan reports whether writing to e changes a plan: e, or an
// expression it selects, indexes or dereferences on the way to its root,
// is a field of one of the plan types, or a plan value reached through a
// pointer.
func writesPlan(info *types.Info, plan map[*types.TypeName]bool, e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal && plan[fieldOwner(sel)] {
				return true
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			if n, ok := types.Unalias(info.TypeOf(x)).(*types.Named); ok && plan[n.Obj()] {
				return true
			}
			e = x.X
		default:
			return false
		}
	}
}

// fieldOwner is the named type whose struct declares the field sel
// selects, through any embedded fields.
func fieldOwner(sel *types.Selection) *types.TypeName {
	t := sel.Recv()
	idx := sel.Index()
	for i, j := range idx {
		n, _ := types.Unalias(deref(t)).(*types.Named)
		st, ok := types.Unalias(deref(t)).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		if i == len(idx)-1 {
			if n == nil {
				return nil
			}
			return n.Obj()
		}
		t = st.Field(j).Type()
	}
	return nil
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// planTypes are the types of package planner that make up plans: those
// that are a Node or a Plan, and every planner type their fields hold,
// however deep.
func planTypes(planner *types.Package) map[*types.TypeName]bool {
	scope := planner.Scope()
	iface := func(name string) *types.Interface {
		return scope.Lookup(name).Type().Underlying().(*types.Interface)
	}
	node, plan := iface("Node"), iface("Plan")
	out := map[*types.TypeName]bool{}
	var add func(t types.Type)
	add = func(t types.Type) {
		switch t := types.Unalias(t).(type) {
		case *types.Pointer:
			add(t.Elem())
		case *types.Slice:
			add(t.Elem())
		case *types.Array:
			add(t.Elem())
		case *types.Map:
			add(t.Key())
			add(t.Elem())
		case *types.Named:
			if t.Obj().Pkg() != planner || out[t.Obj()] {
				return
			}
			out[t.Obj()] = true
			add(t.Underlying())
		case *types.Struct:
			for i := range t.NumFields() {
				add(t.Field(i).Type())
			}
		}
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if p := types.NewPointer(tn.Type()); types.Implements(p, node) || types.Implements(p, plan) {
			add(tn.Type())
		}
	}
	return out
}

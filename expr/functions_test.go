package expr

import (
	"flag"
	"os"
	"strings"
	"testing"
	"unicode"
)

var rewrite = flag.Bool("rewrite", false, "rewrite docs/functions.md from the function table")

const functionsDoc = "../docs/functions.md"

// functionReference is the text of docs/functions.md, made from the
// function table.
func functionReference() string {
	var b strings.Builder
	b.WriteString("# Scalar functions\n\n")
	b.WriteString("<!-- Generated from expr.Functions by `go test ./expr -run TestFunctionReference -rewrite`; do not edit. -->\n\n")
	b.WriteString("A NULL argument gives NULL, except where a function says otherwise.\n")
	b.WriteString("A NULL literal fits an argument of any type. `\\h NAME` in the shell\n")
	b.WriteString("shows one function.\n\n")
	for _, f := range Functions {
		b.WriteString("- `" + f.Signature() + "`: " + f.Doc + ". Example: `" + f.Example + "`\n")
	}
	return b.String()
}

// TestFunctionReference checks docs/functions.md against the function
// table; -rewrite writes it.
func TestFunctionReference(t *testing.T) {
	want := functionReference()
	if *rewrite {
		if err := os.WriteFile(functionsDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(functionsDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from the function table; run go test ./expr -run TestFunctionReference -rewrite\ngot:\n%s\nwant:\n%s", functionsDoc, got, want)
	}
}

// TestFunctionTable checks the table's invariants.
func TestFunctionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Functions {
		switch {
		case f.Name == "" || strings.ToUpper(f.Name) != f.Name || strings.IndexFunc(f.Name, unicode.IsSpace) >= 0:
			t.Errorf("%q: a name is one upper-case word", f.Name)
		case seen[f.Name]:
			t.Errorf("%s: listed twice", f.Name)
		case f.Build == nil || f.Result.Of == nil || f.Result.Doc == "":
			t.Errorf("%s: no Build or Result", f.Name)
		case f.Doc == "" || f.Example == "" || strings.HasSuffix(f.Doc, "."):
			t.Errorf("%s: a Doc line without a final period and an Example are required", f.Name)
		case f.Variadic && len(f.Params) == 0:
			t.Errorf("%s: variadic without a parameter", f.Name)
		case !strings.HasPrefix(f.Example, f.Name+"("):
			t.Errorf("%s: the example %s does not call it", f.Name, f.Example)
		}
		seen[f.Name] = true
		optional := false
		for _, p := range f.Params {
			if optional && !p.Optional {
				t.Errorf("%s: parameter %s follows an optional one", f.Name, p.Name)
			}
			optional = optional || p.Optional
		}
		if LookupFunction(f.Name) != f {
			t.Errorf("%s: LookupFunction does not find it", f.Name)
		}
	}
	if LookupFunction("COUNT") != nil {
		t.Error("an aggregate is not a scalar function")
	}
}

func TestArityText(t *testing.T) {
	for name, want := range map[string]string{
		"UPPER": "1 argument", "SUBSTR": "2 or 3 arguments", "COALESCE": "at least 1 argument(s)", "NOW": "no arguments",
	} {
		if got := LookupFunction(name).ArityText(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

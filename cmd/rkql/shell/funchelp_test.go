package shell

import (
	"strings"
	"testing"

	"github.com/rkql/rkql/expr"
)

// \h lists every scalar function and shows each one's signature, from
// the function table.
func TestSyntaxHelpCoversFunctions(t *testing.T) {
	all, err := syntaxCmd(metaCall{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range expr.Functions {
		if !strings.Contains(all.text, f.Name) {
			t.Errorf(`\h does not list %s:\n%s`, f.Name, all.text)
		}
		it, err := syntaxCmd(metaCall{args: []string{strings.ToLower(f.Name)}})
		if err != nil || !strings.Contains(it.text, "Function: "+f.Name+"\n") || !strings.Contains(it.text, f.Signature()) {
			t.Errorf(`\h %s: %v %q`, f.Name, err, it.text)
		}
	}
	it, _ := syntaxCmd(metaCall{args: []string{"substr"}})
	want := "Function: SUBSTR\nDescription: the characters of s at positions from to from+n-1 that exist, counting from 1; without n, to the end\n" +
		"Syntax:\nSUBSTR(s STRING, from BIGINT[, n BIGINT]) -> STRING\nExample: SUBSTR(seller, 2, 3)\n"
	if it.text != want {
		t.Errorf("\\h substr:\n%s\nwant:\n%s", it.text, want)
	}
}

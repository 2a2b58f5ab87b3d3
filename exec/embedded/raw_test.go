package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

func TestRaw(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	exectest.RunRaw(t, st, "rawt")
}

package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
)

func TestRaw(t *testing.T) {
	st := openStore(t)
	exectest.RunRaw(t, st, "rawt")
}

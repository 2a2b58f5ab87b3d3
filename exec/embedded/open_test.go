package embedded

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Opening a store that exists only reads it: the file is the same bytes
// afterwards, and its tables are there.
func TestOpenExistingDoesNotWrite(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(context.Background(), testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	putKeys(t, s, "t1", "a", "b")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, FileName)
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, err := s.Tables(context.Background())
	if err != nil || len(names) != 1 || names[0] != "t1" {
		t.Errorf("tables after reopening: %v, %v", names, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("opening an existing store changed its file")
	}
}

package examples

import (
	"testing"

	"github.com/rkql/rkql/catalog"
)

// TestCatalogCurrentNames: the example catalog uses no deprecated name.
func TestCatalogCurrentNames(t *testing.T) {
	c, err := catalog.Parse(CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) > 0 {
		t.Fatalf("the example catalog warns: %v", c.Warnings)
	}
}

package examples

import _ "embed"

// CatalogYAML is catalog.yaml, the example catalog, built into the binary
// so that rkql starts without a catalog file.
//
//go:embed catalog.yaml
var CatalogYAML []byte

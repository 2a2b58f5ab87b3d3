package embedded

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
)

// TablesFileName is the file beside the store file that keeps a copy of
// every table's metadata, as the meta bucket holds it. bbolt rewrites the
// page holding the meta bucket at each commit, often at the end of the
// file, so a file cut short usually loses it; Repair then reads the
// tables from this copy. The store never reads it otherwise.
const TablesFileName = FileName + ".tables"

// writeTablesFile writes the copy of the tables' metadata: a JSON object
// of table name to meta entry. It is written to a new file that replaces
// the old one, so a crash leaves the old copy or the new one; failing to
// write it is not an error of the write that changed the tables.
func writeTablesFile(dir string, tables map[string]*table) {
	out := map[string]json.RawMessage{}
	for name, t := range tables {
		if !t.absent {
			out[name] = t.meta
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	path := filepath.Join(dir, TablesFileName)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		_ = os.Remove(tmp)
		return
	}
	_ = os.Rename(tmp, path)
}

// readTablesFile reads the copy of the tables' metadata; a missing or
// unreadable copy has no tables.
func readTablesFile(dir string) map[string][]byte {
	b, err := os.ReadFile(filepath.Join(dir, TablesFileName))
	if err != nil {
		return nil
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(b, &in) != nil {
		return nil
	}
	out := make(map[string][]byte, len(in))
	for name, m := range in {
		out[name] = m
	}
	return out
}

// ensureTablesFile writes the copy when a store opened for writing has
// tables and no copy yet, as a store made before the copy existed.
func ensureTablesFile(dir string, tables map[string]*table) {
	if len(tables) == 0 {
		return
	}
	if _, err := os.Stat(filepath.Join(dir, TablesFileName)); errors.Is(err, os.ErrNotExist) {
		writeTablesFile(dir, tables)
	}
}

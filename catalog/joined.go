package catalog

// Joined returns the row of a join as a table of its own: the columns
// of the joined tables side by side, with no store, no key and no
// families. Statements over a join are compiled against it; it is never
// read or written.
func Joined(name string, cols []Column) *Table {
	t := &Table{Name: name, Key: &Layout{}, colByName: make(map[string]int, len(cols))}
	for _, c := range cols {
		c.KeyField, c.Hidden = false, false
		t.colByName[c.Name] = len(t.Columns)
		t.Columns = append(t.Columns, c)
	}
	return t
}

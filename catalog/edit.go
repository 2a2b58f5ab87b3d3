package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Edits of a catalog's YAML text. An edit changes only the lines of the
// table it touches: comments, order and formatting of everything else stay
// as they were. Items are found through yaml.v3's node tree, which gives
// each item's first line; an item runs to the last line indented deeper
// than its "- ", so that a comment at the item's own indentation stays
// with the item after it. Every edit loads the new text with Parse before
// returning it, so an edit never yields a catalog that does not load.

// ErrNoTable is the cause of an edit naming a table the catalog lacks.
var ErrNoTable = errors.New("catalog: no such table")

type yamlDoc struct {
	lines []string // each with its newline
	root  *yaml.Node
}

func parseDoc(src []byte) (*yamlDoc, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil {
		return nil, yamlError(err)
	}
	d := &yamlDoc{lines: strings.SplitAfter(string(src), "\n")}
	if len(d.lines) > 0 && d.lines[len(d.lines)-1] == "" {
		d.lines = d.lines[:len(d.lines)-1]
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 && n.Content[0].Kind == yaml.MappingNode {
		d.root = n.Content[0]
	}
	return d, nil
}

func (d *yamlDoc) bytes() []byte {
	var b bytes.Buffer
	for _, l := range d.lines {
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// mapEntry returns the key and value nodes of key in mapping m.
func mapEntry(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// findNamed returns the item of sequence seq whose name is name.
func findNamed(seq *yaml.Node, name string) (int, *yaml.Node) {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return -1, nil
	}
	for i, it := range seq.Content {
		if _, v := mapEntry(it, "name"); v != nil && v.Value == name {
			return i, it
		}
	}
	return -1, nil
}

func leading(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func blankOrComment(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}

// itemRange is the lines [start, end) of a sequence item, and the column of
// its "- ". head is where its comment lines start (start when none).
func (d *yamlDoc) itemRange(item *yaml.Node) (head, start, end, dash int, err error) {
	start = item.Line - 1
	if start < 0 || start >= len(d.lines) {
		return 0, 0, 0, 0, fmt.Errorf("catalog: item at line %d is out of range", item.Line)
	}
	line := d.lines[start]
	dash = strings.LastIndex(line[:min(item.Column-1, len(line))], "-")
	if dash < 0 || strings.TrimSpace(line[:dash]) != "" {
		return 0, 0, 0, 0, fmt.Errorf("catalog: line %d: only block lists (\"- item\" lines) can be edited", item.Line)
	}
	end = start + 1
	for end < len(d.lines) {
		l := d.lines[end]
		if strings.TrimSpace(l) != "" && leading(l) <= dash {
			break
		}
		end++
	}
	for end > start+1 && blankOrComment(d.lines[end-1]) {
		end--
	}
	head = start
	for head > 0 {
		l := d.lines[head-1]
		if !strings.HasPrefix(strings.TrimSpace(l), "#") || leading(l) != dash {
			break
		}
		head--
	}
	return head, start, end, dash, nil
}

func (d *yamlDoc) splice(from, to int, text string) {
	var repl []string
	if text != "" {
		repl = strings.SplitAfter(text, "\n")
		if repl[len(repl)-1] == "" {
			repl = repl[:len(repl)-1]
		}
	}
	d.lines = append(d.lines[:from], append(repl, d.lines[to:]...)...)
}

// tables returns the tables: sequence and its key node.
func (d *yamlDoc) tables() (*yaml.Node, *yaml.Node) {
	return mapEntry(d.root, "tables")
}

// table finds a table's item.
func (d *yamlDoc) table(name string) (*yaml.Node, error) {
	_, seq := d.tables()
	_, it := findNamed(seq, name)
	if it == nil {
		return nil, fmt.Errorf("table %s is not in the catalog file: %w", name, ErrNoTable)
	}
	return it, nil
}

// appendItem adds a rendered item (starting "- " at column 0) to the
// sequence under key in mapping m; owner is m's own item, where a missing
// key is added. blank puts an empty line before the item.
func (d *yamlDoc) appendItem(m *yaml.Node, owner *yaml.Node, key, item string, blank bool) error {
	k, seq := mapEntry(m, key)
	if seq != nil && seq.Kind == yaml.SequenceNode && len(seq.Content) > 0 {
		_, _, end, dash, err := d.itemRange(seq.Content[len(seq.Content)-1])
		if err != nil {
			return err
		}
		text := indent(item, strings.Repeat(" ", dash))
		if blank {
			text = "\n" + text
		}
		d.splice(end, end, text)
		return nil
	}
	if seq != nil && !(seq.Kind == yaml.ScalarNode && seq.Tag == "!!null") && !(seq.Kind == yaml.SequenceNode) {
		return fmt.Errorf("catalog: line %d: %s is not a list", k.Line, key)
	}
	if k != nil {
		// An empty list ("key:" or "key: []"): the key's line becomes a
		// block list.
		at := k.Line - 1
		col := k.Column - 1
		d.splice(at, at+1, strings.Repeat(" ", col)+key+":\n"+indent(item, strings.Repeat(" ", col+2)))
		return nil
	}
	col := 0
	at := len(d.lines)
	if owner != nil {
		_, _, end, _, err := d.itemRange(owner)
		if err != nil {
			return err
		}
		col, at = owner.Column-1, end
	}
	d.splice(at, at, strings.Repeat(" ", col)+key+":\n"+indent(item, strings.Repeat(" ", col+2)))
	return nil
}

// removeItem deletes item i of seq with its comment lines; the key line
// goes too when it was the only item.
func (d *yamlDoc) removeItem(k, seq *yaml.Node, i int) error {
	head, _, end, _, err := d.itemRange(seq.Content[i])
	if err != nil {
		return err
	}
	d.splice(head, end, "")
	if len(seq.Content) == 1 && k != nil {
		at := k.Line - 1
		if strings.TrimSpace(d.lines[at]) == k.Value+":" {
			d.splice(at, at+1, "")
		} else {
			return fmt.Errorf("catalog: line %d: only block lists can be edited", k.Line)
		}
	}
	return nil
}

// checked parses the edited text and returns it.
func (d *yamlDoc) checked() ([]byte, error) {
	out := d.bytes()
	if _, err := Parse(out); err != nil {
		return nil, fmt.Errorf("the catalog would not load: %w", err)
	}
	return out, nil
}

// AddTable appends a table to the catalog's tables: list. src may be
// empty, for a new catalog.
func AddTable(src []byte, spec *TableSpec) ([]byte, error) {
	if err := checkTable(spec); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return (&yamlDoc{lines: []string{"tables:\n", indent(RenderTable(spec), "  ")}}).checked()
	}
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	if d.root == nil {
		return nil, errors.New("catalog: the file is not a mapping with a tables: list")
	}
	if err := d.appendItem(d.root, nil, "tables", RenderTable(spec), true); err != nil {
		return nil, err
	}
	return d.checked()
}

// checkTable loads spec as a catalog of its own, so that its errors are
// about the table and not about lines of the file.
func checkTable(spec *TableSpec) error {
	_, err := Parse([]byte("tables:\n" + indent(RenderTable(spec), "  ")))
	var le *LoadError
	if errors.As(err, &le) {
		return errors.New(le.Msg)
	}
	return err
}

// DropTable removes a table, its indexes and its comment lines.
func DropTable(src []byte, name string) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	k, seq := d.tables()
	i, it := findNamed(seq, name)
	if it == nil {
		return nil, fmt.Errorf("table %s is not in the catalog file: %w", name, ErrNoTable)
	}
	if err := d.removeItem(k, seq, i); err != nil {
		return nil, err
	}
	if len(seq.Content) == 1 {
		d.lines = append(d.lines, "tables: []\n")
	}
	return d.checked()
}

// AddIndex appends an index to a table's indexes: list.
func AddIndex(src []byte, table string, spec *IndexSpec) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	it, err := d.table(table)
	if err != nil {
		return nil, err
	}
	if err := d.appendItem(it, it, "indexes", RenderIndex(spec), false); err != nil {
		return nil, err
	}
	return d.checked()
}

// index finds index of table: the indexes key and sequence, the index's
// place in it, and its mapping.
func (d *yamlDoc) index(table, index string) (key, seq *yaml.Node, i int, ix *yaml.Node, err error) {
	it, err := d.table(table)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	key, seq = mapEntry(it, "indexes")
	i, ix = findNamed(seq, index)
	if ix == nil {
		return nil, nil, 0, nil, fmt.Errorf("table %s has no index %s in the catalog file", table, index)
	}
	return key, seq, i, ix, nil
}

// DropIndex removes an index of a table.
func DropIndex(src []byte, table, index string) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	k, seq, i, _, err := d.index(table, index)
	if err != nil {
		return nil, err
	}
	if err := d.removeItem(k, seq, i); err != nil {
		return nil, err
	}
	return d.checked()
}

// SetIndexState sets the state: of an index of a table to state
// (StateUnbuilt), or removes it when state is "" (a built index). Only
// that line changes; an index written as one flow mapping is written
// again as a block.
func SetIndexState(src []byte, table, index, state string) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	_, _, _, ix, err := d.index(table, index)
	if err != nil {
		return nil, err
	}
	k, v := mapEntry(ix, "state")
	if v != nil && v.Value == state || v == nil && state == "" {
		return d.checked()
	}
	_, start, end, dash, err := d.itemRange(ix)
	if err != nil {
		return nil, err
	}
	switch {
	case ix.Style&yaml.FlowStyle != 0 || (k != nil && k.Line == ix.Line):
		var spec IndexSpec
		if err := ix.Decode(&spec); err != nil {
			return nil, yamlError(err)
		}
		spec.State = state
		d.splice(start, end, indent(RenderIndex(&spec), strings.Repeat(" ", dash)))
	case k != nil && state == "":
		d.splice(k.Line-1, k.Line, "")
	case k != nil:
		d.splice(k.Line-1, k.Line, strings.Repeat(" ", k.Column-1)+"state: "+yamlScalar(state)+"\n")
	default:
		d.splice(end, end, strings.Repeat(" ", ix.Column-1)+"state: "+yamlScalar(state)+"\n")
	}
	return d.checked()
}

// AddColumn appends a column to a table's columns: list.
func AddColumn(src []byte, table string, col *ColumnSpec) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	it, err := d.table(table)
	if err != nil {
		return nil, err
	}
	if err := d.appendItem(it, it, "columns", "- "+RenderColumn(col)+"\n", false); err != nil {
		return nil, err
	}
	return d.checked()
}

// SetFamily rewrites one family of a table with change applied to it. The
// family's item becomes one flow mapping line.
func SetFamily(src []byte, table, family string, change func(*FamilySpec)) ([]byte, error) {
	d, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	it, err := d.table(table)
	if err != nil {
		return nil, err
	}
	_, seq := mapEntry(it, "families")
	_, fn := findNamed(seq, family)
	if fn == nil {
		return nil, fmt.Errorf("table %s has no family %s", table, family)
	}
	var f FamilySpec
	if err := fn.Decode(&f); err != nil {
		return nil, yamlError(err)
	}
	change(&f)
	_, start, end, dash, err := d.itemRange(fn)
	if err != nil {
		return nil, err
	}
	d.splice(start, end, strings.Repeat(" ", dash)+"- "+RenderFamily(&f)+"\n")
	return d.checked()
}

// TableSource returns the YAML text of one table as the file has it, with
// its comment lines, unindented to column 0.
func TableSource(src []byte, name string) (string, error) {
	d, err := parseDoc(src)
	if err != nil {
		return "", err
	}
	it, err := d.table(name)
	if err != nil {
		return "", err
	}
	head, _, end, dash, err := d.itemRange(it)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, l := range d.lines[head:end] {
		if leading(l) >= dash {
			l = l[dash:]
		}
		b.WriteString(l)
	}
	return b.String(), nil
}

// CopyTable appends a copy of table from named to, whose HBase table is
// hbase: the same layout, without the indexes (an index's rows are in an
// HBase table of its own, which the copy does not have). indexes names
// the indexes left out.
func CopyTable(src []byte, from, to, hbase string) (out []byte, indexes []string, err error) {
	text, err := TableSource(src, from)
	if err != nil {
		return nil, nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return nil, nil, err
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 || n.Content[0].Kind != yaml.SequenceNode || len(n.Content[0].Content) != 1 {
		return nil, nil, fmt.Errorf("catalog: table %s is not one item of the tables: list", from)
	}
	it := n.Content[0].Content[0]
	if it.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("catalog: table %s is not a mapping", from)
	}
	var kept []*yaml.Node
	hasHBase := false
	for i := 0; i+1 < len(it.Content); i += 2 {
		k, v := it.Content[i], it.Content[i+1]
		switch k.Value {
		case "indexes":
			for _, ix := range v.Content {
				if _, nm := mapEntry(ix, "name"); nm != nil {
					indexes = append(indexes, nm.Value)
				}
			}
			continue
		case "name":
			v = &yaml.Node{Kind: yaml.ScalarNode, Value: to}
		case "hbase":
			v = &yaml.Node{Kind: yaml.ScalarNode, Value: hbase}
			hasHBase = true
		}
		kept = append(kept, k, v)
		if k.Value == "name" && !hasHBase {
			// hbase: follows name:, as RenderTable writes it.
			if _, h := mapEntry(it, "hbase"); h == nil {
				kept = append(kept, &yaml.Node{Kind: yaml.ScalarNode, Value: "hbase"}, &yaml.Node{Kind: yaml.ScalarNode, Value: hbase})
				hasHBase = true
			}
		}
	}
	it.Content = kept
	it.HeadComment = ""
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n.Content[0]); err != nil {
		return nil, nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, nil, err
	}
	d, err := parseDoc(src)
	if err != nil {
		return nil, nil, err
	}
	if _, seq := d.tables(); seq != nil {
		if _, x := findNamed(seq, to); x != nil {
			return nil, nil, fmt.Errorf("table %s is in the catalog already", to)
		}
	}
	if err := d.appendItem(d.root, nil, "tables", b.String(), true); err != nil {
		return nil, nil, err
	}
	out, err = d.checked()
	return out, indexes, err
}

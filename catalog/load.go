package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// LoadError is a catalog that cannot be loaded. Line is 1-based, 0 when
// unknown.
type LoadError struct {
	File string
	Line int
	Msg  string
}

func (e *LoadError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// LoadFile reads and validates a YAML catalog file.
func LoadFile(path string) (*Catalog, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	c, err := Parse(src)
	var le *LoadError
	if errors.As(err, &le) {
		le.File = path
	}
	if c != nil {
		for i, w := range c.Warnings {
			c.Warnings[i] = path + ":" + strings.TrimPrefix(w, "line ")
		}
	}
	return c, err
}

// The YAML shape of a catalog. Field names are the YAML keys.
type yCatalog struct {
	Tables []yTable `yaml:"tables"`
}

type yTable struct {
	Name     string       `yaml:"name"`
	HBase    string       `yaml:"hbase"`
	Doc      string       `yaml:"doc"`
	Families []yFamily    `yaml:"families"`
	Columns  []yColumn    `yaml:"columns"`
	Rowkey   []yComponent `yaml:"rowkey"`
	Splits   []string     `yaml:"splits"`
	Split    *ySplit      `yaml:"split"`
	Indexes  []yIndex     `yaml:"indexes"`
	Wide     *yWide       `yaml:"wide"`
	Phoenix  *yPhoenix    `yaml:"phoenix"`
}

type yWide struct {
	Family    string     `yaml:"family"`
	Qualifier yQualifier `yaml:"qualifier"`
	Offset    string     `yaml:"offset"`
	Value     string     `yaml:"value"`
	Integer   string     `yaml:"integer"`
	Time      string     `yaml:"time"`
	Base      string     `yaml:"base"`
	// UIDs, Metric, MetricUID and Tags read OpenTSDB's metric and tags
	// by name (TSDBNames).
	UIDs      string `yaml:"uids"`
	Metric    string `yaml:"metric"`
	MetricUID string `yaml:"metric_uid"`
	Tags      string `yaml:"tags"`
}

type yFamily struct {
	Name        string `yaml:"name"`
	Versions    int    `yaml:"versions"`
	TTL         int64  `yaml:"ttl"`
	Compression string `yaml:"compression"`
	BloomFilter string `yaml:"bloomfilter"`
	BlockSize   int    `yaml:"blocksize"`
	BlockCache  *bool  `yaml:"blockcache"`
	InMemory    bool   `yaml:"in_memory"`
}

type yColumn struct {
	Name     string `yaml:"name"`
	Type     string `yaml:"type"`
	Column   string `yaml:"column"`
	Encoding string `yaml:"encoding"`
	Width    int    `yaml:"width"`
	Unsigned bool   `yaml:"unsigned"`
	Phoenix  string `yaml:"phoenix"`
	// Family and Qualifier map a MAP column to a whole family: its
	// qualifiers are the keys, in Qualifier's encoding.
	Family    string      `yaml:"family,omitempty"`
	Qualifier *yQualifier `yaml:"qualifier,omitempty"`
}

type yComponent struct {
	Field    string       `yaml:"field"`
	Encoding string       `yaml:"encoding"`
	Width    int          `yaml:"width"`
	Pad      *string      `yaml:"pad"`
	Align    string       `yaml:"align"`
	Order    string       `yaml:"order"`
	Reverse  bool         `yaml:"reverse"`
	Hash     string       `yaml:"hash"`
	Of       []string     `yaml:"of"`
	Mod      int64        `yaml:"mod"`
	Bucket   string       `yaml:"bucket"`
	Salt     int64        `yaml:"salt"`
	Random   int64        `yaml:"random"`
	Literal  *string      `yaml:"literal"`
	Binary   bool         `yaml:"binary"`
	Unsigned bool         `yaml:"unsigned"`
	Unit     string       `yaml:"unit"`
	Seed     uint32       `yaml:"seed"`
	Group    []yComponent `yaml:"group"`
	Phoenix  string       `yaml:"phoenix"`
}

type ySplit struct {
	Algorithm string `yaml:"algorithm"`
	Regions   int    `yaml:"regions"`
	Buckets   bool   `yaml:"buckets"`
}

type yIndex struct {
	Name    string       `yaml:"name"`
	HBase   string       `yaml:"hbase"`
	Rowkey  []yComponent `yaml:"rowkey"`
	Carries []string     `yaml:"carries"`
	Covers  []string     `yaml:"covers"`
	Family  string       `yaml:"family"`
	State   string       `yaml:"state"`
}

// Parse reads and validates a YAML catalog. Unknown keys, duplicate keys
// and every semantic error are reported with their line.
func Parse(src []byte) (*Catalog, error) {
	var y yCatalog
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&y); err != nil {
		return nil, yamlError(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, yamlError(err)
	}
	l := &loader{root: &root, src: src}
	c, err := l.catalog(&y)
	if err != nil {
		return nil, err
	}
	c.Warnings = l.warnings
	return c, nil
}

// yamlError turns yaml's "yaml: line N: msg" into a LoadError whose
// message an operator can act on.
func yamlError(err error) error {
	if errors.Is(err, io.EOF) {
		return &LoadError{Msg: "the catalog is empty: it needs a tables: list"}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = strings.TrimSpace(strings.Split(msg, "\n")[0])
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	return &LoadError{Line: line, Msg: yamlMessage(msg)}
}

// yamlMessage rewords the decoder's messages about unknown keys, duplicate
// keys and values of the wrong kind.
func yamlMessage(msg string) string {
	var key, typ string
	if n, _ := fmt.Sscanf(msg, "field %s not found in type %s", &key, &typ); n == 2 {
		what, known := yamlSection(typ)
		return fmt.Sprintf("unknown key %q in %s (known keys: %s)", key, what, known)
	}
	var first int
	if n, _ := fmt.Sscanf(msg, "mapping key %q already defined at line %d", &key, &first); n == 2 {
		return fmt.Sprintf("key %q is given twice (first at line %d)", key, first)
	}
	if rest, ok := strings.CutPrefix(msg, "cannot unmarshal "); ok {
		got, into, _ := strings.Cut(rest, " into ")
		switch {
		case strings.HasPrefix(got, "!!map"):
			got = "a mapping"
		case strings.HasPrefix(got, "!!seq"):
			got = "a list"
		case strings.Contains(got, "`"):
			got = "\"" + strings.Trim(got[strings.Index(got, "`"):], "`") + "\""
		}
		return fmt.Sprintf("want %s, not %s", yamlWant(into), got)
	}
	return msg
}

// yamlWant names what a Go type of the YAML shape expects.
func yamlWant(goType string) string {
	switch strings.TrimPrefix(goType, "*") {
	case "int", "int64":
		return "a whole number"
	case "bool":
		return "true or false"
	case "string":
		return "a single value"
	}
	if strings.HasPrefix(goType, "[]") {
		return "a list"
	}
	return "a mapping"
}

// yamlSection names a YAML shape type and lists its keys.
func yamlSection(goType string) (string, string) {
	var v any
	what := ""
	switch strings.TrimPrefix(goType, "catalog.") {
	case "yCatalog":
		v, what = yCatalog{}, "the catalog"
	case "yTable":
		v, what = yTable{}, "a table"
	case "yFamily":
		v, what = yFamily{}, "a family"
	case "yColumn":
		v, what = yColumn{}, "a column"
	case "yComponent":
		v, what = yComponent{}, "a rowkey component"
	case "ySplit":
		v, what = ySplit{}, "split"
	case "yIndex":
		v, what = yIndex{}, "an index"
	case "yWide":
		v, what = yWide{}, "wide"
	case "yQualifier":
		v, what = yQualifier{}, "a qualifier"
	case "yPhoenix":
		v, what = yPhoenix{}, "phoenix"
	default:
		return goType, "?"
	}
	t := reflect.TypeOf(v)
	keys := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		keys = append(keys, name)
	}
	return what, strings.Join(keys, ", ")
}

// loader finds the line of a path in the YAML tree for semantic errors.
type loader struct {
	root     *yaml.Node
	src      []byte
	warnings []string
	// lines is src split into lines, made when a double-quoted string is
	// first read again from the source.
	lines []string
}

// warnf records that something deprecated was read at path.
func (l *loader) warnf(path []any, format string, args ...any) {
	l.warnings = append(l.warnings, fmt.Sprintf("line %d: ", l.line(path...))+fmt.Sprintf(format, args...))
}

// line is the line of the node at path.
func (l *loader) line(path ...any) int { return l.node(path...).Line }

// node walks path: a string selects a mapping key, an int a sequence item.
// It stops at the deepest node the path reaches.
func (l *loader) node(path ...any) *yaml.Node {
	n := l.root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, p := range path {
		switch p := p.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return n
			}
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					n = n.Content[i+1]
					found = true
					break
				}
			}
			if !found {
				return n
			}
		case int:
			if n.Kind != yaml.SequenceNode || p >= len(n.Content) {
				return n
			}
			n = n.Content[p]
		}
	}
	return n
}

func (l *loader) errf(path []any, format string, args ...any) error {
	return &LoadError{Line: l.line(path...), Msg: fmt.Sprintf(format, args...)}
}

func (l *loader) catalog(y *yCatalog) (*Catalog, error) {
	c := &Catalog{byName: map[string]*Table{}}
	physical := map[string]string{}
	for i := range y.Tables {
		path := []any{"tables", i}
		t, err := l.table(&y.Tables[i], path)
		if err != nil {
			return nil, err
		}
		all := []*Table{t}
		for _, ix := range t.Indexes {
			all = append(all, ix.Table)
		}
		for _, tt := range all {
			if _, dup := c.byName[tt.Name]; dup {
				return nil, l.errf(path, "table %q is defined twice", tt.Name)
			}
			if other, dup := physical[tt.Physical]; dup {
				return nil, l.errf(path, "tables %q and %q both use HBase table %q", other, tt.Name, tt.Physical)
			}
			physical[tt.Physical] = tt.Name
			c.byName[tt.Name] = tt
		}
		c.Tables = append(c.Tables, t)
	}
	l.linkPhoenixIndexes(c, y)
	for i, t := range c.Tables {
		if t.Wide == nil || t.Wide.Names == nil {
			continue
		}
		n := t.Wide.Names
		u, ok := c.byName[n.UIDTable]
		path := []any{"tables", i, "wide", "uids"}
		if !ok {
			return nil, l.errf(path, "wide: uid table %q is not in the catalog", n.UIDTable)
		}
		if _, ok := u.Family("id"); !ok {
			return nil, l.errf(path, "wide: uid table %q has no family id (OpenTSDB's tsdb-uid has id and name)", n.UIDTable)
		}
		if _, ok := u.Family("name"); !ok {
			return nil, l.errf(path, "wide: uid table %q has no family name (OpenTSDB's tsdb-uid has id and name)", n.UIDTable)
		}
		n.Physical = u.Physical
	}
	return c, nil
}

func (l *loader) table(y *yTable, path []any) (*Table, error) {
	if !isName(y.Name) {
		return nil, l.errf(path, "table name %q must be letters, digits and underscores", y.Name)
	}
	t := &Table{Name: y.Name, Physical: y.HBase, Doc: y.Doc, colByName: map[string]int{}}
	if t.Physical == "" {
		t.Physical = y.Name
	}
	for i, f := range y.Families {
		fp := append(path, "families", i)
		if f.Name == "" {
			return nil, l.errf(fp, "a family needs a name")
		}
		if _, dup := t.Family(f.Name); dup {
			return nil, l.errf(fp, "family %q is defined twice", f.Name)
		}
		if f.Versions < 0 || f.TTL < 0 || f.BlockSize < 0 {
			return nil, l.errf(fp, "family %q: versions, ttl and blocksize cannot be negative", f.Name)
		}
		t.Families = append(t.Families, Family{
			Name: f.Name, Versions: f.Versions, TTL: f.TTL, Compression: strings.ToUpper(f.Compression),
			BloomFilter: strings.ToUpper(f.BloomFilter), BlockSize: f.BlockSize, BlockCache: f.BlockCache, InMemory: f.InMemory,
		})
	}
	mapped := map[string]string{}
	for i, yc := range y.Columns {
		cp := append(path, "columns", i)
		col, err := l.column(t, yc, cp)
		if err != nil {
			return nil, err
		}
		if col.Family != "" {
			fq := col.Family + ":" + col.Qualifier
			if other, dup := mapped[fq]; dup {
				return nil, l.errf(cp, "columns %q and %q are both mapped to %s", other, col.Name, fq)
			}
			mapped[fq] = col.Name
		}
		t.colByName[col.Name] = len(t.Columns)
		t.Columns = append(t.Columns, col)
	}
	key, err := l.layout(t, y.Rowkey, append(path, "rowkey"))
	if err != nil {
		return nil, err
	}
	t.Key = key
	if y.Wide != nil {
		if err := l.wide(t, y.Wide, append(path, "wide")); err != nil {
			return nil, err
		}
	}
	for i, c := range t.Columns {
		if !c.KeyField && c.Family == "" && !c.FromCell && c.MapFamily == "" {
			return nil, l.errf(append(path, "columns", i), "column %q is neither in the rowkey nor mapped to a family:qualifier", c.Name)
		}
	}
	if y.Phoenix != nil {
		p, err := l.phoenixTable(t, y.Phoenix, append(path, "phoenix"))
		if err != nil {
			return nil, err
		}
		t.Phoenix = p
	}
	if err := l.splits(t, y, path); err != nil {
		return nil, err
	}
	for i := range y.Indexes {
		ix, err := l.index(t, &y.Indexes[i], append(path, "indexes", i))
		if err != nil {
			return nil, err
		}
		t.Indexes = append(t.Indexes, ix)
	}
	return t, nil
}

// wide reads a table's wide rows.
func (l *loader) wide(t *Table, y *yWide, path []any) error {
	if _, ok := t.Family(y.Family); !ok {
		return l.errf(path, "wide: table %q has no family %q", t.Name, y.Family)
	}
	w := &Wide{Family: y.Family, QualWidth: y.Qualifier.Width, Shift: y.Qualifier.Shift, Integer: -1, Time: -1, Base: -1, Qual: -1, unit: 1000}
	for _, c := range t.Columns {
		if c.Family == y.Family || c.MapFamily == y.Family {
			return l.errf(path, "wide: family %q also holds column %q; a wide family holds its points alone", y.Family, c.Name)
		}
	}
	if y.Qualifier.Field != "" {
		return l.cellRows(t, y, w, path)
	}
	switch y.Qualifier.Format {
	case "opentsdb":
		if w.QualWidth != 0 || w.Shift != 0 {
			return l.errf(path, "wide: qualifier format opentsdb takes no width or shift")
		}
		w.OpenTSDB, w.QualWidth, w.Shift = true, 2, 4
	case "":
		if w.QualWidth < 1 || w.QualWidth > 8 || w.Shift < 4 || w.Shift >= uint(w.QualWidth)*8 {
			return l.errf(path, "wide: qualifier needs a width of 1 to 8 bytes and a shift of at least 4 (the flags) and less than its bits")
		}
	default:
		return l.errf(path, "wide: unknown qualifier format %q (known: opentsdb)", y.Qualifier.Format)
	}
	col := func(name string, want ...Type) (int, error) {
		i, ok := t.colByName[name]
		if !ok {
			return 0, l.errf(path, "wide: %q is not a column of table %q", name, t.Name)
		}
		c := &t.Columns[i]
		if !slices.Contains(want, c.Type) {
			return 0, l.errf(path, "wide: column %q is %s, not %s", name, c.Type, want[0])
		}
		return i, nil
	}
	var err error
	if w.Offset, err = col(y.Offset, TypeInt, TypeBigint); err != nil {
		return err
	}
	if w.Value, err = col(y.Value, TypeDouble); err != nil {
		return err
	}
	mark := []int{w.Offset, w.Value}
	if y.Integer != "" {
		if w.Integer, err = col(y.Integer, TypeBigint); err != nil {
			return err
		}
		if w.Integer == w.Offset {
			return l.errf(path, "wide: column %q cannot be both the offset and the integer", y.Integer)
		}
		mark = append(mark, w.Integer)
	}
	if y.Time != "" {
		if w.Time, err = col(y.Time, TypeTimestamp); err != nil {
			return err
		}
		if w.Base, err = col(y.Base, TypeTimestamp); err != nil {
			return err
		}
		if !t.Columns[w.Base].KeyField {
			return l.errf(path, "wide: base %q must be a key field", y.Base)
		}
		mark = append(mark, w.Time)
	}
	for _, i := range mark {
		if c := &t.Columns[i]; c.KeyField || c.Family != "" {
			return l.errf(path, "wide: column %q comes from the cell, so it can be neither a key field nor mapped", c.Name)
		}
		t.Columns[i].FromCell = true
	}
	t.Wide = w
	if y.UIDs != "" || y.Metric != "" || y.MetricUID != "" || y.Tags != "" {
		return l.tsdbNames(t, y, path)
	}
	return nil
}

// tsdbNames reads how an OpenTSDB table shows its metric and tags by
// name: the key is the metric uid, the base and a group of two uids (the
// tag pairs), all unsigned java integers of one width.
func (l *loader) tsdbNames(t *Table, y *yWide, path []any) error {
	w := t.Wide
	if !w.OpenTSDB || w.Time < 0 {
		return l.errf(path, "wide: uids, metric and tags need qualifier format opentsdb and a time column")
	}
	if y.UIDs == "" || y.Metric == "" || y.MetricUID == "" || y.Tags == "" {
		return l.errf(path, "wide: uids, metric, metric_uid and tags go together")
	}
	n := &TSDBNames{UIDTable: y.UIDs}
	comps := t.Key.Components
	last := &comps[len(comps)-1]
	if last.Kind != KindGroup || len(last.Group) != 2 {
		return l.errf(path, "wide: tags %q need the key to end in a group of two fields, the tag key and value uids", y.Tags)
	}
	uidField := func(c *Component) (int, bool) {
		fw, fixed := c.FixedWidth()
		return fw, c.Kind == KindField && fixed && c.Enc == KeyJava && c.Unsigned && fw >= 1 && fw <= 8
	}
	var ok bool
	i, found := t.colByName[y.MetricUID]
	if !found || !t.Columns[i].KeyField {
		return l.errf(path, "wide: metric_uid %q must be a key field", y.MetricUID)
	}
	n.MetricUID = i
	for ci := range comps {
		if comps[ci].Kind == KindField && comps[ci].Column() == i {
			if n.Width, ok = uidField(&comps[ci]); !ok {
				return l.errf(path, "wide: metric_uid %q must be an unsigned java integer of fixed width", y.MetricUID)
			}
		}
	}
	for gi := range last.Group {
		if fw, ok := uidField(&last.Group[gi]); !ok || fw != n.Width {
			return l.errf(path, "wide: the tag pair field %q must be an unsigned java integer of %d bytes, as the metric uid", last.Group[gi].Field, n.Width)
		}
	}
	n.TagK, n.TagV = last.Group[0].Column(), last.Group[1].Column()
	for _, c := range []struct {
		name, want string
		dst        *int
	}{{y.Metric, "STRING", &n.Metric}, {y.Tags, "MAP<STRING, STRING>", &n.Tags}} {
		i, found := t.colByName[c.name]
		if !found {
			return l.errf(path, "wide: %q is not a column of table %q", c.name, t.Name)
		}
		col := &t.Columns[i]
		typ := col.Type.String()
		if col.Type == TypeMap {
			typ = col.Map.String()
		}
		if typ != c.want || col.KeyField || col.Family != "" || col.FromCell {
			return l.errf(path, "wide: column %q must be a %s that is neither a key field nor mapped nor from the cell", c.name, c.want)
		}
		col.FromCell = true
		*c.dst = i
	}
	t.Columns[n.TagK].Hidden, t.Columns[n.TagV].Hidden = true, true
	w.Names = n
	return nil
}

func (l *loader) column(t *Table, yc yColumn, cp []any) (Column, error) {
	if !isName(yc.Name) {
		return Column{}, l.errf(cp, "column name %q must be letters, digits and underscores", yc.Name)
	}
	if _, dup := t.colByName[yc.Name]; dup {
		return Column{}, l.errf(cp, "column %q is defined twice", yc.Name)
	}
	typ, ok := ParseType(yc.Type)
	mt, isMap := ParseMapType(yc.Type)
	if isMap {
		if mt.Key == TypeBytes || mt.Key == TypeDouble {
			return Column{}, l.errf(append(cp, "type"), "column %q: a map's keys are STRING, BIGINT, INT, BOOLEAN, TIMESTAMP or DATE, not %s", yc.Name, mt.Key)
		}
		typ, ok = TypeMap, true
	}
	if !ok {
		return Column{}, l.errf(append(cp, "type"), "column %q has unknown type %q (want STRING, BIGINT, INT, DOUBLE, BOOLEAN, TIMESTAMP, DATE, BYTES or MAP<key, value>)", yc.Name, yc.Type)
	}
	col := Column{Name: yc.Name, Type: typ, Map: mt}
	if yc.Column != "" {
		fq, err := l.bytes(append(cp, "column"), yc.Column)
		if err != nil {
			return Column{}, l.errf(append(cp, "column"), "column %q: %q: %v", yc.Name, yc.Column, err)
		}
		fam, qual, ok := strings.Cut(string(fq), ":")
		if !ok || fam == "" || qual == "" {
			return Column{}, l.errf(append(cp, "column"), "column %q: %q is not family:qualifier", yc.Name, yc.Column)
		}
		if _, ok := t.Family(fam); !ok {
			return Column{}, l.errf(append(cp, "column"), "column %q: table %q has no family %q (families: %s)", yc.Name, t.Name, fam, familyNames(t))
		}
		col.Family, col.Qualifier = fam, qual
	}
	switch strings.ToLower(yc.Encoding) {
	case "", "java":
		col.Encoding = EncBinary
	case "binary":
		col.Encoding = EncBinary
		l.warnf(append(cp, "encoding"), "column %q: encoding binary is deprecated: write java, the same bytes (Java's Bytes.toBytes)", yc.Name)
	case "text":
		col.Encoding = EncText
	case "phoenix":
		return l.phoenixColumn(col, &yc, cp)
	case "sortable":
		return Column{}, l.errf(append(cp, "encoding"), "column %q: sortable is a rowkey encoding; a cell is java (Java's Bytes.toBytes) or text", yc.Name)
	default:
		return Column{}, l.errf(append(cp, "encoding"), "column %q: unknown encoding %q (want java, text or phoenix)", yc.Name, yc.Encoding)
	}
	if yc.Phoenix != "" {
		return Column{}, l.errf(append(cp, "phoenix"), "column %q: phoenix names a Phoenix type for encoding: phoenix", yc.Name)
	}
	if yc.Width != 0 || yc.Unsigned {
		if col.Encoding != EncBinary || (typ != TypeBigint && typ != TypeInt) || yc.Width < 0 || yc.Width > 8 {
			return Column{}, l.errf(cp, "column %q: width and unsigned are for BIGINT and INT cells in the java encoding, 1 to 8 bytes", yc.Name)
		}
		col.Width, col.Unsigned = yc.Width, yc.Unsigned
	}
	if yc.Family != "" {
		if err := l.mapFamily(t, &col, &yc, cp); err != nil {
			return Column{}, err
		}
	} else if yc.Qualifier != nil {
		return Column{}, l.errf(append(cp, "qualifier"), "column %q: a qualifier encoding goes with family, for a MAP that holds a whole family", yc.Name)
	}
	return col, nil
}

func (l *loader) splits(t *Table, y *yTable, path []any) error {
	if len(y.Splits) > 0 && y.Split != nil {
		return l.errf(append(path, "split"), "give either splits or split, not both")
	}
	for i, s := range y.Splits {
		b, err := l.bytes(append(path, "splits", i), s)
		if err != nil {
			return l.errf(append(path, "splits", i), "split '%s': %v", s, err)
		}
		if len(b) == 0 {
			return l.errf(append(path, "splits", i), "a split key cannot be empty")
		}
		if i > 0 && bytes.Compare(b, t.Splits.Explicit[i-1]) <= 0 {
			return l.errf(append(path, "splits", i), "split %q is not after the split before it (%q): splits must be in increasing byte order", s, y.Splits[i-1])
		}
		t.Splits.Explicit = append(t.Splits.Explicit, b)
	}
	if s := y.Split; s != nil {
		sp := append(path, "split")
		if s.Buckets {
			if s.Algorithm != "" {
				return l.errf(sp, "give either buckets or algorithm, not both")
			}
			k := t.Key.Components[0].Kind
			if k != KindSalt && k != KindBucket && k != KindHash {
				return l.errf(sp, "split by buckets needs a salt, bucket or hash component first in the rowkey")
			}
			if t.Key.Components[0].Cardinality() > 4096 {
				return l.errf(sp, "split by buckets would make %d regions", t.Key.Components[0].Cardinality())
			}
			t.Splits.Buckets = true
			return nil
		}
		if s.Algorithm == "" {
			return l.errf(sp, "split needs an algorithm (HexStringSplit, DecimalStringSplit or UniformSplit) with regions, or buckets: true")
		}
		if _, err := algorithmSplits(s.Algorithm, 2); err != nil {
			return l.errf(sp, "%v", err)
		}
		if s.Regions < 2 || s.Regions > maxRegions {
			return l.errf(sp, "split algorithm %s needs regions between 2 and %d, not %d", s.Algorithm, maxRegions, s.Regions)
		}
		if _, err := algorithmSplits(s.Algorithm, s.Regions); err != nil {
			return l.errf(sp, "%v", err)
		}
		t.Splits.Algorithm, t.Splits.Regions = s.Algorithm, s.Regions
	}
	return nil
}

// bytes reads the YAML string s found at path as bytes in HBase's
// toStringBinary form: \xNN is one byte, \\ a backslash. In double quotes
// YAML itself reads "\x87" as the character U+0087 (two bytes in UTF-8), so
// a double-quoted string is read again from the source, where \xNN still
// means the byte; other YAML escapes keep their meaning.
func (l *loader) bytes(path []any, s string) ([]byte, error) {
	n := l.node(path...)
	if n.Kind != yaml.ScalarNode || n.Style&yaml.DoubleQuotedStyle == 0 || n.Value != s {
		return ParseBinary(s)
	}
	if l.lines == nil {
		l.lines = strings.Split(string(l.src), "\n")
	}
	if raw, ok := rawDoubleQuoted(l.lines, n.Line, n.Column); ok {
		return ParseBinary(raw)
	}
	return parseYAMLBinary(s)
}

// rawDoubleQuoted reads the one-line double-quoted YAML scalar that starts
// at line and column (1-based, counted in characters) of src, and returns
// its text with every YAML escape decoded but \xNN, which stays as written
// so that ParseBinary reads it as a byte. lines are the source's lines. ok
// is false when the scalar is not found there or runs over several lines.
func rawDoubleQuoted(lines []string, line, col int) (string, bool) {
	if line < 1 || line > len(lines) {
		return "", false
	}
	text := []rune(lines[line-1])
	if col < 1 || col > len(text) || text[col-1] != '"' {
		return "", false
	}
	var b strings.Builder
	for i := col; i < len(text); i++ {
		r := text[i]
		switch {
		case r == '"':
			return b.String(), true
		case r != '\\':
			b.WriteRune(r)
			continue
		}
		if i+1 >= len(text) {
			return "", false
		}
		i++
		switch e := text[i]; e {
		case 'x':
			b.WriteString("\\x")
		case '\\':
			b.WriteString("\\") // ParseBinary reads what follows, as before
		case 'u', 'U':
			w := 4
			if e == 'U' {
				w = 8
			}
			if i+w >= len(text) {
				return "", false
			}
			n, err := strconv.ParseUint(string(text[i+1:i+1+w]), 16, 32)
			if err != nil {
				return "", false
			}
			b.WriteString(escapeBackslash(string(rune(n))))
			i += w
		default:
			d, ok := yamlEscapes[e]
			if !ok {
				return "", false
			}
			b.WriteString(escapeBackslash(string(d)))
		}
	}
	return "", false
}

// yamlEscapes are YAML's one-character escapes in double quotes.
var yamlEscapes = map[rune]rune{
	'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13, 'e': 0x1B,
	' ': ' ', '"': '"', '/': '/', 'N': 0x85, '_': 0xA0, 'L': 0x2028, 'P': 0x2029,
}

func escapeBackslash(s string) string { return strings.ReplaceAll(s, "\\", "\\\\") }

// parseYAMLBinary is ParseBinary for a YAML string. In double quotes YAML
// reads "\xFF" itself, as the character U+00FF, which is two bytes in
// UTF-8; such a character is refused so that nobody gets those two bytes
// when they meant one.
func parseYAMLBinary(s string) ([]byte, error) {
	for _, r := range s {
		if r >= 0x80 && r <= 0xFF {
			return nil, fmt.Errorf("holds %U, which is how YAML reads \\x%02X in double quotes (two bytes in UTF-8): write bytes in single quotes, as '\\x%02X'", r, r, r)
		}
	}
	return ParseBinary(s)
}

func familyNames(t *Table) string {
	if len(t.Families) == 0 {
		return "none"
	}
	names := make([]string, len(t.Families))
	for i, f := range t.Families {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// maxRegions bounds the regions a split algorithm may make.
const maxRegions = 65536

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

package design

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Severity ranks a finding.
type Severity int

// Severities, from the mildest.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// Finding is one anti-pattern found in a table's layout.
type Finding struct {
	Table    string
	Rule     string
	Severity Severity
	// Reason says what is wrong and what it costs.
	Reason string
	// Fix says what to change.
	Fix string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s [%s] %s; fix: %s", f.Table, f.Severity, f.Rule, f.Reason, f.Fix)
}

// Rules lists every rule LINT applies, in the order it applies them.
var Rules = []string{
	"monotonic-lead",
	"too-many-families",
	"key-length",
	"delimiter-in-values",
	"pad-order",
	"signed-order",
	"random-no-index",
	"split-mismatch",
	"salt-too-wide",
	"series-no-ttl",
}

// pricedRows is the row count at which key bytes are priced: 10 million
// rows of a 100-byte key hold nearly 1 GB of key bytes alone.
const pricedRows = 10_000_000

// LintCatalog lints every table of c and its index tables, in name order.
func LintCatalog(c *catalog.Catalog) []Finding {
	var out []Finding
	for _, name := range c.Names() {
		t, _ := c.Table(name)
		out = append(out, Lint(t)...)
	}
	return out
}

// Lint judges one table's layout, and those of its index tables. It is
// silent on a sound layout.
func Lint(t *catalog.Table) []Finding {
	out := lintOne(t)
	for _, ix := range t.Indexes {
		out = append(out, lintOne(ix.Table)...)
	}
	return out
}

// Count returns how many findings are errors and how many are warnings.
func Count(fs []Finding) (errors, warnings int) {
	for _, f := range fs {
		switch f.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		}
	}
	return errors, warnings
}

func lintOne(t *catalog.Table) []Finding {
	l := linter{t: t}
	l.monotonicLead()
	l.families()
	l.keyLength()
	l.delimiters()
	l.padding()
	l.signedOrder()
	l.randomSuffix()
	l.splits()
	l.saltWidth()
	l.seriesTTL()
	return l.out
}

type linter struct {
	t   *catalog.Table
	out []Finding
}

func (l *linter) add(rule string, sev Severity, fix, format string, args ...any) {
	l.out = append(l.out, Finding{Table: l.t.Name, Rule: rule, Severity: sev, Reason: fmt.Sprintf(format, args...), Fix: fix})
}

func (l *linter) comps() []catalog.Component { return l.t.Key.Components }

// colType is the logical type of a field or bucket component's column.
func (l *linter) colType(c *catalog.Component) catalog.Type {
	return l.t.Columns[c.Column()].Type
}

// lead returns the first component that is not a literal.
func (l *linter) lead() (*catalog.Component, int) {
	cs := l.comps()
	for i := range cs {
		if cs[i].Kind != catalog.KindLiteral {
			return &cs[i], i
		}
	}
	return nil, -1
}

// sequenceName reports whether a column name reads like a counter.
func sequenceName(name string) bool {
	n := strings.ToLower(name)
	return n == "id" || n == "seq" || n == "sequence" || strings.HasSuffix(n, "_seq") ||
		strings.HasSuffix(n, "_sequence") || strings.HasSuffix(n, "_counter")
}

func (l *linter) monotonicLead() {
	c, _ := l.lead()
	if c == nil || c.Kind != catalog.KindField {
		return
	}
	switch typ := l.colType(c); {
	case typ == catalog.TypeTimestamp || typ == catalog.TypeDate:
		l.add("monotonic-lead", Error,
			fmt.Sprintf("lead with a salt, a bucket (bucket: %s, mod: 16) or a hash of another field, and keep %s after it", c.Field, c.Field),
			"the key starts with %s (%s), which only grows: every new row lands in the last region, a write hotspot", c.Field, typ)
	case (typ == catalog.TypeBigint || typ == catalog.TypeInt) && sequenceName(c.Field):
		l.add("monotonic-lead", Warning,
			fmt.Sprintf("if %s comes from a sequence, reverse it or lead with a hash of it (hash: md5, of: [%s], width: 2)", c.Field, c.Field),
			"the key starts with %s, which reads like a sequence: increasing values all land in the last region", c.Field)
	}
}

func (l *linter) families() {
	if n := len(l.t.Families); n > 3 {
		l.add("too-many-families", Warning,
			"merge families that are read and written together; keep at most 3, named with one letter",
			"%d column families: HBase flushes and compacts every family of a region together, and advises at most 3", n)
	}
}

// keyBytes returns the fewest bytes a key can have and whether every key
// has exactly that length. A variable-width field counts as one byte.
func (l *linter) keyBytes() (int, bool) {
	n, fixed := 0, true
	for i := range l.comps() {
		c := &l.comps()[i]
		if w, ok := c.FixedWidth(); ok {
			n += w
			continue
		}
		fixed = false
		n++
	}
	return n, fixed
}

// storedColumns counts the columns held in cells.
func (l *linter) storedColumns() int {
	n := 0
	for _, c := range l.t.Columns {
		if c.Family != "" {
			n++
		}
	}
	return max(n, 1)
}

func (l *linter) keyLength() {
	n, fixed := l.keyBytes()
	if n <= 16 {
		return
	}
	sev := Warning
	if n > 100 {
		sev = Error
	}
	size := "is"
	if !fixed {
		size = "is at least"
	}
	cells := l.storedColumns()
	cost := float64(n) * float64(cells) * pricedRows
	l.add("key-length", sev,
		"shorten it: a narrower hash prefix, binary instead of decimal numbers, fixed-width codes instead of names; aim for 16 bytes or a multiple of 8",
		"the key %s %d bytes; every cell repeats it, so %s rows of %d cell(s) carry %s of key bytes",
		size, n, catalog.Thousands(pricedRows), cells, humanBytes(cost))
}

// delimiterOf returns the literal that ends a variable-width text field at
// position i, or nil.
func (l *linter) delimiterOf(i int) []byte {
	cs := l.comps()
	c := &cs[i]
	if c.Kind != catalog.KindField || c.Enc != catalog.KeyText || c.Width > 0 || i+1 >= len(cs) {
		return nil
	}
	if next := &cs[i+1]; next.Kind == catalog.KindLiteral {
		return next.Literal
	}
	return nil
}

// printable reports whether b can appear in ordinary text.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7E {
			return false
		}
	}
	return len(b) > 0
}

// commonInText reports whether a delimiter byte turns up in ordinary
// names, hosts, domains and dates: letters, digits, space and the
// punctuation they use.
func commonInText(d []byte) bool {
	for _, c := range d {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			return true
		case strings.IndexByte(" -_.:,/@+", c) >= 0:
			return true
		}
	}
	return false
}

func (l *linter) delimiters() {
	for i := range l.comps() {
		d := l.delimiterOf(i)
		if d == nil || !printable(d) {
			continue
		}
		c := &l.comps()[i]
		ds := catalog.ToStringBinary(d)
		fix := fmt.Sprintf("end %s with '\\x00', which sorts before every character (so %s also keeps its text order), or give it a fixed width", c.Field, c.Field)
		if commonInText(d) {
			l.add("delimiter-in-values", Warning, fix,
				"%s is ended by '%s', which ordinary text holds: a value containing it cannot be written%s",
				c.Field, ds, outOfOrder(c.Field, d[0]))
			continue
		}
		l.add("delimiter-in-values", Info, fix,
			"%s is ended by '%s', and a value holding it cannot be written%s",
			c.Field, ds, outOfOrder(c.Field, d[0]))
	}
}

func (l *linter) padding() {
	for i := range l.comps() {
		c := &l.comps()[i]
		if c.Kind != catalog.KindField || c.Enc != catalog.KeyText || c.Width == 0 || c.PadLeft {
			continue
		}
		if c.Pad <= ' ' {
			continue
		}
		p := catalog.ToStringBinary([]byte{c.Pad})
		l.add("pad-order", Warning,
			fmt.Sprintf("pad %s with '\\x00' or a space, which sort before every character", c.Field),
			"%s is right-padded with '%s'%s", c.Field, p, outOfOrder(c.Field, c.Pad))
	}
}

// outOfOrder explains, with two values, how ending a text field with the
// byte b breaks its order: a value's key sorts after the key of a longer
// value that starts with it whenever b sorts after the next character.
func outOfOrder(field string, b byte) string {
	var longer string
	switch {
	case b > '2':
		longer = "12"
	case b > ' ':
		longer = "1 2"
	default:
		return ""
	}
	bs := catalog.ToStringBinary([]byte{b})
	return fmt.Sprintf("; the key of %s1 ('%s1%s') sorts after that of %s%s ('%s%s%s'), so a range over %s reads values out of order",
		field, field, bs, field, longer, field, longer, bs, field)
}

func (l *linter) signedOrder() {
	for i := range l.comps() {
		c := &l.comps()[i]
		if c.Kind != catalog.KindField || c.Enc != catalog.KeyJava || c.Unsigned || c.Desc {
			continue
		}
		switch l.colType(c) {
		case catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble:
		default:
			continue
		}
		l.add("signed-order", Warning,
			fmt.Sprintf("use encoding: sortable (sign bit flipped) if %s can be negative", c.Field),
			"%s is %s in Java's Bytes.toBytes form, where a negative number's bytes sort after every positive one: a range over %s that crosses zero is read as two key ranges, and ORDER BY %s merges them or sorts in the client unless the range keeps to one side of zero",
			c.Field, l.colType(c), c.Field, c.Field)
	}
}

func (l *linter) randomSuffix() {
	if l.t.IndexOf != nil || len(l.t.Indexes) > 0 {
		return
	}
	for i := range l.comps() {
		c := &l.comps()[i]
		if c.Kind != catalog.KindRandom {
			continue
		}
		l.add("random-no-index", Warning,
			"add an index table keyed by the fields a point read knows, or derive the suffix from a hash of a field instead of at random",
			"the key ends in random(%d) and no index serves the table: every point read must try all %d suffixes (%d Gets or a prefix scan)",
			c.Mod, c.Mod, c.Mod)
	}
}

// leadValues enumerates the byte prefixes the leading component can take,
// or nil when they cannot be listed.
func (l *linter) leadValues() [][]byte {
	c, _ := l.lead()
	if c == nil {
		return nil
	}
	switch c.Kind {
	case catalog.KindHash, catalog.KindBucket, catalog.KindSalt, catalog.KindRandom:
		if c.Cardinality() > 1<<16 {
			return nil
		}
		return c.ValueBytes()
	case catalog.KindField:
		// A short decimal field: its digits are its whole alphabet.
		if c.Enc != catalog.KeyDecimal || c.Width < 1 || c.Width > 4 {
			return nil
		}
		var vals [][]byte
		for n := 0; n < pow10(c.Width); n++ {
			vals = append(vals, []byte(fmt.Sprintf("%0*d", c.Width, n)))
		}
		return vals
	}
	return nil
}

func pow10(n int) int {
	v := 1
	for range n {
		v *= 10
	}
	return v
}

// regionOf returns the region a key falls in, given sorted split keys.
func regionOf(splits [][]byte, key []byte) int {
	return sort.Search(len(splits), func(i int) bool { return string(splits[i]) > string(key) })
}

func (l *linter) splits() {
	splits := l.t.SplitKeys()
	if len(splits) == 0 {
		return
	}
	vals := l.leadValues()
	if vals == nil {
		return
	}
	// A region receives keys when some leading value's key range meets it:
	// the keys with prefix v span [v, v+) and reach every region between
	// the one v falls in and the one its end falls in.
	used := map[int]bool{}
	for _, v := range vals {
		lo := regionOf(splits, v)
		hi := len(splits)
		if end := catalog.PrefixEnd(v); end != nil {
			hi = regionOf(splits, end)
			if hi > lo && string(splits[hi-1]) == string(end) {
				hi--
			}
		}
		for r := lo; r <= hi; r++ {
			used[r] = true
		}
	}
	regions := len(splits) + 1
	if len(used) == regions {
		return
	}
	c, _ := l.lead()
	l.add("split-mismatch", Warning,
		"split at the leading component's own values (split: {buckets: true}) or choose split points in its alphabet",
		"the key starts with %s, whose %d values reach only %d of the %d regions the split points make: the other %d never receive a row",
		c, len(vals), len(used), regions, regions-len(used))
}

func (l *linter) saltWidth() {
	c, _ := l.lead()
	if c == nil {
		return
	}
	regions := int64(len(l.t.SplitKeys()) + 1)
	switch c.Kind {
	case catalog.KindBucket, catalog.KindSalt:
		if regions > 1 && c.Mod > regions {
			l.add("salt-too-wide", Warning,
				fmt.Sprintf("use mod %d, one value per region, unless the table will be split further", regions),
				"%s has %d values over %d regions: a range read fans out into %d scans where %d would reach every region",
				c, c.Mod, regions, c.Mod, regions)
		}
	case catalog.KindHash:
		if c.Hash != catalog.HashMD5 || regions < 2 {
			return
		}
		need := 1
		for n := int64(16); n < regions; n *= 16 {
			need++
		}
		if c.Width > need+1 {
			l.add("salt-too-wide", Info,
				fmt.Sprintf("width: %d gives %d values, enough for %d regions and more splits later", need+1, c.Cardinality()/pow16(c.Width-need-1), regions*16),
				"%s spends %d bytes of every key on %d prefixes for %d regions",
				c, c.Width, c.Cardinality(), regions)
		}
	}
}

func pow16(n int) int64 {
	v := int64(1)
	for range n {
		v *= 16
	}
	return v
}

// seriesTTL flags a time series kept forever: a table whose first key
// field, after any salt, bucket or hash, is a TIMESTAMP.
func (l *linter) seriesTTL() {
	if l.t.IndexOf != nil {
		return
	}
	var first *catalog.Component
	for i := range l.comps() {
		if c := &l.comps()[i]; c.Kind == catalog.KindField {
			first = c
			break
		}
	}
	if first == nil || l.colType(first) != catalog.TypeTimestamp {
		return
	}
	var forever []string
	for _, f := range l.t.Families {
		if f.TTL == 0 {
			forever = append(forever, f.Name)
		}
	}
	if len(forever) == 0 {
		return
	}
	l.add("series-no-ttl", Info,
		"set a TTL on the families whose rows age out (families: [{name: …, ttl: 2592000}])",
		"rows are keyed by time first (%s) but family %s keeps them forever: the table only grows", first.Field, strings.Join(forever, ", "))
}

func humanBytes(n float64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", n/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", n/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", n/(1<<10))
}

// Summary is the one line shown when a catalog loads: how many errors and
// warnings LINT finds, or "" when it finds none.
func Summary(c *catalog.Catalog) string {
	errs, warns := Count(LintCatalog(c))
	if errs+warns == 0 {
		return ""
	}
	return fmt.Sprintf("LINT finds %d error(s) and %d warning(s) in the catalog's layouts; type LINT to see them", errs, warns)
}

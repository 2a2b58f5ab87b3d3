package hbasestore_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

func hexKeys(keys [][]byte) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(hex.EncodeToString(k) + "\n")
	}
	return b.String()
}

// shellCreate is an HBase shell create statement as the shell reads it.
type shellCreate struct {
	table    string
	families []shellFamily
	splits   [][]byte
}

// shellFamily is one family's settings, in the statement's order.
type shellFamily struct{ keys, values []string }

func (f shellFamily) get(key string) string {
	if i := slices.Index(f.keys, key); i >= 0 {
		return f.values[i]
	}
	return ""
}

// parseShellCreate reads the one-line statement design.HBaseShell writes:
// create 'name', {K => 'v', K => n, …}, …, {SPLITS => ['k', "\xNN", …]}.
// Strings are single-quoted text, or double-quoted with \xNN and
// backslash escapes, as Ruby reads them.
func parseShellCreate(line string) (shellCreate, error) {
	s := line
	fail := func(what string) (shellCreate, error) {
		return shellCreate{}, fmt.Errorf("%s at offset %d of %q", what, len(line)-len(s), line)
	}
	eat := func(p string) bool {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			return true
		}
		return false
	}
	str := func() ([]byte, bool) {
		if s == "" || s[0] != '\'' && s[0] != '"' {
			return nil, false
		}
		q := s[0]
		var b []byte
		for i := 1; i < len(s); i++ {
			c := s[i]
			switch {
			case c == q:
				s = s[i+1:]
				return b, true
			case q == '"' && c == '\\' && i+1 < len(s) && s[i+1] == 'x':
				if i+3 >= len(s) {
					return nil, false
				}
				v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
				if err != nil {
					return nil, false
				}
				b = append(b, byte(v))
				i += 3
			case q == '"' && c == '\\' && i+1 < len(s):
				i++
				b = append(b, s[i])
			case c == '\\' || q == '\'' && c < 0x20:
				return nil, false
			default:
				b = append(b, c)
			}
		}
		return nil, false
	}
	var sc shellCreate
	if !eat("create ") {
		return fail("no create")
	}
	name, ok := str()
	if !ok {
		return fail("no table name")
	}
	sc.table = string(name)
	for eat(", {") {
		if eat("SPLITS => [") {
			for !eat("]}") {
				if len(sc.splits) > 0 && !eat(", ") {
					return fail("no comma between split keys")
				}
				k, ok := str()
				if !ok {
					return fail("bad split key")
				}
				sc.splits = append(sc.splits, k)
			}
			continue
		}
		var f shellFamily
		for !eat("}") {
			if len(f.keys) > 0 && !eat(", ") {
				return fail("no comma between settings")
			}
			i := strings.Index(s, " => ")
			if i <= 0 {
				return fail("no setting")
			}
			key := s[:i]
			s = s[i+4:]
			v, ok := str()
			if !ok { // a number
				j := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
				if j <= 0 {
					return fail("bad value of " + key)
				}
				v, s = []byte(s[:j]), s[j:]
			}
			f.keys, f.values = append(f.keys, key), append(f.values, string(v))
		}
		if f.get("NAME") == "" {
			return fail("a family without NAME")
		}
		sc.families = append(sc.families, f)
	}
	if s != "" {
		return fail("trailing text")
	}
	return sc, nil
}

func TestParseShellCreate(t *testing.T) {
	sc, err := parseShellCreate(`create 'ns:t', {NAME => 'f', VERSIONS => '3', TTL => 86400}, {NAME => 'g', VERSIONS => '1'}, {SPLITS => ['a', "\x00'\#\"\\", 'z']}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%s %q %q", sc.table, sc.families, sc.splits); got != `ns:t [{["NAME" "VERSIONS" "TTL"] ["f" "3" "86400"]} {["NAME" "VERSIONS"] ["g" "1"]}] ["a" "\x00'#\"\\" "z"]` {
		t.Errorf("parsed %s", got)
	}
	for _, bad := range []string{`create 't'x`, `create 't', {VERSIONS => '1'}`, `create 't', {SPLITS => ['a' 'b']}`, `create "t\x4"`} {
		if _, err := parseShellCreate(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}

// describedTable is the ShellSplits describe output of one table: a line
// per family with its settings as HBase holds them, and its regions.
type describedTable struct {
	families map[string]map[string]string // family name -> setting -> value
	regions  string                       // hex start keys, one a line
	text     string
}

func parseDescribe(t *testing.T, out string) describedTable {
	t.Helper()
	d := describedTable{families: map[string]map[string]string{}, text: out}
	var regions strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		switch kind, rest, _ := strings.Cut(l, " "); kind {
		case "family":
			f := map[string]string{}
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				f[k] = v
			}
			d.families[f["NAME"]] = f
		case "region":
			regions.WriteString(rest + "\n")
		default:
			t.Fatalf("describe: unexpected line %q in\n%s", l, out)
		}
	}
	d.regions = regions.String()
	return d
}

// TestShowCreateMatchesHBase checks SHOW CREATE TABLE's HBase shell
// statements against HBase itself: for SPLITALGO's algorithms their
// SPLITS are RegionSplitter's keys; for tables rkql's CREATE TABLE makes,
// index tables included, each statement names the table's families with
// the settings HBase reports and SPLITS that are HBase's region starts;
// and the statement run through the Java Admin API, as the shell's
// create runs it, makes a table HBase describes the same way.
func TestShowCreateMatchesHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/ShellSplits.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	statements := func(tb *catalog.Table) []shellCreate {
		t.Helper()
		var out []shellCreate
		for _, l := range strings.Split(strings.TrimSuffix(design.HBaseShell(tb), "\n"), "\n") {
			sc, err := parseShellCreate(l)
			if err != nil {
				t.Fatalf("%s: %v", tb.Name, err)
			}
			out = append(out, sc)
		}
		return out
	}

	// The algorithms, as the shell's NUMREGIONS and SPLITALGO compute them.
	algs, err := catalog.Parse([]byte(`tables:
  - name: hex16
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: HexStringSplit, regions: 16}
  - name: uniform8
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: UniformSplit, regions: 8}
  - name: decimal10
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: DecimalStringSplit, regions: 10}
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		table, alg string
		n          int
	}{{"hex16", "HexStringSplit", 16}, {"uniform8", "UniformSplit", 8}, {"decimal10", "DecimalStringSplit", 10}}
	var cmds [][]string
	for _, c := range cases {
		cmds = append(cmds, []string{"algorithm", c.alg, strconv.Itoa(c.n)})
	}
	start := time.Now()
	wants := java.Batch(t, "ShellSplits", cmds)
	t.Logf("RegionSplitter: %v", time.Since(start))
	for i, c := range cases {
		tb, _ := algs.Table(c.table)
		if got := hexKeys(statements(tb)[0].splits); got != wants[i] {
			t.Errorf("%s %d: SHOW CREATE TABLE's SPLITS\n%swant HBase's RegionSplitter\n%s", c.alg, c.n, got, wants[i])
		}
	}

	// Tables: the example tables with the most family settings and
	// splits, an index table pre-split, and one with every setting and
	// split keys the shell must quote.
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	every := hbasetest.TableName("showcreate_every")
	extra, err := catalog.Parse([]byte(`tables:
  - name: every
    hbase: ` + every + `
    families:
      - {name: f, versions: 3, ttl: 86400, compression: gz, bloomfilter: rowcol, blocksize: 16384, blockcache: false, in_memory: true}
      - {name: g}
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    splits: ["a\x00'", "m#{x}", "q\"\\\\", "\xFF"]
`))
	if err != nil {
		t.Fatal(err)
	}
	dropAtEnd(t, st, []string{every})
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	var tables []*catalog.Table
	for _, name := range []string{"user_calendar_record", "logs", "device_metrics", "orders"} {
		tb, _ := cat.Table(name)
		tables = append(tables, tb)
	}
	tables = append(tables, extra.Tables[0])
	start = time.Now()
	var stmts []shellCreate
	for _, tb := range tables {
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		physical := []string{tb.Physical}
		for _, ix := range tb.Indexes {
			physical = append(physical, ix.Physical)
		}
		got := statements(tb)
		var gotNames []string
		for _, sc := range got {
			gotNames = append(gotNames, sc.table)
		}
		if !slices.Equal(gotNames, physical) {
			t.Fatalf("%s: statements create %v, want %v", tb.Name, gotNames, physical)
		}
		stmts = append(stmts, got...)
	}
	t.Logf("rkql CREATE TABLE: %v", time.Since(start))
	// A family the store had to create uncompressed (a cluster without
	// the codec) is created so by the Java API too, and HBase reports
	// NONE for it.
	fellBack := map[string]bool{}
	for _, f := range st.Fallbacks() {
		fam, _, _ := strings.Cut(f, " ")
		fellBack[fam] = true
		t.Logf("created without compression: %s", f)
	}
	cmds = nil
	var drops [][]string
	for _, sc := range stmts {
		cmds = append(cmds, []string{"describe", host, port, sc.table})
	}
	for _, sc := range stmts {
		javaTable := sc.table + "_java"
		cmd := []string{"create", host, port, javaTable}
		for _, f := range sc.families {
			var kvs []string
			for i, k := range f.keys {
				v := f.values[i]
				if k == "COMPRESSION" && fellBack[sc.table+":"+f.get("NAME")] {
					v = "NONE"
				}
				kvs = append(kvs, k+"="+v)
			}
			cmd = append(cmd, "f:"+strings.Join(kvs, ","))
		}
		for _, s := range sc.splits {
			cmd = append(cmd, "s:"+hex.EncodeToString(s))
		}
		cmds = append(cmds, cmd)
		drops = append(drops, []string{"drop", host, port, javaTable})
	}
	start = time.Now()
	outs := java.Batch(t, "ShellSplits", append(cmds, drops...))
	t.Logf("Java describe, create and drop: %v", time.Since(start))
	for i, sc := range stmts {
		ours, theirs := parseDescribe(t, outs[i]), parseDescribe(t, outs[len(stmts)+i])
		if want := "\n" + hexKeys(sc.splits); ours.regions != want {
			t.Errorf("%s: HBase has regions starting at\n%swhile the statement's SPLITS make\n%s", sc.table, ours.regions, want)
		}
		if len(ours.families) != len(sc.families) {
			t.Errorf("%s: HBase has families %v, the statement %d", sc.table, ours.families, len(sc.families))
		}
		for _, f := range sc.families {
			name := f.get("NAME")
			have, ok := ours.families[name]
			if !ok {
				t.Errorf("%s: HBase has no family %s:\n%s", sc.table, name, ours.text)
				continue
			}
			for j, k := range f.keys {
				want := f.values[j]
				if k == "COMPRESSION" && fellBack[sc.table+":"+name] {
					want = "NONE"
				}
				if got, ok := have[k]; !ok || !strings.EqualFold(got, want) {
					t.Errorf("%s: family %s: statement says %s => %s, HBase has %s", sc.table, name, k, want, got)
				}
			}
		}
		if ours.text != theirs.text {
			t.Errorf("%s: rkql's CREATE TABLE made\n%swhile the statement, run through the Java API, makes\n%s", sc.table, ours.text, theirs.text)
		}
	}
}

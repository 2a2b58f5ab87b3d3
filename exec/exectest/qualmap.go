package exectest

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// QualifierCatalogYAML holds seed 002's wide tables, whose qualifiers are
// data, with HBase table names left to fill in (%[1]s is a prefix):
// inverted, a term's documents as qualifiers (each cell a row), and
// profiles, a user's tags as the qualifiers of family tags (one MAP
// column).
const QualifierCatalogYAML = `tables:
  - name: inverted
    hbase: %[1]sinverted
    families:
      - {name: d}
    columns:
      - {name: term, type: STRING}
      - {name: doc_id, type: BIGINT}
      - {name: score, type: DOUBLE}
    rowkey:
      - {field: term}
    wide: {family: d, qualifier: {field: doc_id, encoding: java}, value: score}
  - name: inverted_text
    hbase: %[1]sinverted_text
    families:
      - {name: d}
    columns:
      - {name: term, type: STRING}
      - {name: doc, type: STRING}
      - {name: hits, type: BIGINT, encoding: text}
    rowkey:
      - {field: term}
    wide: {family: d, qualifier: {field: doc}, value: hits}
  - name: profiles
    hbase: %[1]sprofiles
    families:
      - {name: base}
      - {name: tags}
    columns:
      - {name: user, type: STRING}
      - {name: name, type: STRING, column: "base:name"}
      - {name: tags, type: "MAP<STRING, STRING>", family: tags, encoding: text}
    rowkey:
      - {field: user}
`

// QualifierCatalog is QualifierCatalogYAML with HBase tables prefixed.
func QualifierCatalog(prefix string) (*catalog.Catalog, error) {
	return catalog.Parse([]byte(fmt.Sprintf(QualifierCatalogYAML, prefix)))
}

// qualData writes the tables' cells as a Java client would, with
// Bytes.toBytes: a document id qualifier as 8 bytes, a score as a
// double, a tag name and its value as text; a few cells that do not
// decode (a 3-byte document id) sit beside them and must be skipped.
// It returns the number of such cells per table.
func qualData(ctx context.Context, st exec.Store, cat *catalog.Catalog, rows int, seed uint64) (map[string]int, error) {
	r := rand.New(rand.NewPCG(seed, 31))
	terms := []string{"hbase", "hadoop", "region", "rowkey", "scan", "filter", "bloom", "compaction", "z"}
	var inv, txt, prof []exec.Mutation
	bad := map[string]int{}
	for i := 0; i < rows/10+1; i++ {
		term := terms[i%len(terms)] + strconv.Itoa(i/len(terms))
		m := exec.Mutation{Key: []byte(term)}
		mt := exec.Mutation{Key: []byte(term)}
		n := 2 + r.IntN(12)
		for j := 0; j < n; j++ {
			doc := r.Int64N(2000) - 100 // some negative ids too
			switch {
			case j == 0:
				doc = int64(i % 5) // ids shared by many terms
			case j == 1:
				doc = int64(1000 + i)
			case r.IntN(7) == 0:
				doc = r.Int64N(5)
			}
			q := binary.BigEndian.AppendUint64(nil, uint64(doc))
			v := binary.BigEndian.AppendUint64(nil, math.Float64bits(math.Round(r.Float64()*1000)/100))
			m.Cells = append(m.Cells, exec.Cell{Family: "d", Qualifier: string(q), Timestamp: int64(1000 + j), Value: v})
			name := fmt.Sprintf("doc-%03d", r.IntN(300))
			if j == 0 {
				name = fmt.Sprintf("doc-%03d", i%3)
			}
			mt.Cells = append(mt.Cells, exec.Cell{Family: "d", Qualifier: name, Timestamp: 1000, Value: []byte(strconv.Itoa(r.IntN(50)))})
		}
		if i%17 == 3 {
			m.Cells = append(m.Cells, exec.Cell{Family: "d", Qualifier: "abc", Timestamp: 1000, Value: []byte{1}})
			bad["inverted"]++
		}
		inv, txt = append(inv, m), append(txt, mt)
	}
	tagNames := []string{"sports", "music", "travel", "food", "golf", "chess"}
	for i := 0; i < rows/5+1; i++ {
		user := fmt.Sprintf("u%04d", i)
		m := exec.Mutation{Key: []byte(user)}
		if i%4 != 0 {
			m.Cells = append(m.Cells, exec.Cell{Family: "base", Qualifier: "name", Timestamp: 1000, Value: []byte("name" + strconv.Itoa(i%13))})
		}
		for _, tg := range tagNames {
			if r.IntN(3) == 0 {
				val := []string{"yes", "no", "fan", "pro", ""}[r.IntN(5)]
				m.Cells = append(m.Cells, exec.Cell{Family: "tags", Qualifier: tg, Timestamp: int64(1000 + r.IntN(3)), Value: []byte(val)})
			}
		}
		if len(m.Cells) == 0 {
			m.Cells = append(m.Cells, exec.Cell{Family: "tags", Qualifier: "new", Timestamp: 1000, Value: []byte("1")})
		}
		prof = append(prof, m)
	}
	for name, muts := range map[string][]exec.Mutation{"inverted": inv, "inverted_text": txt, "profiles": prof} {
		t, _ := cat.Table(name)
		if err := (&exec.Executor{Store: st}).EnsureTable(ctx, t); err != nil {
			return nil, err
		}
		if err := st.Mutate(ctx, t.Physical, muts); err != nil {
			return nil, err
		}
	}
	return bad, nil
}

// qualQueries are the fixed queries of each table; each must return rows.
var qualQueries = map[string][]string{
	"inverted": {
		`SELECT doc_id FROM inverted WHERE term = 'hbase0'`,
		`SELECT doc_id, score FROM inverted WHERE term = 'hbase0' AND doc_id = 3`,
		`SELECT term, doc_id FROM inverted WHERE term IN ('hbase0', 'scan1', 'z2') AND doc_id IN (0, 1, 2, 3, 4) ORDER BY doc_id, term`,
		`SELECT term, doc_id, score FROM inverted WHERE doc_id BETWEEN 100 AND 400 ORDER BY score DESC, term, doc_id LIMIT 20 ALLOW FULL SCAN`,
		`SELECT term, doc_id FROM inverted WHERE doc_id < 0 ORDER BY term, doc_id ALLOW FULL SCAN`,
		`SELECT term, doc_id FROM inverted WHERE doc_id >= -50 AND doc_id < 10 ORDER BY term, doc_id ALLOW FULL SCAN`,
		`SELECT term, COUNT(*), MAX(score) FROM inverted WHERE term >= 'h' AND term < 'r' GROUP BY term ORDER BY term`,
		`SELECT doc_id, COUNT(*) FROM inverted WHERE doc_id IN (0, 1, 2, 3, 4) GROUP BY doc_id ORDER BY doc_id ALLOW FULL SCAN`,
		`SELECT COUNT(*) FROM inverted ALLOW FULL SCAN`,
		`SELECT term, doc_id, _ts FROM inverted WHERE term = 'region0' AND doc_id > 1000 ORDER BY doc_id`,
	},
	"inverted_text": {
		`SELECT doc, hits FROM inverted_text WHERE term = 'hbase0'`,
		`SELECT term, doc FROM inverted_text WHERE doc LIKE 'doc-1%' ORDER BY term, doc ALLOW FULL SCAN`,
		`SELECT term, doc, hits FROM inverted_text WHERE term = 'scan0' AND doc >= 'doc-100' AND doc < 'doc-200'`,
		`SELECT term, doc FROM inverted_text WHERE doc IN ('doc-001', 'doc-002', 'doc-150') ORDER BY term, doc ALLOW FULL SCAN`,
		`SELECT term, doc FROM inverted_text WHERE doc = 'doc-010' OR doc > 'doc-290' ORDER BY term, doc ALLOW FULL SCAN`,
		`SELECT doc, SUM(hits) FROM inverted_text WHERE doc LIKE 'doc-0%' GROUP BY doc ORDER BY doc ALLOW FULL SCAN`,
	},
	"profiles": {
		`SELECT tags['sports'] FROM profiles WHERE user = 'u0001'`,
		`SELECT user, tags FROM profiles WHERE user IN ('u0001', 'u0002', 'u0003', 'u0004')`,
		`SELECT user, name, tags['music'], tags['golf'] FROM profiles WHERE user >= 'u0010' AND user < 'u0030'`,
		`SELECT user FROM profiles WHERE tags['sports'] = 'fan' ORDER BY user ALLOW FULL SCAN`,
		`SELECT user, tags['travel'] FROM profiles WHERE tags['travel'] IS NOT NULL AND tags['food'] IS NULL ORDER BY user ALLOW FULL SCAN`,
		`SELECT tags['chess'], COUNT(*) FROM profiles GROUP BY tags['chess'] ORDER BY 1 ALLOW FULL SCAN`,
		`SELECT user, tags FROM profiles WHERE tags IS NULL ORDER BY user ALLOW FULL SCAN`,
		`SELECT user FROM profiles WHERE tags['sports'] IN ('yes', 'pro') AND name LIKE 'name1%' ORDER BY user ALLOW FULL SCAN`,
		`SELECT COUNT(*) FROM profiles WHERE tags['music'] = '' ALLOW FULL SCAN`,
	},
}

// RunQualifierDiff runs the differential suite over seed 002's tables
// whose qualifiers are data (QualifierCatalog, HBase tables named with
// prefix): cells written as a Java client writes them, read back by the
// reference's own reading (ref/qualifier.go); fixed queries over the qualifier
// field and the map's entries, and random ones over the inverted
// indexes, must return what the reference does. A cell that does not
// decode must be skipped and counted as malformed.
func RunQualifierDiff(t *testing.T, st exec.Store, prefix string, o Options) {
	if o.Rows == 0 {
		o.Rows = 1500
	}
	if o.Queries == 0 {
		o.Queries = 150
	}
	if o.Seed == 0 {
		o.Seed = 1
		if s, err := strconv.ParseUint(os.Getenv("RKQL_DIFF_SEED"), 10, 64); err == nil {
			o.Seed = s
		}
	}
	ctx := context.Background()
	cat, err := QualifierCatalog(prefix)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := qualData(ctx, st, cat, o.Rows, o.Seed)
	if err != nil {
		t.Fatal(err)
	}
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, o.Planner)
	t.Run("pushed", func(t *testing.T) { checkQualifiersPushed(t, ctx, x, pl) })
	for _, name := range []string{"inverted", "inverted_text", "profiles"} {
		t.Run(name, func(t *testing.T) {
			tb, _ := cat.Table(name)
			all, err := ScanAll(ctx, st, tb)
			if err != nil {
				t.Fatal(err)
			}
			var stats exec.Stats
			sel, err := Plan(pl, "SELECT COUNT(*) FROM "+name+" ALLOW FULL SCAN")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Drain(ctx, x, sel, &stats); err != nil {
				t.Fatal(err)
			}
			if got := stats.Malformed.Load(); got != int64(bad[name]) {
				t.Errorf("a full scan counts %d malformed, want %d (first: %v)", got, bad[name], stats.FirstMalformed())
			}
			c := &checker{x: x, pl: pl, t: tb, all: all, kinds: map[string]int{}, known: map[string]int{}}
			for _, q := range qualQueries[name] {
				if err := c.checkNonEmpty(ctx, q); err != nil {
					t.Errorf("%s\n  %v", q, err)
				}
			}
			g := &queryGen{t: tb, r: rand.New(rand.NewPCG(o.Seed, 11)), rows: all}
			for i := 0; i < o.Queries; i++ {
				q := mapQuery(g.r)
				if strings.HasPrefix(name, "inverted") {
					q = g.query()
				}
				{
					if err := c.check(ctx, q); err != nil {
						t.Errorf("query %d: %s\n  %v", i, q, err)
						if i > 20 {
							return
						}
					}
				}
			}
			t.Logf("%s: %d rows, plans %v", name, len(all), c.kinds)
		})
	}
}

// qualPushed are queries whose conditions on the qualifier field the
// store must serve, with what EXPLAIN must say of each store; the cells
// that travel must be fewer than without pushdown.
var qualPushed = []struct {
	q, hbase string
	// what is the EXPLAIN line that says what the store does; SERVER
	// QUALIFIERS when empty.
	what string
}{
	{`SELECT doc_id, score FROM inverted WHERE term = 'hbase0' AND doc_id = 3`, `QualifierFilter(= '\x00\x00\x00\x00\x00\x00\x00\x03')`, ""},
	{`SELECT term, doc_id FROM inverted WHERE doc_id BETWEEN 100 AND 400 ALLOW FULL SCAN`, `ColumnRangeFilter(['\x00\x00\x00\x00\x00\x00\x00d', '\x00\x00\x00\x00\x00\x00\x01\x91'))`, ""},
	{`SELECT term, doc FROM inverted_text WHERE doc LIKE 'doc-1%' ALLOW FULL SCAN`, `ColumnPrefixFilter('doc-1')`, ""},
	{`SELECT term, doc FROM inverted_text WHERE doc IN ('doc-001', 'doc-002') ALLOW FULL SCAN`, `QualifierFilter(= 'doc-002')`, ""},
	// A MAP read only by constant keys: those cells of its family alone.
	{`SELECT user, tags['golf'], name FROM profiles WHERE user >= 'u0010' AND user < 'u0090' AND tags['music'] IS NULL`, `SERVER COLUMNS name (base:name), tags['golf'] (tags:golf), tags['music'] (tags:music)`, "SERVER COLUMNS"},
	// An entry compared with a value: the cell's SingleColumnValueFilter.
	{`SELECT user, tags['sports'] FROM profiles WHERE tags['sports'] = 'fan' ALLOW FULL SCAN`, `SingleColumnValueFilter(tags:sports = 'fan', filterIfMissing)`, "SERVER FILTER BY"},
}

// checkQualifiersPushed checks that each of qualPushed is served by the
// store: EXPLAIN names the store's filter, and fewer cells travel than
// with pushdown off.
func checkQualifiersPushed(t *testing.T, ctx context.Context, x *exec.Executor, pl *planner.Planner) {
	for _, tc := range qualPushed {
		sel, err := Plan(pl, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var cells [2]int64
		for i, on := range []bool{true, false} {
			p, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{NoPushdown: !on})
			if err != nil {
				t.Fatal(err)
			}
			text := p.Explain(planner.ExplainEnv{}, nil).Text()
			want, what := "cursor loop", tc.what
			if x.Store.Pushdown().StoreName() == "HBase" || what == "SERVER COLUMNS" {
				want = tc.hbase
			}
			if what == "" {
				what = "SERVER QUALIFIERS"
			}
			if on && (!strings.Contains(text, what) || !strings.Contains(text, want)) {
				t.Errorf("%s: EXPLAIN lacks %s and %q:\n%s", tc.q, what, want, text)
			}
			if !on && strings.Contains(text, what) {
				t.Errorf("%s: pushdown off, yet EXPLAIN says SERVER QUALIFIERS:\n%s", tc.q, text)
			}
			var st exec.Stats
			if _, err := DrainPlaced(ctx, x, p, &st); err != nil {
				t.Fatal(err)
			}
			cells[i] = st.Cells.Load()
		}
		if cells[0] >= cells[1] {
			t.Errorf("%s: %d cells travel with the qualifier filter, %d without: it saves nothing", tc.q, cells[0], cells[1])
		}
	}
}

// mapQuery draws a random query over profiles: entries selected,
// compared, tested for NULL, matched with LIKE and IN, grouped and
// sorted, beside the key and the plain column.
func mapQuery(r *rand.Rand) string {
	tag := func() string {
		return []string{"sports", "music", "travel", "food", "golf", "chess", "none"}[r.IntN(7)]
	}
	val := func() string { return "'" + []string{"yes", "no", "fan", "pro", "", "x"}[r.IntN(6)] + "'" }
	atom := func() string {
		e := "tags['" + tag() + "']"
		switch r.IntN(8) {
		case 0:
			return e + " IS NULL"
		case 1:
			return e + " IS NOT NULL"
		case 2:
			return e + " IN (" + val() + ", " + val() + ")"
		case 3:
			return e + " LIKE '" + []string{"p%", "%e%", "_o", "%"}[r.IntN(4)] + "'"
		case 4:
			return fmt.Sprintf("user %s 'u%04d'", []string{"<", ">=", "="}[r.IntN(3)], r.IntN(320))
		case 5:
			return "name " + []string{"=", "!="}[r.IntN(2)] + fmt.Sprintf(" 'name%d'", r.IntN(13))
		case 6:
			return e + " != " + val()
		}
		return e + " = " + val()
	}
	where := atom()
	for i := r.IntN(3); i > 0; i-- {
		op := []string{" AND ", " OR "}[r.IntN(2)]
		if r.IntN(4) == 0 {
			where = "NOT (" + where + ")"
		}
		where += op + atom()
	}
	if r.IntN(3) == 0 {
		t := tag()
		return fmt.Sprintf("SELECT tags['%s'], COUNT(*), MIN(user) FROM profiles WHERE %s GROUP BY tags['%s'] ORDER BY 1 ALLOW FULL SCAN", t, where, t)
	}
	items := []string{"user", "tags", "name", "tags['" + tag() + "']", "tags['" + tag() + "'] || '!'"}
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	q := "SELECT " + strings.Join(items[:1+r.IntN(len(items))], ", ") + " FROM profiles WHERE " + where
	switch r.IntN(3) {
	case 0:
		q += " ORDER BY user LIMIT " + strconv.Itoa(1+r.IntN(20))
	case 1:
		q += " ORDER BY tags['" + tag() + "'], user"
	}
	return q + " ALLOW FULL SCAN"
}

package exectest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// edgeQueries are queries aimed at the adversarial values, beside the
// random ones: for each column, its extremes and its order with NULLs,
// its groups, and by type the edges where dialects part: LIKE with a
// pattern in the other case, UPPER and LOWER of Unicode, a DOUBLE zero
// (-0.0 equals it), times before 1970.
func edgeQueries(t *catalog.Table, rows []catalog.Row, r *rand.Rand) []string {
	var qs []string
	from := " FROM " + t.Name
	for i, c := range t.Columns {
		name := parser.QuoteIdent(c.Name)
		qs = append(qs,
			"SELECT "+name+", COUNT(*)"+from+" GROUP BY "+name+" ORDER BY 1 DESC LIMIT 12 ALLOW FULL SCAN",
			"SELECT MIN("+name+"), MAX("+name+"), COUNT("+name+"), COUNT(DISTINCT "+name+")"+from+" ALLOW FULL SCAN",
			"SELECT "+name+from+" ORDER BY "+name+" LIMIT 7 OFFSET 2 ALLOW FULL SCAN",
			"SELECT DISTINCT "+name+from+" ORDER BY 1 DESC ALLOW FULL SCAN")
		v := sample(rows, i, r)
		switch c.Type {
		case catalog.TypeString:
			s := []rune(v.S)
			pre := string(s[:min(2, len(s))])
			qs = append(qs,
				"SELECT "+name+from+" WHERE "+name+" LIKE "+catalog.String(strings.ToUpper(pre)+"%").String()+" ALLOW FULL SCAN",
				"SELECT "+name+from+" WHERE "+name+" LIKE "+catalog.String("%"+strings.ToLower(pre)+"_%").String()+" ALLOW FULL SCAN",
				"SELECT UPPER("+name+"), LOWER("+name+"), LENGTH("+name+")"+from+" ORDER BY 1 DESC, 2 LIMIT 15 ALLOW FULL SCAN",
				"SELECT COUNT(*)"+from+" WHERE "+name+" = '' OR "+name+" < 'a' OR "+name+" >= 'é' ALLOW FULL SCAN")
		case catalog.TypeBigint, catalog.TypeInt:
			qs = append(qs, "SELECT SUM("+name+"), COUNT(*)"+from+" WHERE "+name+" BETWEEN -1000000 AND 1000000 ALLOW FULL SCAN")
		case catalog.TypeDouble:
			qs = append(qs,
				"SELECT COUNT(*), MIN("+name+")"+from+" WHERE "+name+" = 0 OR "+name+" = -0.0 ALLOW FULL SCAN",
				"SELECT "+name+", -"+name+", "+name+" * 2"+from+" WHERE "+name+" >= 'Infinity' OR "+name+" < -1e300 ALLOW FULL SCAN")
		case catalog.TypeTimestamp, catalog.TypeDate:
			lit := "TIMESTAMP '1970-01-01 00:00:00'"
			if c.Type == catalog.TypeDate {
				lit = "DATE '1970-01-01'"
			}
			qs = append(qs, "SELECT "+name+", COUNT(*)"+from+" WHERE "+name+" < "+lit+" GROUP BY "+name+" ORDER BY 1 ALLOW FULL SCAN")
			if c.Type == catalog.TypeTimestamp {
				qs = append(qs, fmt.Sprintf("SELECT DATE_TRUNC('day', %s), DATE_TRUNC('hour', %s), COUNT(*)%s GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 20 ALLOW FULL SCAN", name, name, from))
			}
		}
	}
	return qs
}

// sample is a non-NULL value of column col from rows, or NULL.
func sample(rows []catalog.Row, col int, r *rand.Rand) catalog.Value {
	for range 20 {
		if v := rows[r.IntN(len(rows))][col]; !v.Null {
			return v
		}
	}
	return rows[0][col]
}

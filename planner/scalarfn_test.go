package planner_test

import (
	"strings"
	"testing"

	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// TestFunctionErrors pins the messages of a call that does not fit its
// function: unknown names, argument counts, argument types, literals.
func TestFunctionErrors(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	for _, c := range []struct{ call, want string }{
		{"FOO(amount)", "error: 1:8: unknown function FOO"},
		{"UPPER(status, status)", "error: 1:8: UPPER takes 1 argument, not 2"},
		{"LOWER(amount)", "error: 1:14: LOWER needs a STRING, and amount is DOUBLE"},
		{"LENGTH(amount)", "error: 1:15: LENGTH needs a STRING or BYTES, and amount is DOUBLE"},
		{"SUBSTR(status)", "error: 1:8: SUBSTR takes 2 or 3 arguments, not 1"},
		{"SUBSTRING(status, 1, 2, 3)", "error: 1:8: SUBSTRING takes 2 or 3 arguments, not 4"},
		{"SUBSTR(status, 'a')", "error: 1:23: SUBSTR needs an integer, and 'a' is STRING"},
		{"SUBSTR(status, 1, amount)", "error: 1:26: SUBSTR needs an integer, and amount is DOUBLE"},
		{"COALESCE()", "error: 1:8: COALESCE takes at least 1 argument(s), not 0"},
		{"COALESCE(status, amount)", "error: 1:8: the arguments of COALESCE have types that do not mix: STRING, DOUBLE"},
		{"CONCAT()", "error: 1:8: CONCAT takes at least 1 argument(s), not 0"},
		{"NOW(1)", "error: 1:8: NOW takes no arguments"},
		{"DATE_TRUNC('hour')", "error: 1:8: DATE_TRUNC takes 2 arguments, a unit such as 'hour' and a TIMESTAMP"},
		{"DATE_TRUNC(status, ts)", "error: 1:19: DATE_TRUNC needs a unit such as 'hour' as its first argument"},
		{"DATE_TRUNC('hour', amount)", "error: 1:27: DATE_TRUNC needs a TIMESTAMP or DATE, and amount is DOUBLE"},
		{"DATE_TRUNC('week', ts)", `error: 1:19: DATE_TRUNC unit "week" is not one of second, minute, hour, day, month, year`},
		{"REGEXP_LIKE(status, '(a)\\1')", "error: 1:32: regular expression: backreferences and octal escapes such as \\1 are not supported at character 4 of the pattern"},
		{"REGEXP_LIKE(status, 'é''a*+')", "error: 1:34: regular expression: possessive quantifiers such as *+ ++ ?+ are not supported at character 5 of the pattern"},
		{"REGEXP_LIKE(status, 'a*+')", "error: 1:31: regular expression: possessive quantifiers such as *+ ++ ?+ are not supported at character 3 of the pattern"},
		{"REGEXP_LIKE(status, '(?i)paid')", "error: 1:29: regular expression: inline flags and other (? groups are not supported, except (?s) at the start and (?: (?<name> at character 1 of the pattern"},
		{"REGEXP_LIKE(status, status)", "error: 1:28: REGEXP_LIKE needs a regular expression such as '^s[0-9]' as its second argument"},
		{"REGEXP_LIKE(amount, 'a')", "error: 1:20: REGEXP_LIKE needs a STRING, and amount is DOUBLE"},
		{"REGEXP_REPLACE(status, 'a*', 'b')", "error: 1:31: regular expression: REGEXP_REPLACE refuses a pattern that can match the empty string (Java and Go place empty matches differently)"},
		{"REGEXP_REPLACE(status, 'a', '$1')", "error: 1:36: replacement: no group 1 at character 1"},
		{"STRFTIME('%Y %q', ts)", "error: 1:17: STRFTIME format \"%Y %q\": character 4: only %Y %m %d %H %M %S %f %j %w %s %% are formats"},
		{"DATE_PART('week', ts)", "error: 1:18: DATE_PART unit \"week\" is not one of year, month, day, hour, minute, second, millisecond, dow, doy, epoch"},
		{"ROUND(status)", "error: 1:14: ROUND needs a number, and status is STRING"},
		{"MOD(order_id)", "error: 1:8: MOD takes 2 arguments, not 1"},
		{"LPAD(status, 2.5)", "error: 1:21: LPAD needs an integer, and 2.5 is DOUBLE"},
		{"MD5(amount)", "error: 1:12: MD5 needs a STRING or BYTES, and amount is DOUBLE"},
		{"TO_TIMESTAMP(ts)", "error: 1:21: TO_TIMESTAMP needs a number, and ts is TIMESTAMP"},
		{"UPPER(DISTINCT status)", "error: 1:8: DISTINCT is only allowed in an aggregate function, not in UPPER"},
	} {
		got := strings.TrimSpace(plan(pl, "SELECT "+c.call+" FROM orders WHERE seller = 's1'"))
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.call, got, c.want)
		}
	}
}

// TestFunctionExamplesPlan plans the example of each function in the
// table, as the function reference shows it.
func TestFunctionExamplesPlan(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	for _, f := range expr.Functions {
		got := plan(pl, "SELECT "+f.Example+" FROM orders WHERE seller = 's1'")
		if strings.HasPrefix(got, "error") || strings.HasPrefix(got, "parse error") {
			t.Errorf("%s: the example %s: %s", f.Name, f.Example, got)
		}
	}
}

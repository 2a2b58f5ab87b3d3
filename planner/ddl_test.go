package planner_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Every layout statement, and only a layout statement, plans to a
// LayoutPlan, so the engine takes the catalog's lock exactly for the plans
// that edit or show the catalog file; the planner's checks against the
// catalog give positioned errors.
func TestLayoutPlans(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	for _, tc := range []struct {
		sql, want string
		// at is the word an error points at.
		at string
	}{
		{"CREATE TABLE probes (host STRING, v DOUBLE) ROWKEY (host)", "*planner.DefineTable", ""},
		{"CREATE INDEX logs_by_message ON logs ROWKEY (message, hostname, log_event, ts)", "*planner.CreateIndex", ""},
		{"DROP TABLE logs", "*planner.DropTable", ""},
		{"DROP TABLE some_hbase_table", "*planner.DropTable", ""},
		{"DROP INDEX orders_by_buyer", "*planner.DropIndex", ""},
		{"TRUNCATE TABLE logs", "*planner.Truncate", ""},
		{"ALTER TABLE logs ADD COLUMN level STRING", "*planner.AlterTable", ""},
		{"ALTER TABLE logs SET FAMILY l TTL 3600", "*planner.AlterTable", ""},
		{"SHOW CATALOG", "*planner.ShowCatalog", ""},
		{"SHOW CATALOG orders_by_buyer", "*planner.ShowCatalog", ""},
		{"INFER TABLE 'user_ts' SAMPLE 10 AS probe SAVE", "*planner.Infer", ""},
		{"INFER TABLE 'user_ts'", "*planner.Infer", ""},
		{"CREATE TABLE logs", "*planner.CreateTable", ""},
		{"SELECT * FROM logs WHERE hostname = 'h' ALLOW FULL SCAN", "*planner.Select", ""},
		{"SHOW CREATE TABLE logs", "*planner.ShowCreate", ""},
		{"LINT", "*planner.Lint", ""},
		{"ADVISE 'w.sql'", "*planner.Advise", ""},
		{"CREATE TABLE orders (a STRING) ROWKEY (a)", "table orders is already in the catalog", "orders"},
		{"CREATE INDEX orders_by_id ON orders ROWKEY (buyer)", "orders_by_id is already a table or index of the catalog", "orders_by_id"},
		{"CREATE INDEX x ON orders_by_id ROWKEY (buyer)", "orders_by_id is an index of orders: an index is made on a data table", "orders_by_id"},
		{"CREATE INDEX x ON nope ROWKEY (a)", `table "nope" does not exist`, "nope"},
		{"DROP TABLE orders_by_id", "orders_by_id is an index of orders: DROP INDEX orders_by_id", "orders_by_id"},
		{"DROP TABLE user_ts", "HBase table user_ts is the table of device_metrics: DROP TABLE device_metrics drops it", "user_ts"},
		{"DROP INDEX nope", `no table has an index "nope"`, "nope"},
		{"TRUNCATE TABLE orders_by_id", "orders_by_id is an index of orders: TRUNCATE TABLE orders empties both", "orders_by_id"},
		{"ALTER TABLE orders_by_id ADD COLUMN x STRING", `table "orders_by_id" does not exist`, "orders_by_id"},
		{"ALTER TABLE device_metrics ADD COLUMN x STRING", "table device_metrics has 2 families: say which with AS 'family:x'", "x STRING"},
		{"SHOW CATALOG nope", `table "nope" does not exist`, "nope"},
	} {
		st, err := parser.ParseOne(tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		p, err := pl.Plan(context.Background(), st)
		got := fmt.Sprintf("%T", p)
		if err != nil {
			got = err.Error()
			var perr *parser.Error
			if !errors.As(err, &perr) || int(perr.Pos) != strings.Index(tc.sql, tc.at) {
				t.Errorf("%s: error %v is not at %q", tc.sql, err, tc.at)
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: got %s, want %s", tc.sql, got, tc.want)
		}
		if err != nil {
			if !planner.Layout(st) {
				t.Errorf("%s: planner.Layout says it is no layout statement", tc.sql)
			}
			continue
		}
		if _, layout := p.(planner.LayoutPlan); layout != planner.Layout(st) {
			t.Errorf("%s: a %T, and planner.Layout says %v", tc.sql, p, planner.Layout(st))
		}
	}
}

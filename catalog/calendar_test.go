package catalog

import (
	"os"
	"testing"
)

func loadExamples(t testing.TB) *Catalog {
	t.Helper()
	src, err := os.ReadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCalendarKey checks both ways the calendar key a Java
// application writes as abs(uid.hashCode() % 10) ~ 99999999-yyyyMMdd ~
// type ~ uid: 9~79809782~05~0008839540 for uid 8839540, 2019-02-17, type 5.
func TestCalendarKey(t *testing.T) {
	c := loadExamples(t)
	tb, ok := c.Table("user_calendar_record")
	if !ok {
		t.Fatal("no user_calendar_record")
	}
	const want = "9~79809782~05~0008839540"
	row := tb.NewRow()
	if err := tb.DecodeKey([]byte(want), row, nil); err != nil {
		t.Fatal(err)
	}
	get := func(name string) Value {
		i, _ := tb.Column(name)
		return row[i]
	}
	if v := get("uid"); v.I != 8839540 {
		t.Errorf("uid = %v, want 8839540", v)
	}
	if v := get("date"); v.Text() != "2019-02-17" {
		t.Errorf("date = %v, want 2019-02-17", v.Text())
	}
	if v := get("type"); v.I != 5 {
		t.Errorf("type = %v, want 5", v)
	}
	key, err := tb.EncodeKey(row, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(key) != want {
		t.Errorf("EncodeKey = %q, want %q", key, want)
	}
}

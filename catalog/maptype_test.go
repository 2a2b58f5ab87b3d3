package catalog

import "testing"

func TestParseMapType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want MapType
		ok   bool
	}{
		{"MAP<STRING, STRING>", MapType{TypeString, TypeString}, true},
		{"map<bigint,double>", MapType{TypeBigint, TypeDouble}, true},
		{" Map < text , int > ", MapType{TypeString, TypeInt}, true},
		{"MAP<STRING>", MapType{}, false},
		{"MAP<STRING, MAP<STRING, STRING>>", MapType{}, false},
		{"MAP", MapType{}, false},
		{"MAPX<STRING, STRING>", MapType{}, false},
		{"STRING", MapType{}, false},
	} {
		got, ok := ParseMapType(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseMapType(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMapValue(t *testing.T) {
	m := NewMap([]MapEntry{
		{String("sports"), String("golf")},
		{String("music"), String("jazz")},
		{String("sports"), String("tennis")}, // the last wins
	})
	if m.Type != TypeMap || m.M.Len() != 2 {
		t.Fatalf("NewMap = %+v, want 2 entries", m)
	}
	if got := m.Text(); got != "{music: jazz, sports: tennis}" {
		t.Errorf("Text = %q", got)
	}
	if got := m.String(); got != "{'music': 'jazz', 'sports': 'tennis'}" {
		t.Errorf("String = %q", got)
	}
	if v, ok := m.M.Get(String("sports")); !ok || v.S != "tennis" {
		t.Errorf("Get(sports) = %v, %v", v, ok)
	}
	if _, ok := m.M.Get(String("golf")); ok {
		t.Error("Get(golf) found an entry that is not there")
	}
	empty := NewMap(nil)
	if empty.Text() != "{}" || Compare(empty, m) >= 0 || Compare(m, m) != 0 {
		t.Errorf("empty map: %q, compare %d", empty.Text(), Compare(empty, m))
	}
	other := NewMap([]MapEntry{{String("music"), String("rock")}})
	if Compare(m, other) >= 0 {
		t.Errorf("{music: jazz, …} should sort before {music: rock}")
	}
}

func TestMapKey(t *testing.T) {
	mt := MapType{Key: TypeBigint, Val: TypeString}
	if k, err := mt.MapKey(String("42")); err != nil || !Equal(k, Bigint(42)) {
		t.Errorf("MapKey('42') = %v, %v", k, err)
	}
	if k, err := mt.MapKey(Bigint(7)); err != nil || !Equal(k, Bigint(7)) {
		t.Errorf("MapKey(7) = %v, %v", k, err)
	}
	if _, err := mt.MapKey(String("x")); err == nil || err.Error() != "map key 'x' is not a BIGINT" {
		t.Errorf("MapKey('x') error = %v", err)
	}
}

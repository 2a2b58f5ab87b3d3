package embedded_test

import (
	"fmt"
	"strings"
	"testing"
)

// The trap of a key of fields with no boundary: with [hostname][log_event],
// a scan from host1 to host2 also meets host12… rows. Both usual cures, a
// delimiter and fixed-width padding, must return exactly the rows inside
// the string range.
const trapCatalog = `
tables:
  - name: by_delim
    families: [{name: l}]
    columns:
      - {name: hostname, type: STRING}
      - {name: log_event, type: STRING}
      - {name: message, type: STRING, column: "l:m"}
    rowkey:
      - {field: hostname}
      - {literal: "_"}
      - {field: log_event}
  - name: by_pad
    families: [{name: l}]
    columns:
      - {name: hostname, type: STRING}
      - {name: log_event, type: STRING}
      - {name: message, type: STRING, column: "l:m"}
    rowkey:
      - {field: hostname, width: 20, pad: "x"}
      - {field: log_event}
`

func TestHostPrefixTrap(t *testing.T) {
	hosts := []string{"host", "host1", "host12", "host13", "host2", "host21", "host3", "hos"}
	cases := []struct {
		where string
		want  []string
	}{
		{"hostname BETWEEN 'host1' AND 'host2'", []string{"host1", "host12", "host13", "host2"}},
		{"hostname = 'host1'", []string{"host1"}},
		{"hostname >= 'host12' AND hostname < 'host2'", []string{"host12", "host13"}},
		{"hostname > 'host1' AND hostname <= 'host21'", []string{"host12", "host13", "host2", "host21"}},
		{"hostname < 'host1'", []string{"hos", "host"}},
		{"hostname LIKE 'host1%'", []string{"host1", "host12", "host13"}},
		{"hostname IN ('host1', 'host2')", []string{"host1", "host2"}},
	}
	for _, table := range []string{"by_delim", "by_pad"} {
		s := newSession(t, trapCatalog, nil, 0)
		for _, h := range hosts {
			for _, ev := range []string{"a", "b"} {
				s.run(fmt.Sprintf("INSERT INTO %s (hostname, log_event, message) VALUES ('%s', '%s', 'm')", table, h, ev))
			}
		}
		for _, c := range cases {
			t.Run(table+"/"+c.where, func(t *testing.T) {
				got := s.run(fmt.Sprintf("SELECT hostname FROM %s WHERE %s AND log_event = 'a' ORDER BY hostname", table, c.where))
				if want := strings.Join(c.want, "\n"); got != want {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}

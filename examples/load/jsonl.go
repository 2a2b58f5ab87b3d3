package main

import (
	"bufio"
	"fmt"

	"os"
	"strconv"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
)

// jsonlChunk is how many rows are generated at a time, so that a large
// file needs no more memory than a small one.
const jsonlChunk = 50_000

// writeJSONL writes n generated rows of t to path as JSON lines, in the
// form `rkql --format jsonl` prints: timestamps as RFC 3339 strings in UTC
// with milliseconds, NULL as null.
func writeJSONL(path string, t *catalog.Table, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b []byte
	for rows := range examples.Stream(t, n, jsonlChunk) {
		for _, row := range rows {
			b = appendRowJSON(b[:0], t, row)
			if _, err := w.Write(b); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func appendRowJSON(b []byte, t *catalog.Table, row catalog.Row) []byte {
	b = append(b, '{')
	for i, c := range t.Columns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, c.Name)
		b = append(b, ':')
		b = appendValueJSON(b, row[i])
	}
	return append(b, '}', '\n')
}

// appendValueJSON covers the types of the example tables; strings there are
// ASCII, so Go quoting is JSON quoting.
func appendValueJSON(b []byte, v catalog.Value) []byte {
	if v.Null {
		return append(b, "null"...)
	}
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt:
		return strconv.AppendInt(b, v.I, 10)
	case catalog.TypeDouble:
		return strconv.AppendFloat(b, v.F, 'g', -1, 64)
	case catalog.TypeBoolean:
		return strconv.AppendBool(b, v.I != 0)
	case catalog.TypeTimestamp:
		return strconv.AppendQuote(b, v.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
	case catalog.TypeDate:
		return strconv.AppendQuote(b, v.Time().UTC().Format(time.DateOnly))
	}
	return strconv.AppendQuote(b, v.Text())
}

func tableOf(c *catalog.Catalog, name string) (*catalog.Table, error) {
	t, ok := c.Table(name)
	if !ok {
		return nil, fmt.Errorf("table %q does not exist", name)
	}
	return t, nil
}

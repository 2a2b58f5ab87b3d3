package infer

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/twmb/murmur3"
)

// hashText is the text a hash component hashes for a value, as the
// catalog's hash reads its inputs (String.valueOf of a number).
func hashText(v catalog.Value) []byte {
	switch v.Type {
	case catalog.TypeString:
		return []byte(v.S)
	case catalog.TypeBytes:
		return v.B
	case catalog.TypeDate:
		return []byte(v.Time().Format("20060102"))
	}
	return strconv.AppendInt(nil, v.I, 10)
}

// hexRun is how many lower-case hex characters start every key.
func hexRun(keys [][]byte) int {
	n := 32
	for _, k := range keys {
		i := 0
		for i < len(k) && i < n && strings.IndexByte("0123456789abcdef", k[i]) >= 0 {
			i++
		}
		n = min(n, i)
	}
	return n
}

// md5Prefix finds a width w and a field whose md5 hex gives every key's
// first w bytes, and returns the whole reading.
func md5Prefix(tname string, keys [][]byte) ([]piece, bool) {
	for w := hexRun(keys); w >= 1; w-- { // the widest that verifies
		rest := make([][]byte, len(keys))
		for i, k := range keys {
			rest[i] = k[w:]
		}
		ps, t, rows, ok := readRest(tname, rest)
		if !ok {
			continue
		}
		for _, in := range inputs(t) {
			match := true
			for i, r := range rows {
				sum := md5.Sum(concatText(r, in))
				if hex.EncodeToString(sum[:])[:w] != string(keys[i][:w]) {
					match = false
					break
				}
			}
			if match {
				names := inputNames(t, in)
				h := piece{comp: catalog.ComponentSpec{Hash: "md5", Of: names, Width: w}}
				h.part = Part{Sure: Verified, Evidence: fmt.Sprintf("the first %d hex characters of md5(%s) give the key's first %d bytes in all %d sampled keys",
					w, strings.Join(names, ", "), w, len(keys))}
				return append([]piece{h}, ps...), true
			}
		}
	}
	return nil, false
}

// rawMD5Prefix finds a width w and a field whose md5, as raw bytes, gives
// every key's first w bytes. The catalog's md5 hash writes hex, so the
// reading keeps them as a fixed-width BYTES field, with the evidence.
func rawMD5Prefix(tname string, keys [][]byte) ([]piece, bool) {
	for w := 16; w >= 1; w-- { // the widest that verifies
		rest := make([][]byte, len(keys))
		short := false
		for i, k := range keys {
			short = short || len(k) <= w
			rest[i] = k[min(w, len(k)):]
		}
		if short {
			continue
		}
		ps, t, rows, ok := readRest(tname, rest)
		if !ok {
			continue
		}
		for _, in := range inputs(t) {
			match := true
			for i, r := range rows {
				sum := md5.Sum(concatText(r, in))
				if string(sum[:w]) != string(keys[i][:w]) {
					match = false
					break
				}
			}
			if match {
				names := inputNames(t, in)
				h := piece{typ: "BYTES", role: "md5", comp: catalog.ComponentSpec{Field: "md5", Width: w}}
				h.part = Part{Sure: Verified, Evidence: fmt.Sprintf("the first %d bytes of md5(%s), raw rather than hex, give the key's first %d bytes in all %d sampled keys; the catalog writes md5 as hex only, so they are kept as a %d-byte BYTES field a query must give",
					w, strings.Join(names, ", "), w, len(keys), w)}
				return append([]piece{h}, ps...), true
			}
		}
	}
	return nil, false
}

// readRest reads keys with a fresh reading and decodes them.
func readRest(tname string, rest [][]byte) ([]piece, *catalog.Table, []catalog.Row, bool) {
	ps, ok := segment(rest)
	if !ok {
		return nil, nil, nil, false
	}
	ps = name(ps)
	spec := keySpec(tname, ps)
	t, err := load(&spec)
	if err != nil {
		return nil, nil, nil, false
	}
	rows, err := decodeAll(t, rest)
	if err != nil {
		return nil, nil, nil, false
	}
	return ps, t, rows, true
}

// inputs are the column sets a hash may read: each column, then each
// pair in key order.
func inputs(t *catalog.Table) [][]int {
	var out [][]int
	for i := range t.Columns {
		out = append(out, []int{i})
	}
	for i := range t.Columns {
		for j := i + 1; j < len(t.Columns); j++ {
			out = append(out, []int{i, j})
		}
	}
	return out
}

func inputNames(t *catalog.Table, in []int) []string {
	var out []string
	for _, i := range in {
		out = append(out, t.Columns[i].Name)
	}
	return out
}

// concatText is the text a hash of the columns in reads: their texts
// joined, as the catalog's hash joins its inputs.
func concatText(r catalog.Row, in []int) []byte {
	var b []byte
	for _, i := range in {
		b = append(b, hashText(r[i])...)
	}
	return b
}

// hypothesis is a derived reading of a leading number field.
type hypothesis struct {
	comp catalog.ComponentSpec
	says string
}

// derivedPrefix replaces a leading small number field with the hash,
// bucket or salt that gives its value in every key, when one does; the
// others that do are named as other readings.
func derivedPrefix(tname string, keys [][]byte, ps []piece) []piece {
	if len(ps) < 2 || !ps[0].isField() || (ps[0].typ != "INT" && ps[0].typ != "BIGINT") {
		return ps
	}
	spec := keySpec(tname, ps)
	t, err := load(&spec)
	if err != nil {
		return ps
	}
	rows, err := decodeAll(t, keys)
	if err != nil {
		return ps
	}
	binaryNum := ps[0].comp.Encoding == "java"
	width := ps[0].comp.Width
	if !binaryNum && width == 0 {
		width = len(fmt.Sprint(rows[0][0].I))
		for _, r := range rows {
			if len(fmt.Sprint(r[0].I)) != width {
				return ps
			}
		}
	}
	limit := int64(1)
	for range width {
		if binaryNum {
			limit *= 256
		} else {
			limit *= 10
		}
	}
	limit = min(limit, 100000)
	got := make([]int64, len(rows))
	lo := int64(0)
	for i, r := range rows {
		got[i] = r[0].I
		if got[i] < 0 {
			return ps
		}
		lo = max(lo, got[i]+1)
	}
	var found []hypothesis
	for ci := 1; ci < len(t.Columns); ci++ {
		col := t.Columns[ci]
		found = append(found, tryInput(rows, keys, got, ci, col, lo, limit, binaryNum, width)...)
	}
	if binaryNum && width == 1 {
		if n, ok := findMod(lo, limit, got, func(i int, n int64) int64 { return int64(catalog.SaltByte(keys[i][1:], n)) }); ok {
			found = append(found, hypothesis{comp: catalog.ComponentSpec{Salt: n}, says: fmt.Sprintf("a Phoenix salt byte: Arrays.hashCode of the rest of the key, abs(%% %d)", n)})
		}
	}
	if len(found) == 0 {
		return ps
	}
	h := piece{comp: found[0].comp}
	h.part = Part{Sure: Verified, Evidence: fmt.Sprintf("%s gives these bytes in all %d sampled keys", found[0].says, len(keys))}
	if len(found) > 1 {
		h.part.Sure = Likely
		h.part.Other = found[1].says
		h.part.Tell = "both give every sampled key's bytes; a key where they differ would tell"
	}
	return append([]piece{h}, ps[1:]...)
}

// tryInput tests the hashes and the bucket of one input column.
func tryInput(rows []catalog.Row, keys [][]byte, got []int64, ci int, col catalog.Column, lo, limit int64, binaryNum bool, width int) []hypothesis {
	var out []hypothesis
	num := func(c catalog.ComponentSpec, n int64) catalog.ComponentSpec {
		c.Mod, c.Binary = n, binaryNum
		if (binaryNum && width != 1) || (!binaryNum && width != len(strconv.FormatInt(n-1, 10))) {
			c.Width = width
		}
		return c
	}
	javaH, murmurH, arraysH := make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows))
	for i, r := range rows {
		text := hashText(r[ci])
		javaH[i] = int64(catalog.JavaHashCode(string(text)))
		murmurH[i] = int64(int32(murmur3.SeedSum32(0, text)))
		arraysH[i] = int64(catalog.ArraysHashCode((&catalog.Column{Type: col.Type}).EncodeCell(r[ci])))
	}
	absMod := func(h, n int64) int64 {
		r := h % n
		if r < 0 {
			r = -r
		}
		return r
	}
	tries := []struct {
		hash, says string
		f          func(i int, n int64) int64
	}{
		{"java", "abs(String.hashCode(%s) %% %d)", func(i int, n int64) int64 { return absMod(javaH[i], n) }},
		{"murmur3", "abs(murmur3_32(%s) %% %d)", func(i int, n int64) int64 { return absMod(murmurH[i], n) }},
		{"arrays", "abs(Arrays.hashCode(Bytes.toBytes(%s)) %% %d)", func(i int, n int64) int64 { return absMod(arraysH[i], n) }},
	}
	for _, tr := range tries {
		if n, ok := findMod(lo, limit, got, tr.f); ok {
			out = append(out, hypothesis{comp: num(catalog.ComponentSpec{Hash: tr.hash, Of: []string{col.Name}}, n), says: fmt.Sprintf(tr.says, col.Name, n)})
		}
	}
	bucket := func(i int, n int64) int64 {
		v := rows[i][ci].I
		if col.Type == catalog.TypeString {
			v = int64(catalog.JavaHashCode(rows[i][ci].S))
		} else if col.Type == catalog.TypeBytes || col.Type == catalog.TypeDouble {
			return -1
		}
		return ((v % n) + n) % n
	}
	if n, ok := findMod(lo, limit, got, bucket); ok {
		out = append(out, hypothesis{comp: num(catalog.ComponentSpec{Bucket: col.Name}, n), says: fmt.Sprintf("%s %% %d", col.Name, n)})
	}
	return out
}

// findMod finds the least n in [lo, limit] with f(i, n) == got[i] for
// every row; lo is above every value, so n is at least 2.
func findMod(lo, limit int64, got []int64, f func(i int, n int64) int64) (int64, bool) {
	lo = max(lo, 2)
	for n := lo; n <= limit; n++ {
		ok := true
		for i := range got {
			if f(i, n) != got[i] {
				ok = false
				break
			}
		}
		if ok {
			return n, true
		}
	}
	return 0, false
}

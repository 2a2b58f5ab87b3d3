package embedded

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// leafScanDB builds a bbolt file with a bucket of n keys of varied length,
// some values long enough to need overflow pages, some keys deleted after
// they were written, and a small bucket that stays inline.
func leafScanDB(t *testing.T, n int) (*bolt.DB, [][]byte) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "f.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rng := rand.New(rand.NewPCG(1, 2))
	var keys [][]byte
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("t"))
		if err != nil {
			return err
		}
		for i := range n {
			k := fmt.Appendf(nil, "%c%08d", 'a'+rng.IntN(26), i)
			k = append(k, bytes.Repeat([]byte{byte(i)}, rng.IntN(40))...)
			v := bytes.Repeat([]byte{byte(i)}, 1+rng.IntN(60))
			if i%997 == 0 {
				v = bytes.Repeat([]byte{1}, 9000) // overflow pages
			}
			if err := b.Put(k, v); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		if _, err := b.CreateBucket([]byte("m-nested")); err != nil {
			return err
		}
		small, err := tx.CreateBucket([]byte("small"))
		if err != nil {
			return err
		}
		return small.Put([]byte("k"), []byte("v"))
	})
	if err != nil {
		t.Fatal(err)
	}
	// Delete a run of keys so that pages are merged and rewritten.
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("t"))
		for i := 0; i < len(keys); i += 3 {
			if err := b.Delete(keys[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, keys
}

type kv struct{ k, v string }

type funcVisitor func(k, v []byte) error

func (f funcVisitor) entries(p []byte, i, j int) error {
	for ; i < j; i++ {
		k, v, ok := leafEntry(p, i)
		if !ok {
			return errPageDamaged
		}
		if err := f(k, v); err != nil {
			return err
		}
	}
	return nil
}

func cursorRange(b *bolt.Bucket, start, stop []byte) []kv {
	var out []kv
	c := b.Cursor()
	k, v := c.Seek(start)
	if start == nil {
		k, v = c.First()
	}
	for ; k != nil && (stop == nil || bytes.Compare(k, stop) < 0); k, v = c.Next() {
		out = append(out, kv{string(k), string(v)})
	}
	return out
}

func scanRange(tx *bolt.Tx, data []byte, root uint64, start, stop []byte) ([]kv, error) {
	var out []kv
	ls := &leafScan{data: data, pageSize: tx.DB().Info().PageSize, pgid: uint64(tx.Size()) / uint64(tx.DB().Info().PageSize),
		stop: stop, to: funcVisitor(func(k, v []byte) error {
			out = append(out, kv{string(k), string(v)})
			return nil
		})}
	err := ls.scan(root, start)
	return out, err
}

// TestLeafScanMatchesCursor: over random ranges, a leafScan of the mapped
// file visits exactly the keys and values bbolt's cursor gives, in order.
func TestLeafScanMatchesCursor(t *testing.T) {
	db, keys := leafScanDB(t, 20000)
	data, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() []byte {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return []byte{byte('a' + rng.IntN(27))}
		}
		return keys[rng.IntN(len(keys))]
	}
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("t"))
		root := uint64(b.Root())
		if root == 0 {
			t.Fatal("the test bucket is inline; it should span pages")
		}
		for i := range 300 {
			start, stop := pick(), pick()
			if i == 0 {
				start, stop = nil, nil
			}
			want := cursorRange(b, start, stop)
			got, err := scanRange(tx, data, root, start, stop)
			if err != nil {
				t.Fatalf("%q..%q: %v", start, stop, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%q..%q: %d entries, the cursor gives %d", start, stop, len(got), len(want))
			}
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("%q..%q: entry %d is %q, the cursor gives %q", start, stop, j, got[j].k, want[j].k)
				}
			}
			if i == 0 && len(got) < len(keys)/2 {
				t.Fatalf("a full scan visits %d entries of %d keys", len(got), len(keys))
			}
		}
		if tx.Bucket([]byte("small")).Root() != 0 {
			t.Error("the small bucket is not inline; the cursor fallback is not covered")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLeafScanDamage: a scan over a file with bytes changed at random
// returns the entries or ErrPageDamaged, and never faults.
func TestLeafScanDamage(t *testing.T) {
	db, _ := leafScanDB(t, 5000)
	clean, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	damaged := 0
	err = db.View(func(tx *bolt.Tx) error {
		root := uint64(tx.Bucket([]byte("t")).Root())
		ps := tx.DB().Info().PageSize
		for range 400 {
			data := bytes.Clone(clean)
			// Damage page headers and element tables, where offsets live.
			for range 1 + rng.IntN(4) {
				page := 2 + rng.IntN(len(data)/ps-2)
				at := page*ps + rng.IntN(pageHeaderSize+8*elementSize)
				data[at] = byte(rng.IntN(256))
			}
			_, err := scanRange(tx, data, root, nil, nil)
			if err != nil {
				if !errors.Is(err, errPageDamaged) {
					t.Fatalf("damage gives %v, want errPageDamaged", err)
				}
				damaged++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if damaged == 0 {
		t.Error("no damaged file was refused; the test changes nothing that matters")
	}
}

package embedded

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// AlterFamily replaces the settings of one family of a table, as HBase's
// alter does: its versions and TTL apply to every read from then on. It
// returns an error matching exec.ErrTableNotFound if there is no such
// table.
func (s *Store) AlterFamily(ctx context.Context, name string, f exec.FamilySpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.noTxn("alter table", name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.mu.tables[name]
	if t == nil {
		return notFound(name)
	}
	m := tableMeta{Spec: cloneSpec(t.spec), Created: t.created}
	found := false
	for i := range m.Spec.Families {
		if m.Spec.Families[i].Name == f.Name {
			m.Spec.Families[i], found = f, true
		}
	}
	if !found {
		return fmt.Errorf("embedded: alter table %s: no family %s", name, f.Name)
	}
	if err := validateSpec(m.Spec); err != nil {
		return err
	}
	enc, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("embedded: alter table %s: %w", name, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(metaBucket)).Put([]byte(name), enc)
	})
	if err != nil {
		return wrapDB(err)
	}
	s.mu.tables[name] = newTable(m, enc)
	writeTablesFile(s.dir, s.mu.tables)
	return nil
}

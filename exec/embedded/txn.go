package embedded

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

var _ exec.Transactor = (*Store)(nil)

// errInTxn refuses a change to the tables while a statement's transaction
// is open: bbolt has one writer, and it is that transaction.
var errInTxn = errors.New("embedded: tables cannot be created, dropped or altered inside a statement's transaction")

// Atomically runs fn inside one bbolt write transaction: every Mutate of
// the Store while fn runs writes into it, and every Get reads through it,
// so that a statement sees its own writes. It commits when fn returns nil
// and rolls back when fn returns an error, ctx's included, so a statement
// cancelled or timed out, or a process killed, leaves nothing of it.
// Scans read the store as last committed, as before the statement. A call
// inside fn joins the open transaction. The transaction holds the pages
// it changes in memory until it commits, about 400 bytes a row written,
// so it holds at most Options.MaxTxnRows row writes.
func (s *Store) Atomically(ctx context.Context, fn func() error) error {
	if s.readOnly {
		return fn()
	}
	s.txn.Lock()
	if s.txn.tx != nil {
		s.txn.Unlock()
		return fn()
	}
	tx, err := s.db.Begin(true)
	if err != nil {
		s.txn.Unlock()
		return wrapDB(err)
	}
	s.txn.tx, s.txn.rows = tx, 0
	s.txn.Unlock()
	err = fn()
	if err == nil {
		err = ctx.Err()
	}
	s.txn.Lock()
	s.txn.tx = nil
	s.txn.Unlock()
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("embedded: commit: %w", wrapDB(err))
	}
	return nil
}

// inTxn runs fn on the statement's transaction, when one is open, and
// reports whether it did.
func (s *Store) inTxn(fn func(tx *bolt.Tx) error) (bool, error) {
	s.txn.Lock()
	defer s.txn.Unlock()
	if s.txn.tx == nil {
		return false, nil
	}
	return true, fn(s.txn.tx)
}

// view runs fn in the statement's transaction when one is open, else in a
// read transaction of its own.
func (s *Store) view(fn func(tx *bolt.Tx) error) error {
	if ok, err := s.inTxn(fn); ok {
		return err
	}
	return s.db.View(fn)
}

// update runs fn in the statement's transaction when one is open, else in
// a write transaction of its own.
func (s *Store) update(fn func(tx *bolt.Tx) error) error {
	if ok, err := s.inTxn(fn); ok {
		return err
	}
	return s.db.Update(fn)
}

// txnRows counts n more row writes into the statement's transaction,
// when one is open, and refuses them past Options.MaxTxnRows.
func (s *Store) txnRows(n int) error {
	s.txn.Lock()
	defer s.txn.Unlock()
	if s.txn.tx == nil {
		return nil
	}
	s.txn.rows += n
	if s.txn.rows > s.maxTxnRows {
		return fmt.Errorf("embedded: the statement makes more than %d row writes (rows and index entries), the most one transaction holds in memory: split it, for example by key range", s.maxTxnRows)
	}
	return nil
}

// noTxn refuses a change of tables while a statement's transaction is
// open, which would otherwise wait for it forever.
func (s *Store) noTxn(what, name string) error {
	s.txn.Lock()
	defer s.txn.Unlock()
	if s.txn.tx != nil {
		return fmt.Errorf("embedded: %s %s: %w", what, name, errInTxn)
	}
	return nil
}

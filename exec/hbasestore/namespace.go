package hbasestore

import (
	"context"

	"github.com/rkql/rkql/exec"
)

var _ exec.Namespacer = (*Store)(nil)

// CreateNamespace implements exec.Namespacer.
func (s *Store) CreateNamespace(ctx context.Context, name string) error {
	return mapErr(s.c.Admin().CreateNamespace(ctx, name))
}

// DropNamespace implements exec.Namespacer.
func (s *Store) DropNamespace(ctx context.Context, name string) error {
	return mapErr(s.c.Admin().DeleteNamespace(ctx, name))
}

// Namespaces implements exec.Namespacer.
func (s *Store) Namespaces(ctx context.Context) ([]exec.Namespace, error) {
	all, err := s.c.Admin().Namespaces(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]exec.Namespace, len(all))
	for i, n := range all {
		out[i] = exec.Namespace{Name: n.Name, Tables: n.Tables}
	}
	return out, nil
}

// NamespaceTables implements exec.Namespacer.
func (s *Store) NamespaceTables(ctx context.Context, name string) ([]string, error) {
	tables, err := s.c.Admin().NamespaceTables(ctx, name)
	return tables, mapErr(err)
}

package exec

import (
	"context"
	"errors"
)

// Namespacer is an optional Store contract: the store's namespaces, which
// hold its tables ("ns:table"; a table named without one is in
// "default").
type Namespacer interface {
	// CreateNamespace creates the namespace name; one that exists is an
	// error matching ErrNamespaceExists.
	CreateNamespace(ctx context.Context, name string) error
	// DropNamespace drops the namespace name, which must hold no table;
	// one that does not exist is an error matching ErrNamespaceNotFound.
	DropNamespace(ctx context.Context, name string) error
	// Namespaces lists the namespaces by name, each with its tables.
	Namespaces(ctx context.Context) ([]Namespace, error)
	// NamespaceTables lists the tables of the namespace name, sorted; one
	// that does not exist is an error matching ErrNamespaceNotFound.
	NamespaceTables(ctx context.Context, name string) ([]string, error)
}

// Namespace is a namespace and its tables' physical names, sorted.
type Namespace struct {
	Name   string
	Tables []string
}

// Errors a Namespacer's calls match.
var (
	ErrNamespaceNotFound = errors.New("exec: namespace not found")
	ErrNamespaceExists   = errors.New("exec: namespace already exists")
)

package planner

import (
	"strings"

	"github.com/rkql/rkql/parser"
)

// The namespace plans: the store creates, drops and lists namespaces.

// CreateNamespace is CREATE NAMESPACE n.
type CreateNamespace struct{ Name string }

// DropNamespace is DROP NAMESPACE n.
type DropNamespace struct {
	Name string
	// Catalog names the catalog's tables placed in the namespace, sorted;
	// the store decides whether it holds tables.
	Catalog []string
}

// ShowNamespaces is SHOW NAMESPACES.
type ShowNamespaces struct{}

func (*CreateNamespace) plan() {}
func (*DropNamespace) plan()   {}
func (*ShowNamespaces) plan()  {}

// namespacePlan plans the namespace statements; ok is false for any
// other.
func (pl *Planner) namespacePlan(stmt parser.Stmt) (p Plan, ok bool, err error) {
	switch s := stmt.(type) {
	case *parser.CreateNamespaceStmt:
		if err := checkNamespace(s.Name); err != nil {
			return nil, true, err
		}
		return &CreateNamespace{Name: s.Name.Name}, true, nil
	case *parser.DropNamespaceStmt:
		if err := checkNamespace(s.Name); err != nil {
			return nil, true, err
		}
		if s.Name.Name == "default" || s.Name.Name == "hbase" {
			return nil, true, errAt(s.Name.NamePos, "namespace %s is HBase's own and cannot be dropped", s.Name.Name)
		}
		d := &DropNamespace{Name: s.Name.Name}
		for _, name := range pl.cat.Names() {
			t, _ := pl.cat.Table(name)
			if ns, _, ok := strings.Cut(t.Physical, ":"); ok && ns == s.Name.Name {
				d.Catalog = append(d.Catalog, name)
			}
		}
		return d, true, nil
	case *parser.ShowNamespacesStmt:
		return &ShowNamespaces{}, true, nil
	}
	return nil, false, nil
}

// checkNamespace checks a namespace's name as HBase does: letters, digits
// and underscores.
func checkNamespace(id parser.Ident) error {
	if id.Name == "" {
		return errAt(id.NamePos, "a namespace name cannot be empty")
	}
	for i := 0; i < len(id.Name); i++ {
		c := id.Name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return errAt(id.NamePos, "namespace name %q may hold only letters, digits and _", id.Name)
		}
	}
	return nil
}

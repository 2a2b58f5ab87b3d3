package parser

// The namespace statements create, drop and list the store's namespaces;
// the store runs them.

// CreateNamespaceStmt is CREATE NAMESPACE n.
type CreateNamespaceStmt struct {
	Create Pos
	Name   Ident
}

// DropNamespaceStmt is DROP NAMESPACE n.
type DropNamespaceStmt struct {
	Drop Pos
	Name Ident
}

// ShowNamespacesStmt is SHOW NAMESPACES.
type ShowNamespacesStmt struct{ Show Pos }

var (
	_ Stmt = (*CreateNamespaceStmt)(nil)
	_ Stmt = (*DropNamespaceStmt)(nil)
	_ Stmt = (*ShowNamespacesStmt)(nil)
)

func (s *CreateNamespaceStmt) Pos() Pos { return s.Create }
func (s *DropNamespaceStmt) Pos() Pos   { return s.Drop }
func (s *ShowNamespacesStmt) Pos() Pos  { return s.Show }

func (*CreateNamespaceStmt) node() {}
func (*DropNamespaceStmt) node()   {}
func (*ShowNamespacesStmt) node()  {}

func (*CreateNamespaceStmt) stmt() {}
func (*DropNamespaceStmt) stmt()   {}
func (*ShowNamespacesStmt) stmt()  {}

func (s *CreateNamespaceStmt) String() string { return "CREATE NAMESPACE " + s.Name.String() }
func (s *DropNamespaceStmt) String() string   { return "DROP NAMESPACE " + s.Name.String() }
func (*ShowNamespacesStmt) String() string    { return "SHOW NAMESPACES" }

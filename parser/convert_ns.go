package parser

// namespaceStmt converts the namespace statements; ok is false for any
// other statement.
func (c *converter) namespaceStmt(g *gStmt) (Stmt, bool) {
	switch {
	case g.Create != nil && g.Create.Namespace != nil:
		return &CreateNamespaceStmt{Create: pos(g.Create.Pos), Name: ident(g.Create.Namespace)}, true
	case g.Drop != nil && g.Drop.Namespace != nil:
		return &DropNamespaceStmt{Drop: pos(g.Drop.Pos), Name: ident(g.Drop.Namespace)}, true
	case g.Show != nil && g.Show.Spaces:
		return &ShowNamespacesStmt{Show: pos(g.Show.Pos)}, true
	}
	return nil, false
}

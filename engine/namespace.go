package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// The namespace statements run on a store that is an exec.Namespacer
// (HBase). The embedded store keeps each table in a file of its own and
// has no namespaces: it refuses them.

// namespaceStatement names a namespace plan that changes the store, or
// returns "".
func namespaceStatement(p planner.Plan) string {
	switch p.(type) {
	case *planner.CreateNamespace:
		return "CREATE NAMESPACE"
	case *planner.DropNamespace:
		return "DROP NAMESPACE"
	}
	return ""
}

func (e *Engine) namespace(ctx context.Context, p planner.Plan) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	what := namespaceStatement(p)
	if what == "" {
		what = "SHOW NAMESPACES"
	}
	ns, ok := x.Store.(exec.Namespacer)
	if !ok {
		return nil, fmt.Errorf("%s needs an HBase cluster: this store has no namespaces", what)
	}
	switch p := p.(type) {
	case *planner.CreateNamespace:
		err := ns.CreateNamespace(ctx, p.Name)
		if errors.Is(err, exec.ErrNamespaceExists) {
			return nil, fmt.Errorf("CREATE NAMESPACE %s: namespace %s already exists", p.Name, p.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("CREATE NAMESPACE %s: %w", p.Name, err)
		}
		return &Result{Tag: what}, nil
	case *planner.DropNamespace:
		return e.dropNamespace(ctx, ns, p)
	case *planner.ShowNamespaces:
		return e.showNamespaces(ctx, ns)
	}
	return nil, fmt.Errorf("%T is not a namespace plan", p)
}

func (e *Engine) dropNamespace(ctx context.Context, ns exec.Namespacer, p *planner.DropNamespace) (*Result, error) {
	missing := fmt.Errorf("DROP NAMESPACE %s: namespace %s does not exist", p.Name, p.Name)
	tables, err := ns.NamespaceTables(ctx, p.Name)
	if errors.Is(err, exec.ErrNamespaceNotFound) {
		return nil, missing
	}
	if err != nil {
		return nil, fmt.Errorf("DROP NAMESPACE %s: %w", p.Name, err)
	}
	if len(tables) > 0 {
		return nil, fmt.Errorf("DROP NAMESPACE %s: refused: it holds %d %s (%s); drop %s first",
			p.Name, len(tables), plural(int64(len(tables)), "table", "tables"), strings.Join(tables, ", "), plural(int64(len(tables)), "it", "them"))
	}
	err = ns.DropNamespace(ctx, p.Name)
	if errors.Is(err, exec.ErrNamespaceNotFound) {
		return nil, missing
	}
	if err != nil {
		return nil, fmt.Errorf("DROP NAMESPACE %s: %w", p.Name, err)
	}
	note := ""
	if len(p.Catalog) > 0 {
		note = fmt.Sprintf("the catalog still places %s in namespace %s: a write to %s fails until CREATE NAMESPACE %s",
			strings.Join(p.Catalog, ", "), p.Name, plural(int64(len(p.Catalog)), "it", "them"), p.Name)
	}
	return tagWithNote("DROP NAMESPACE", note), nil
}

// showNamespaces is SHOW NAMESPACES: a row per namespace with the number
// of its tables.
func (e *Engine) showNamespaces(ctx context.Context, ns exec.Namespacer) (*Result, error) {
	all, err := ns.Namespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("SHOW NAMESPACES: %w", err)
	}
	cols := []Column{{Name: "namespace", Type: catalog.TypeString}, {Name: "tables", Type: catalog.TypeBigint}}
	rows := make([]catalog.Row, len(all))
	for i, n := range all {
		rows[i] = catalog.Row{catalog.String(n.Name), catalog.Bigint(int64(len(n.Tables)))}
	}
	return rowsResult(cols, rows), nil
}

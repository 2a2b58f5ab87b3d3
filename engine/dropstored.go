package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// dropStored runs DROP TABLE name for a name the catalog does not hold:
// an HBase table of that name that no table or index of the catalog
// describes (one a DROP in a read-only session kept, say) is dropped
// after a confirmation. The planner has refused the HBase table of a
// catalog table or index: its own DROP TABLE or DROP INDEX drops it with
// its catalog entry.
func (e *Engine) dropStored(ctx context.Context, p *planner.DropTable) (*Result, error) {
	name := p.Name
	notFound := parser.Errorf(p.Pos, "table %q does not exist (tables: %s)", name, strings.Join(e.cfg.Catalog.Names(), ", "))
	x, err := e.executor(ctx)
	var stored []string
	if err == nil {
		stored, err = x.Store.Tables(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("table %q is not in the catalog, and looking for an HBase table of that name failed: %w", name, err)
	}
	if !slices.Contains(stored, name) {
		return nil, notFound
	}
	if err := e.Writable("DROP TABLE"); err != nil {
		return nil, err
	}
	d, ok := x.Store.(dropper)
	if !ok {
		return nil, fmt.Errorf("HBase table %s is in no table of the catalog, and this store cannot drop tables", name)
	}
	yes, err := e.ask(ctx, fmt.Sprintf("drop HBase table %s, which no table of the catalog describes, with every row", name))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, fmt.Errorf("%s not confirmed: nothing was dropped (in a script, --yes confirms)", p.Stmt)
	}
	if err := d.DropTable(ctx, name); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
		return nil, fmt.Errorf("dropping HBase table %s: %w", name, err)
	}
	delete(e.ensured, name)
	return tagWithNote("DROP TABLE", "dropped HBase table "+name+", which no table of the catalog described"), nil
}

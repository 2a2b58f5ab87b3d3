package hbase_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestNamespaces creates a namespace, a table in it, checks that the
// namespace cannot be deleted while it holds the table, then deletes both.
func TestNamespaces(t *testing.T) {
	c := newClient(t, hbase.Config{})
	ctx := ctxT(t)
	a := c.Admin()
	ns := hbasetest.TableName("it_ns")
	if err := a.CreateNamespace(ctx, ns); err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	dropped := false
	t.Cleanup(func() {
		if !dropped {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = a.DeleteNamespace(ctx, ns)
		}
	})
	if err := a.CreateNamespace(ctx, ns); !errors.Is(err, hbase.ErrNamespaceExists) {
		t.Errorf("create namespace twice: %v, want ErrNamespaceExists", err)
	}
	find := func() *hbase.Namespace {
		t.Helper()
		all, err := a.Namespaces(ctx)
		if err != nil {
			t.Fatalf("list namespaces: %v", err)
		}
		i := slices.IndexFunc(all, func(n hbase.Namespace) bool { return n.Name == ns })
		if i < 0 {
			return nil
		}
		return &all[i]
	}
	if n := find(); n == nil || len(n.Tables) != 0 {
		t.Fatalf("the new namespace listed as %+v", n)
	}
	if ok, err := a.NamespaceExists(ctx, ns); !ok || err != nil {
		t.Errorf("NamespaceExists = %v, %v", ok, err)
	}
	table := ns + ":t"
	if err := a.CreateTable(ctx, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "cf"}}}); err != nil {
		t.Fatalf("create %s: %v", table, err)
	}
	if n := find(); n == nil || !slices.Equal(n.Tables, []string{table}) {
		t.Errorf("the namespace with a table listed as %+v", n)
	}
	if err := a.DeleteNamespace(ctx, ns); err == nil {
		t.Errorf("a namespace holding %s was deleted", table)
	}
	if err := a.DisableTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteNamespace(ctx, ns); err != nil {
		t.Fatalf("delete the empty namespace: %v", err)
	}
	dropped = true
	if n := find(); n != nil {
		t.Errorf("the deleted namespace is still listed: %+v", n)
	}
	if ok, err := a.NamespaceExists(ctx, ns); ok || err != nil {
		t.Errorf("NamespaceExists after the delete = %v, %v", ok, err)
	}
	if err := a.DeleteNamespace(ctx, ns); !errors.Is(err, hbase.ErrNamespaceNotFound) {
		t.Errorf("delete a namespace that does not exist: %v, want ErrNamespaceNotFound", err)
	}
	err := a.CreateTable(ctx, hbase.TableSpec{Name: ns + ":t2", Families: []hbase.FamilySpec{{Name: "cf"}}})
	if !errors.Is(err, hbase.ErrNamespaceNotFound) {
		t.Errorf("create a table in a namespace that does not exist: %v, want ErrNamespaceNotFound", err)
	}
}

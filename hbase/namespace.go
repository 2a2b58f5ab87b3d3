package hbase

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Namespace is a namespace and the tables it holds.
type Namespace struct {
	Name string
	// Tables are the names of its tables, "ns:qualifier" (the qualifier
	// alone in the default namespace), sorted.
	Tables []string
}

// CreateNamespace creates the namespace name and waits until the master's
// procedure is done. A namespace that exists already is an error that
// unwraps to ErrNamespaceExists.
func (a *Admin) CreateNamespace(ctx context.Context, name string) error {
	what := "create namespace " + name
	g, n := a.nonces()
	req := &pb.CreateNamespaceRequest{NamespaceDescriptor: &pb.NamespaceDescriptor{Name: []byte(name)}, NonceGroup: g, Nonce: n}
	var resp pb.CreateNamespaceResponse
	if err := a.callMaster(ctx, what, "CreateNamespace", req, &resp); err != nil {
		return err
	}
	return a.waitNamespaceProcedure(ctx, what, resp.ProcId)
}

// DeleteNamespace deletes the namespace name, which must hold no table,
// and waits until the master's procedure is done. A namespace that does
// not exist is an error that unwraps to ErrNamespaceNotFound.
func (a *Admin) DeleteNamespace(ctx context.Context, name string) error {
	what := "delete namespace " + name
	g, n := a.nonces()
	req := &pb.DeleteNamespaceRequest{NamespaceName: proto.String(name), NonceGroup: g, Nonce: n}
	var resp pb.DeleteNamespaceResponse
	if err := a.callMaster(ctx, what, "DeleteNamespace", req, &resp); err != nil {
		return err
	}
	return a.waitNamespaceProcedure(ctx, what, resp.ProcId)
}

// waitNamespaceProcedure waits for the procedure a namespace call
// started; a master that gives no id has done the work already.
func (a *Admin) waitNamespaceProcedure(ctx context.Context, what string, id *uint64) error {
	if id == nil {
		return nil
	}
	return a.waitProcedure(ctx, what, *id)
}

// NamespaceExists reports whether the namespace name exists.
func (a *Admin) NamespaceExists(ctx context.Context, name string) (bool, error) {
	var resp pb.GetNamespaceDescriptorResponse
	req := &pb.GetNamespaceDescriptorRequest{NamespaceName: proto.String(name)}
	err := a.callMaster(ctx, "describe namespace "+name, "GetNamespaceDescriptor", req, &resp)
	if isNamespaceNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Namespaces lists the namespaces, sorted by name, each with its tables
// (HBase's own namespace, hbase, included).
func (a *Admin) Namespaces(ctx context.Context) ([]Namespace, error) {
	var resp pb.ListNamespaceDescriptorsResponse
	if err := a.callMaster(ctx, "list namespaces", "ListNamespaceDescriptors", &pb.ListNamespaceDescriptorsRequest{}, &resp); err != nil {
		return nil, err
	}
	var out []Namespace
	for _, d := range resp.GetNamespaceDescriptor() {
		name := string(d.GetName())
		tables, err := a.NamespaceTables(ctx, name)
		if isNamespaceNotFound(err) {
			continue // dropped since it was listed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Namespace{Name: name, Tables: tables})
	}
	slices.SortFunc(out, func(x, y Namespace) int { return strings.Compare(x.Name, y.Name) })
	return out, nil
}

// NamespaceTables lists the tables of the namespace name, sorted.
func (a *Admin) NamespaceTables(ctx context.Context, name string) ([]string, error) {
	var resp pb.ListTableNamesByNamespaceResponse
	req := &pb.ListTableNamesByNamespaceRequest{NamespaceName: proto.String(name)}
	if err := a.callMaster(ctx, "list the tables of namespace "+name, "ListTableNamesByNamespace", req, &resp); err != nil {
		return nil, err
	}
	var out []string
	for _, tn := range resp.GetTableName() {
		out = append(out, tableString(tn))
	}
	sort.Strings(out)
	return out, nil
}

func isNamespaceNotFound(err error) bool { return errors.Is(err, ErrNamespaceNotFound) }

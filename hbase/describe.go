package hbase

import (
	"context"
	"fmt"
	"sort"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Attribute is one setting of a descriptor, as the master sends it: the
// name HBase gives it (VERSIONS, TTL, COMPRESSION, …) and its value as
// text.
type Attribute struct {
	Key, Value string
}

// TableDescriptor is a table's descriptor as the master keeps it, with
// nothing interpreted: the table's own attributes and each family's, in
// the order the master sends them. The master sends only the attributes
// that were set; the others have HBase's defaults (FamilyDefaults).
type TableDescriptor struct {
	// Name is "namespace:qualifier", or the qualifier alone in the
	// default namespace.
	Name       string
	Attributes []Attribute
	Families   []FamilyDescriptor
}

// FamilyDescriptor is one column family of a TableDescriptor.
type FamilyDescriptor struct {
	Name       string
	Attributes []Attribute
	// Configuration holds the family's configuration overrides
	// (hbase-site keys set on the family).
	Configuration []Attribute
}

// FamilyDefaults returns the values HBase 2 gives a family's settings
// that its descriptor leaves unset, in the order the HBase shell's
// describe prints them.
func FamilyDefaults() []Attribute {
	return []Attribute{
		{"BLOOMFILTER", "ROW"},
		{"IN_MEMORY", "false"},
		{"VERSIONS", "1"},
		{"KEEP_DELETED_CELLS", "FALSE"},
		{"DATA_BLOCK_ENCODING", "NONE"},
		{"COMPRESSION", "NONE"},
		{"TTL", "FOREVER"},
		{"MIN_VERSIONS", "0"},
		{"BLOCKCACHE", "true"},
		{"BLOCKSIZE", "65536"},
		{"REPLICATION_SCOPE", "0"},
	}
}

// TableDescriptor returns table's descriptor from the master.
func (a *Admin) TableDescriptor(ctx context.Context, table string) (*TableDescriptor, error) {
	var resp pb.GetTableDescriptorsResponse
	req := &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tableName(table)}}
	if err := a.callMaster(ctx, "describe table "+table, "GetTableDescriptors", req, &resp); err != nil {
		return nil, err
	}
	if len(resp.GetTableSchema()) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrTableNotFound, table)
	}
	ts := resp.GetTableSchema()[0]
	d := &TableDescriptor{Name: tableString(ts.GetTableName()), Attributes: bytesPairs(ts.GetAttributes())}
	for _, cf := range ts.GetColumnFamilies() {
		f := FamilyDescriptor{Name: string(cf.GetName()), Attributes: bytesPairs(cf.GetAttributes())}
		for _, c := range cf.GetConfiguration() {
			f.Configuration = append(f.Configuration, Attribute{c.GetName(), c.GetValue()})
		}
		d.Families = append(d.Families, f)
	}
	return d, nil
}

func bytesPairs(ps []*pb.BytesBytesPair) []Attribute {
	var out []Attribute
	for _, p := range ps {
		out = append(out, Attribute{string(p.GetFirst()), string(p.GetSecond())})
	}
	return out
}

// ListAllTables returns the names of the tables of every namespace,
// sorted; with system, HBase's own tables (hbase:meta, …) too.
func (a *Admin) ListAllTables(ctx context.Context, system bool) ([]string, error) {
	var resp pb.GetTableNamesResponse
	req := &pb.GetTableNamesRequest{IncludeSysTables: proto.Bool(system)}
	if err := a.callMaster(ctx, "list tables", "GetTableNames", req, &resp); err != nil {
		return nil, err
	}
	var out []string
	for _, tn := range resp.GetTableNames() {
		out = append(out, tableString(tn))
	}
	sort.Strings(out)
	return out, nil
}

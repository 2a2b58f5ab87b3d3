package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
	"google.golang.org/protobuf/proto"
)

// Admin runs table operations through the active master. Get one from
// Client.Admin; it shares the client's connections and retry settings.
type Admin struct{ c *Client }

// Admin returns the client's table administration interface.
func (c *Client) Admin() *Admin { return &Admin{c: c} }

// TableSpec describes a table to create.
type TableSpec struct {
	// Name is "namespace:qualifier" or a qualifier in the default namespace.
	Name     string
	Families []FamilySpec
	// SplitKeys pre-split the table: n keys make n+1 regions.
	SplitKeys [][]byte
	// Coprocessors are the Java classes of region coprocessors the table
	// loads from the region servers' own classpath (its descriptor's
	// coprocessor$N attributes), e.g. AggregateClass.
	Coprocessors []string
}

// FamilySpec describes a column family. Zero fields take the server's
// defaults.
type FamilySpec struct {
	Name string
	// Versions is how many versions of a cell to keep (VERSIONS).
	Versions int
	// TTL is how long cells live, in whole seconds (TTL); 0 is forever.
	TTL time.Duration
	// Compression is NONE, GZ, SNAPPY, LZ4, LZO, ZSTD or BZIP2.
	Compression string
	// BloomFilter is NONE, ROW, ROWCOL or ROWPREFIX_FIXED_LENGTH.
	BloomFilter string
	// BlockSize is the HFile block size in bytes (BLOCKSIZE).
	BlockSize int
	// BlockCache, when set, turns the block cache on or off (BLOCKCACHE).
	BlockCache *bool
	// InMemory asks for the in-memory block cache priority (IN_MEMORY).
	InMemory bool
	// Attributes are further attributes by their HBase names, e.g.
	// DATA_BLOCK_ENCODING; they override the fields above.
	Attributes map[string]string
}

func (f FamilySpec) attributes() map[string]string {
	a := map[string]string{}
	if f.Versions > 0 {
		a["VERSIONS"] = strconv.Itoa(f.Versions)
	}
	if f.TTL > 0 {
		a["TTL"] = strconv.FormatInt(int64(max(f.TTL/time.Second, 1)), 10)
	}
	if f.Compression != "" {
		a["COMPRESSION"] = strings.ToUpper(f.Compression)
	}
	if f.BloomFilter != "" {
		a["BLOOMFILTER"] = strings.ToUpper(f.BloomFilter)
	}
	if f.BlockSize > 0 {
		a["BLOCKSIZE"] = strconv.Itoa(f.BlockSize)
	}
	if f.BlockCache != nil {
		a["BLOCKCACHE"] = strconv.FormatBool(*f.BlockCache)
	}
	if f.InMemory {
		a["IN_MEMORY"] = "true"
	}
	for k, v := range f.Attributes {
		a[k] = v
	}
	return a
}

func (t TableSpec) proto() (*pb.TableSchema, error) {
	if t.Name == "" {
		return nil, errors.New("hbase: create table: empty table name")
	}
	if len(t.Families) == 0 {
		return nil, fmt.Errorf("hbase: create table %s: no column families", t.Name)
	}
	s := &pb.TableSchema{TableName: tableName(t.Name)}
	for _, f := range t.Families {
		if f.Name == "" {
			return nil, fmt.Errorf("hbase: create table %s: empty family name", t.Name)
		}
		s.ColumnFamilies = append(s.ColumnFamilies, f.proto())
	}
	for i, class := range t.Coprocessors {
		if class == "" || strings.ContainsRune(class, '|') {
			return nil, fmt.Errorf("hbase: create table %s: bad coprocessor class %q", t.Name, class)
		}
		s.Attributes = append(s.Attributes, &pb.BytesBytesPair{
			First:  []byte(fmt.Sprintf("coprocessor$%d", i+1)),
			Second: []byte("|" + class + "|" + strconv.Itoa(coprocessorPriorityUser) + "|"),
		})
	}
	return s, nil
}

// coprocessorPriorityUser is the priority HBase gives user coprocessors
// (Coprocessor.PRIORITY_USER).
const coprocessorPriorityUser = 1<<30 - 1

// coprocessorClasses returns the classes a table descriptor's
// coprocessor$N attributes load. Each value is
// "path|class|priority|arguments", the path empty for a class on the
// region server's classpath.
func coprocessorClasses(ts *pb.TableSchema) []string {
	var out []string
	for _, a := range ts.GetAttributes() {
		k := strings.ToLower(string(a.GetFirst()))
		if !strings.HasPrefix(k, "coprocessor$") {
			continue
		}
		parts := strings.Split(string(a.GetSecond()), "|")
		if len(parts) < 2 {
			continue
		}
		if class := strings.TrimSpace(parts[1]); class != "" {
			out = append(out, class)
		}
	}
	return out
}

// proto is the family's schema with its attributes in name order.
func (f FamilySpec) proto() *pb.ColumnFamilySchema {
	cf := &pb.ColumnFamilySchema{Name: []byte(f.Name)}
	attrs := f.attributes()
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cf.Attributes = append(cf.Attributes, &pb.BytesBytesPair{First: []byte(k), Second: []byte(attrs[k])})
	}
	return cf
}

// ModifyFamily replaces the settings of one existing family of a table,
// as the HBase shell's alter 't', {NAME => 'f', …} does, and waits until
// the change is done. Settings f leaves unset return to HBase's defaults.
func (a *Admin) ModifyFamily(ctx context.Context, table string, f FamilySpec) error {
	if f.Name == "" {
		return fmt.Errorf("hbase: alter table %s: empty family name", table)
	}
	g, n := a.nonces()
	req := &pb.ModifyColumnRequest{TableName: tableName(table), ColumnFamilies: f.proto(), NonceGroup: g, Nonce: n}
	var resp pb.ModifyColumnResponse
	what := "alter family " + f.Name + " of table " + table
	if err := a.callMaster(ctx, what, "ModifyColumn", req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(table)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}

// callMaster sends one MasterService call, retrying as errors demand.
func (a *Admin) callMaster(ctx context.Context, what, method string, req, resp proto.Message) error {
	return a.c.retry(ctx, what, func(ctx context.Context) error {
		addr, err := a.c.masterAddr(ctx)
		if err != nil {
			return err
		}
		conn, err := a.c.conn(ctx, addr, rpc.MasterService, "master")
		if err == nil {
			_, err = conn.Call(ctx, method, req, 0, resp)
			err = wrapCallError(err, "master", addr, "")
		}
		var srvErr *ServerError
		if errors.As(err, &srvErr) {
			a.c.dropConn(addr)
			a.c.forgetMaster()
		}
		return err
	})
}

func (a *Admin) nonces() (group, nonce *uint64) {
	return proto.Uint64(rand.Uint64()), proto.Uint64(rand.Uint64())
}

// CreateTable creates a table and waits until its regions are online.
func (a *Admin) CreateTable(ctx context.Context, t TableSpec) error {
	schema, err := t.proto()
	if err != nil {
		return err
	}
	g, n := a.nonces()
	req := &pb.CreateTableRequest{TableSchema: schema, SplitKeys: t.SplitKeys, NonceGroup: g, Nonce: n}
	var resp pb.CreateTableResponse
	what := "create table " + t.Name
	if err := a.callMaster(ctx, what, "CreateTable", req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(t.Name)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}

// tableOp runs DisableTable, EnableTable or DeleteTable and waits for it.
func (a *Admin) tableOp(ctx context.Context, method, verb, table string) error {
	g, n := a.nonces()
	req := &pb.TableRequest{TableName: tableName(table), NonceGroup: g, Nonce: n}
	var resp pb.ProcResponse
	what := verb + " table " + table
	if err := a.callMaster(ctx, what, method, req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(table)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}

// DisableTable disables a table and waits until it is disabled.
func (a *Admin) DisableTable(ctx context.Context, table string) error {
	return a.tableOp(ctx, "DisableTable", "disable", table)
}

// EnableTable enables a table and waits until it is enabled.
func (a *Admin) EnableTable(ctx context.Context, table string) error {
	return a.tableOp(ctx, "EnableTable", "enable", table)
}

// DeleteTable deletes a disabled table and waits until it is gone.
func (a *Admin) DeleteTable(ctx context.Context, table string) error {
	return a.tableOp(ctx, "DeleteTable", "delete", table)
}

// waitProcedure polls the master until procedure id finishes.
func (a *Admin) waitProcedure(ctx context.Context, what string, id uint64) error {
	pause := 20 * time.Millisecond
	for {
		var resp pb.GetProcedureResultResponse
		req := &pb.GetProcedureResultRequest{ProcId: proto.Uint64(id)}
		if err := a.callMaster(ctx, what, "getProcedureResult", req, &resp); err != nil {
			return err
		}
		switch resp.GetState() {
		case pb.GetProcedureResultResponse_FINISHED:
			if ex := resp.GetException(); ex != nil {
				ge := ex.GetGenericException()
				e := toException(rpc.NewRemoteError(ge.GetClassName(), ge.GetMessage()))
				if e.Message == "" {
					e.Message = ge.GetMessage()
				}
				return fmt.Errorf("hbase: %s: %w", what, e)
			}
			return nil
		case pb.GetProcedureResultResponse_NOT_FOUND:
			return fmt.Errorf("hbase: %s: master lost procedure %d", what, id)
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("hbase: %s: waiting for procedure %d: %w", what, id, ctx.Err())
		}
		pause = min(pause*2, time.Second)
	}
}

// ListTables returns the names of the user tables, sorted.
func (a *Admin) ListTables(ctx context.Context) ([]string, error) { return a.ListAllTables(ctx, false) }

// TableExists reports whether table exists.
func (a *Admin) TableExists(ctx context.Context, table string) (bool, error) {
	var resp pb.GetTableDescriptorsResponse
	req := &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tableName(table)}}
	err := a.callMaster(ctx, "describe table "+table, "GetTableDescriptors", req, &resp)
	if errors.Is(err, ErrTableNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return len(resp.GetTableSchema()) > 0, nil
}

// TableEnabled reports whether table is enabled.
func (a *Admin) TableEnabled(ctx context.Context, table string) (bool, error) {
	var resp pb.GetTableStateResponse
	req := &pb.GetTableStateRequest{TableName: tableName(table)}
	if err := a.callMaster(ctx, "get state of table "+table, "GetTableState", req, &resp); err != nil {
		return false, err
	}
	return resp.GetTableState().GetState() == pb.TableState_ENABLED, nil
}

// Regions lists the regions of table in key order.
func (a *Admin) Regions(ctx context.Context, table string) ([]*Region, error) {
	return a.c.Regions(ctx, table)
}

// DescribeTable returns a table's column families with their attributes,
// as the master reports them. Known attributes fill the typed fields; the
// rest stay in Attributes; Coprocessors lists the coprocessor classes the
// table loads. SplitKeys is left empty (see Regions).
func (a *Admin) DescribeTable(ctx context.Context, table string) (*TableSpec, error) {
	var resp pb.GetTableDescriptorsResponse
	req := &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tableName(table)}}
	if err := a.callMaster(ctx, "describe table "+table, "GetTableDescriptors", req, &resp); err != nil {
		return nil, err
	}
	if len(resp.GetTableSchema()) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrTableNotFound, table)
	}
	ts := resp.GetTableSchema()[0]
	spec := &TableSpec{Name: tableString(ts.GetTableName()), Coprocessors: coprocessorClasses(ts)}
	for _, cf := range ts.GetColumnFamilies() {
		spec.Families = append(spec.Families, familyFromProto(cf))
	}
	return spec, nil
}

func familyFromProto(cf *pb.ColumnFamilySchema) FamilySpec {
	f := FamilySpec{Name: string(cf.GetName()), Attributes: map[string]string{}}
	for _, a := range cf.GetAttributes() {
		k, v := string(a.GetFirst()), string(a.GetSecond())
		n, numErr := strconv.Atoi(v)
		switch {
		case k == "VERSIONS" && numErr == nil:
			f.Versions = n
		case k == "TTL" && numErr == nil:
			if n != math.MaxInt32 {
				f.TTL = time.Duration(n) * time.Second
			}
		case k == "COMPRESSION":
			f.Compression = v
		case k == "BLOOMFILTER":
			f.BloomFilter = v
		case k == "BLOCKSIZE" && numErr == nil:
			f.BlockSize = n
		case k == "BLOCKCACHE":
			b := strings.EqualFold(v, "true")
			f.BlockCache = &b
		case k == "IN_MEMORY":
			f.InMemory = strings.EqualFold(v, "true")
		default:
			f.Attributes[k] = v
		}
	}
	return f
}

// Split splits the region of table holding splitKey at splitKey, and
// waits until the master's procedure is done: the two daughter regions
// are then online, and the parent is offline. splitKey must not be a
// region's start key.
func (a *Admin) Split(ctx context.Context, table string, splitKey []byte) error {
	if len(splitKey) == 0 {
		return fmt.Errorf("hbase: split %s: empty split key", table)
	}
	regions, err := a.c.Regions(ctx, table)
	if err != nil {
		return err
	}
	var r *Region
	for _, x := range regions {
		if x.Contains(splitKey) {
			r = x
			break
		}
	}
	what := fmt.Sprintf("split %s at %q", table, splitKey)
	switch {
	case r == nil:
		return fmt.Errorf("hbase: %s: no region holds the key", what)
	case bytes.Equal(r.StartKey, splitKey):
		return fmt.Errorf("hbase: %s: the key already starts a region", what)
	}
	g, n := a.nonces()
	req := &pb.SplitTableRegionRequest{
		RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(r.ID), TableName: tableName(table), StartKey: r.StartKey, EndKey: r.EndKey},
		SplitRow:   splitKey,
		NonceGroup: g,
		Nonce:      n,
	}
	var resp pb.SplitTableRegionResponse
	if err := a.callMaster(ctx, what, "SplitRegion", req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(table)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}

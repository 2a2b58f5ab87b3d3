package hbase

import (
	"context"
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// firstKeyOnlyFilter is the filter of a condition that holds when the
// row has any cell: the server Gets the row through it, and a
// checkAndMutate whose condition names a filter applies when that Get
// returns something (HBase 2.4 and later).
const firstKeyOnlyFilter = "org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter"

// IncrementExisting is Increment, but only of a row that exists: one
// checkAndMutate whose condition is a FirstKeyOnlyFilter Get of the row
// and whose mutation is the Increment, atomic in the region server. ok
// is false, and nothing is written, when the row has no cell; otherwise
// n is the counter's new value (a row without the column counts it from
// 0).
func (c *Client) IncrementExisting(ctx context.Context, table string, key, family, qualifier []byte, delta int64) (n int64, ok bool, err error) {
	if len(key) == 0 || len(family) == 0 {
		return 0, false, fmt.Errorf("hbase: increment on %s: a row and a family are needed", table)
	}
	m := &pb.MutationProto{Row: key, MutateType: pb.MutationProto_INCREMENT.Enum(),
		ColumnValue: []*pb.MutationProto_ColumnValue{{Family: family, QualifierValue: []*pb.MutationProto_ColumnValue_QualifierValue{
			{Qualifier: nonNil(qualifier), Value: binary.BigEndian.AppendUint64(nil, uint64(delta))}}}}}
	fb, err := proto.Marshal(&pb.Filter{Name: proto.String(firstKeyOnlyFilter), SerializedFilter: []byte{}})
	if err != nil {
		return 0, false, err
	}
	// Condition (MutateRequest field 3): row = 1, filter = 7.
	var cond []byte
	cond = protowire.AppendTag(cond, 1, protowire.BytesType)
	cond = protowire.AppendBytes(cond, key)
	cond = protowire.AppendTag(cond, 7, protowire.BytesType)
	cond = protowire.AppendBytes(cond, fb)
	var field []byte
	field = protowire.AppendTag(field, mutateCondition, protowire.BytesType)
	field = protowire.AppendBytes(field, cond)
	err = c.withRegion(ctx, fmt.Sprintf("increment %q in %s", key, table), table, key,
		func(ctx context.Context, r *Region) error {
			req := &pb.MutateRequest{Region: regionSpec(r), Mutation: m}
			req.ProtoReflect().SetUnknown(field)
			var resp pb.MutateResponse
			rep, err := c.callRegion(ctx, r, "Mutate", req, &resp)
			if err != nil {
				return err
			}
			if ok = resp.GetProcessed(); !ok {
				return nil
			}
			res, _, err := newResult(resp.GetResult(), rep.Cells)
			if err != nil {
				return err
			}
			v := res.Value(string(family), string(qualifier))
			if len(v) != 8 {
				return fmt.Errorf("hbase: increment of %q in %s answered a %d-byte counter, not 8", key, table, len(v))
			}
			n = int64(binary.BigEndian.Uint64(v))
			return nil
		})
	return n, ok, err
}

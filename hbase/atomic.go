package hbase

import (
	"context"
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// The comparators a CheckAndPut's condition names (org.apache.hadoop.
// hbase.filter): NullComparator matches a column with no cell,
// BinaryComparator one whose value equals its bytes.
const (
	nullComparator   = "org.apache.hadoop.hbase.filter.NullComparator"
	binaryComparator = "org.apache.hadoop.hbase.filter.BinaryComparator"
)

// mutateCondition is MutateRequest's field 3, Condition: the row,
// family and qualifier a checkAndMutate compares, its compare type and
// comparator.
const mutateCondition = 3

// Increment adds delta to the counter in family:qualifier of row key of
// table, atomically in the region server, and returns its new value.
// The counter is 8 bytes, big-endian (Bytes.toBytes(long)); a column with
// no cell counts from 0. This is HBase's Increment; OpenTSDB hands out
// uids with it.
func (c *Client) Increment(ctx context.Context, table string, key, family, qualifier []byte, delta int64) (int64, error) {
	if len(key) == 0 || len(family) == 0 {
		return 0, fmt.Errorf("hbase: increment on %s: a row and a family are needed", table)
	}
	m := &pb.MutationProto{Row: key, MutateType: pb.MutationProto_INCREMENT.Enum(),
		ColumnValue: []*pb.MutationProto_ColumnValue{{Family: family, QualifierValue: []*pb.MutationProto_ColumnValue_QualifierValue{
			{Qualifier: nonNil(qualifier), Value: binary.BigEndian.AppendUint64(nil, uint64(delta))}}}}}
	var n int64
	err := c.withRegion(ctx, fmt.Sprintf("increment %q in %s", key, table), table, key,
		func(ctx context.Context, r *Region) error {
			var resp pb.MutateResponse
			rep, err := c.callRegion(ctx, r, "Mutate", &pb.MutateRequest{Region: regionSpec(r), Mutation: m}, &resp)
			if err != nil {
				return err
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
	return n, err
}

// CheckAndPut applies p only when family:qualifier of its row holds
// expected, or holds no cell when expected is nil, atomically in the
// region server (HBase's checkAndMutate), and reports whether it did.
func (c *Client) CheckAndPut(ctx context.Context, p *Put, family, qualifier, expected []byte) (bool, error) {
	if p == nil {
		return false, errNilRequest
	}
	cmp := &pb.Comparator{Name: proto.String(nullComparator)}
	if expected != nil {
		b, err := proto.Marshal(&pb.BinaryComparator{Comparable: &pb.ByteArrayComparable{Value: expected}})
		if err != nil {
			return false, err
		}
		cmp = &pb.Comparator{Name: proto.String(binaryComparator), SerializedComparator: b}
	}
	cb, err := proto.Marshal(cmp)
	if err != nil {
		return false, err
	}
	var cond []byte
	cond = protowire.AppendTag(cond, 1, protowire.BytesType)
	cond = protowire.AppendBytes(cond, p.key)
	cond = protowire.AppendTag(cond, 2, protowire.BytesType)
	cond = protowire.AppendBytes(cond, family)
	cond = protowire.AppendTag(cond, 3, protowire.BytesType)
	cond = protowire.AppendBytes(cond, nonNil(qualifier))
	cond = protowire.AppendTag(cond, 4, protowire.VarintType)
	cond = protowire.AppendVarint(cond, uint64(pb.CompareType_EQUAL))
	cond = protowire.AppendTag(cond, 5, protowire.BytesType)
	cond = protowire.AppendBytes(cond, cb)
	var field []byte
	field = protowire.AppendTag(field, mutateCondition, protowire.BytesType)
	field = protowire.AppendBytes(field, cond)
	var done bool
	err = c.withRegion(ctx, fmt.Sprintf("check and put %q in %s", p.key, p.table), p.table, p.key,
		func(ctx context.Context, r *Region) error {
			req := &pb.MutateRequest{Region: regionSpec(r), Mutation: p.pb}
			// The pb messages carry no Condition: it travels as a field
			// the message does not know, which proto.Marshal writes.
			req.ProtoReflect().SetUnknown(field)
			var resp pb.MutateResponse
			if _, err := c.callRegion(ctx, r, "Mutate", req, &resp); err != nil {
				return err
			}
			done = resp.GetProcessed()
			return nil
		})
	return done, err
}

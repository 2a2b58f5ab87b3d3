package filter

import (
	"errors"
	"fmt"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// classPrefix is the Java package of every filter and comparator here.
const classPrefix = "org.apache.hadoop.hbase.filter."

// Filter is a server-side filter.
type Filter interface {
	// ClassName is the filter's Java class name.
	ClassName() string
	// Marshal serializes the filter's class-specific message.
	Marshal() ([]byte, error)
}

// Comparator compares a byte value inside a compare filter.
type Comparator interface {
	ClassName() string
	Marshal() ([]byte, error)
}

// CompareOp is how a compare filter tests a value against its comparator.
// The server evaluates comparator.compareTo(cellValue) and keeps the cell
// when the op holds, e.g. Less keeps values below the comparator's value.
type CompareOp int32

// Compare operators, numbered as in HBase's CompareType.
const (
	Less           CompareOp = 0
	LessOrEqual    CompareOp = 1
	Equal          CompareOp = 2
	NotEqual       CompareOp = 3
	GreaterOrEqual CompareOp = 4
	Greater        CompareOp = 5
	NoOp           CompareOp = 6
)

func (op CompareOp) proto() (*pb.CompareType, error) {
	if op < Less || op > NoOp {
		return nil, fmt.Errorf("filter: unknown compare op %d", op)
	}
	return pb.CompareType(op).Enum(), nil
}

var errNoComparator = errors.New("filter: compare filter without a comparator")

// ToProto wraps a filter into the message that Get and Scan carry.
func ToProto(f Filter) (*pb.Filter, error) {
	if f == nil {
		return nil, errors.New("filter: nil filter")
	}
	b, err := f.Marshal()
	if err != nil {
		return nil, err
	}
	return &pb.Filter{Name: proto.String(f.ClassName()), SerializedFilter: b}, nil
}

func comparatorProto(c Comparator) (*pb.Comparator, error) {
	if c == nil {
		return nil, errNoComparator
	}
	b, err := c.Marshal()
	if err != nil {
		return nil, err
	}
	return &pb.Comparator{Name: proto.String(c.ClassName()), SerializedComparator: b}, nil
}

func marshal(m proto.Message) ([]byte, error) {
	b, err := proto.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	return b, nil
}

// Prefix keeps rows whose key starts with Prefix.
type Prefix struct{ Prefix []byte }

func (Prefix) ClassName() string { return classPrefix + "PrefixFilter" }
func (f Prefix) Marshal() ([]byte, error) {
	return marshal(&pb.PrefixFilter{Prefix: nonNil(f.Prefix)})
}

// compare is the shared body of the four compare filters.
func compare(op CompareOp, c Comparator) (*pb.CompareFilter, error) {
	o, err := op.proto()
	if err != nil {
		return nil, err
	}
	cp, err := comparatorProto(c)
	if err != nil {
		return nil, err
	}
	return &pb.CompareFilter{CompareOp: o, Comparator: cp}, nil
}

// Row keeps rows whose key satisfies Op against Comparator.
type Row struct {
	Op         CompareOp
	Comparator Comparator
}

func (Row) ClassName() string { return classPrefix + "RowFilter" }
func (f Row) Marshal() ([]byte, error) {
	cf, err := compare(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshal(&pb.RowFilter{CompareFilter: cf})
}

// Family keeps cells whose family satisfies Op against Comparator.
type Family struct {
	Op         CompareOp
	Comparator Comparator
}

func (Family) ClassName() string { return classPrefix + "FamilyFilter" }
func (f Family) Marshal() ([]byte, error) {
	cf, err := compare(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshal(&pb.FamilyFilter{CompareFilter: cf})
}

// Qualifier keeps cells whose qualifier satisfies Op against Comparator.
type Qualifier struct {
	Op         CompareOp
	Comparator Comparator
}

func (Qualifier) ClassName() string { return classPrefix + "QualifierFilter" }
func (f Qualifier) Marshal() ([]byte, error) {
	cf, err := compare(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshal(&pb.QualifierFilter{CompareFilter: cf})
}

// Value keeps cells whose value satisfies Op against Comparator.
type Value struct {
	Op         CompareOp
	Comparator Comparator
}

func (Value) ClassName() string { return classPrefix + "ValueFilter" }
func (f Value) Marshal() ([]byte, error) {
	cf, err := compare(f.Op, f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshal(&pb.ValueFilter{CompareFilter: cf})
}

// SingleColumnValue keeps whole rows by testing one column's value.
// Rows without the column pass unless FilterIfMissing is set.
type SingleColumnValue struct {
	Family, Qualifier []byte
	Op                CompareOp
	Comparator        Comparator
	FilterIfMissing   bool
	// LatestVersionOnly tests only the newest version (HBase's default is
	// true; the zero value here sends false, so set it when you want it).
	LatestVersionOnly bool
}

func (SingleColumnValue) ClassName() string { return classPrefix + "SingleColumnValueFilter" }
func (f SingleColumnValue) Marshal() ([]byte, error) {
	o, err := f.Op.proto()
	if err != nil {
		return nil, err
	}
	cp, err := comparatorProto(f.Comparator)
	if err != nil {
		return nil, err
	}
	return marshal(&pb.SingleColumnValueFilter{
		ColumnFamily:      nonNil(f.Family),
		ColumnQualifier:   nonNil(f.Qualifier),
		CompareOp:         o,
		Comparator:        cp,
		FilterIfMissing:   proto.Bool(f.FilterIfMissing),
		LatestVersionOnly: proto.Bool(f.LatestVersionOnly),
	})
}

// Operator combines the filters of a List.
type Operator int32

const (
	// MustPassAll is AND.
	MustPassAll Operator = 1
	// MustPassOne is OR.
	MustPassOne Operator = 2
)

// List combines filters with AND or OR.
type List struct {
	Operator Operator
	Filters  []Filter
}

// And is a List that keeps what every filter keeps.
func And(fs ...Filter) List { return List{Operator: MustPassAll, Filters: fs} }

// Or is a List that keeps what any filter keeps.
func Or(fs ...Filter) List { return List{Operator: MustPassOne, Filters: fs} }

func (List) ClassName() string { return classPrefix + "FilterList" }
func (f List) Marshal() ([]byte, error) {
	if f.Operator != MustPassAll && f.Operator != MustPassOne {
		return nil, fmt.Errorf("filter: unknown list operator %d", f.Operator)
	}
	if len(f.Filters) == 0 {
		return nil, errors.New("filter: empty filter list")
	}
	m := &pb.FilterList{Operator: pb.FilterList_Operator(f.Operator).Enum()}
	for _, sub := range f.Filters {
		p, err := ToProto(sub)
		if err != nil {
			return nil, err
		}
		m.Filters = append(m.Filters, p)
	}
	return marshal(m)
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

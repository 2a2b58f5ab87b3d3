package hbase

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Region is one region of a table, as hbase:meta describes it.
type Region struct {
	// Table is "namespace:qualifier", or just the qualifier in the
	// default namespace.
	Table string
	// Name is the full region name, the row key of its hbase:meta row:
	// "<table>,<start key>,<region id>.<encoded name>.".
	Name []byte
	// StartKey is inclusive; empty means the start of the table.
	StartKey []byte
	// EndKey is exclusive; empty means the end of the table.
	EndKey []byte
	// ID is the region id, the region's creation time in milliseconds.
	ID uint64
	// Server is "host:port" of the region server hosting the region, or
	// empty while the region is not assigned.
	Server string

	// offline is RegionInfo's offline flag of a region that is no split
	// parent, and state the info:state of its meta row ("OPEN",
	// "CLOSING", ...; empty when the row has none). A request goes to a
	// region only while it has a server and is not offline; a region is
	// cached only while its state is also OPEN or unknown.
	offline bool
	state   string
}

// Contains reports whether key falls in the region.
func (r *Region) Contains(key []byte) bool {
	return bytes.Compare(r.StartKey, key) <= 0 && (len(r.EndKey) == 0 || bytes.Compare(key, r.EndKey) < 0)
}

// containsBefore reports whether the keys just below key fall in the
// region: start < key <= end, with an empty key meaning "past the end".
func (r *Region) containsBefore(key []byte) bool {
	if len(key) == 0 {
		return len(r.EndKey) == 0
	}
	return bytes.Compare(r.StartKey, key) < 0 && (len(r.EndKey) == 0 || bytes.Compare(key, r.EndKey) <= 0)
}

func (r *Region) String() string { return string(r.Name) }

// metaTable is the name of the catalog table, and metaRegionName the name
// of its single region.
const (
	metaTable      = "hbase:meta"
	metaRegionName = "hbase:meta,,1"
)

var (
	metaFamily      = []byte("info")
	regionInfoQual  = []byte("regioninfo")
	serverQual      = []byte("server")
	stateQual       = []byte("state")
	pbMagic         = []byte("PBUF")
	errNotRegionRow = errors.New("hbase: meta row without info:regioninfo")
)

// regionFromMeta parses one hbase:meta row, and reports whether it is a
// split parent (RegionInfo's split flag, as HBase's isSplitParent reads
// it): its daughters hold its keys, so callers skip it.
func regionFromMeta(res *Result) (*Region, bool, error) {
	var info, server, state []byte
	for _, c := range res.Cells {
		if !bytes.Equal(c.Family, metaFamily) {
			continue
		}
		switch {
		case bytes.Equal(c.Qualifier, regionInfoQual) && info == nil:
			info = c.Value
		case bytes.Equal(c.Qualifier, serverQual) && server == nil:
			server = c.Value
		case bytes.Equal(c.Qualifier, stateQual) && state == nil:
			state = c.Value
		}
	}
	if info == nil {
		return nil, false, errNotRegionRow
	}
	if !bytes.HasPrefix(info, pbMagic) {
		return nil, false, fmt.Errorf("hbase: meta row %q: regioninfo lacks the PBUF magic", res.Row)
	}
	var ri pb.RegionInfo
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(info[len(pbMagic):], &ri); err != nil {
		return nil, false, fmt.Errorf("hbase: meta row %q: %w", res.Row, err)
	}
	r := &Region{
		Table:    tableString(ri.GetTableName()),
		Name:     res.Row,
		StartKey: ri.GetStartKey(),
		EndKey:   ri.GetEndKey(),
		ID:       ri.GetRegionId(),
		Server:   string(server),
		offline:  ri.GetOffline(),
		state:    string(state),
	}
	return r, ri.GetSplit(), nil
}

func tableString(tn *pb.TableName) string {
	ns, q := string(tn.GetNamespace()), string(tn.GetQualifier())
	if ns == "" || ns == "default" {
		return q
	}
	return ns + ":" + q
}

// tableName splits "ns:qual" into a TableName message.
func tableName(table string) *pb.TableName {
	ns, q, ok := strings.Cut(table, ":")
	if !ok {
		ns, q = "default", table
	}
	return &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}
}

// metaKey builds an hbase:meta row key "<table>,<key>,<id>".
func metaKey(table string, key []byte, id string) []byte {
	b := make([]byte, 0, len(table)+len(key)+len(id)+2)
	b = append(b, table...)
	b = append(b, ',')
	b = append(b, key...)
	b = append(b, ',')
	return append(b, id...)
}

// parseRegionName splits a region name into table, start key and region
// id. The table ends at the first comma and the id starts after the last
// one, so start keys may hold commas.
func parseRegionName(name []byte) (table string, start []byte, id uint64, err error) {
	first := bytes.IndexByte(name, ',')
	last := bytes.LastIndexByte(name, ',')
	if first <= 0 || first == last {
		return "", nil, 0, fmt.Errorf("hbase: malformed region name %q", name)
	}
	idPart := name[last+1:]
	if i := bytes.IndexByte(idPart, '.'); i >= 0 {
		idPart = idPart[:i]
	}
	if i := bytes.IndexByte(idPart, '_'); i >= 0 { // replica suffix
		idPart = idPart[:i]
	}
	id, err = strconv.ParseUint(string(idPart), 10, 64)
	if err != nil {
		return "", nil, 0, fmt.Errorf("hbase: malformed region id in %q", name)
	}
	return string(name[:first]), name[first+1 : last], id, nil
}

package zk

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Znode names under the cluster root.
const (
	MetaZNode   = "meta-region-server"
	MasterZNode = "master"
)

// DefaultRoot is the default cluster root znode (zookeeper.znode.parent).
const DefaultRoot = "/hbase"

// ErrNoNode means the znode does not exist: HBase is not running under this
// root, or not yet.
var ErrNoNode = errors.New("zk: znode not found")

// pbMagic precedes the protobuf message in a znode value.
var pbMagic = []byte("PBUF")

// ParseQuorum splits "host[:port],host[:port]" into addresses, adding the
// default ZooKeeper port 2181 where none is given.
func ParseQuorum(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(part); err != nil {
			part = net.JoinHostPort(part, "2181")
		}
		out = append(out, part)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("zk: empty quorum %q", s)
	}
	return out, nil
}

// Locator reads locations from one ZooKeeper quorum under one root.
type Locator struct {
	Quorum []string
	Root   string
	// SessionTimeout is the ZooKeeper session timeout. Default 10s.
	SessionTimeout time.Duration
}

// Meta returns "host:port" of the region server hosting hbase:meta.
func (l Locator) Meta(ctx context.Context) (string, error) {
	data, err := l.get(ctx, MetaZNode)
	if err != nil {
		return "", err
	}
	var m pb.MetaRegionServer
	if err := decode(data, &m); err != nil {
		return "", fmt.Errorf("zk: %s: %w", l.path(MetaZNode), err)
	}
	return serverAddr(m.GetServer())
}

// Master returns "host:port" of the active master.
func (l Locator) Master(ctx context.Context) (string, error) {
	data, err := l.get(ctx, MasterZNode)
	if err != nil {
		return "", err
	}
	var m pb.Master
	if err := decode(data, &m); err != nil {
		return "", fmt.Errorf("zk: %s: %w", l.path(MasterZNode), err)
	}
	return serverAddr(m.GetMaster())
}

func (l Locator) path(node string) string {
	root := l.Root
	if root == "" {
		root = DefaultRoot
	}
	return strings.TrimRight(root, "/") + "/" + node
}

func serverAddr(sn *pb.ServerName) (string, error) {
	if sn.GetHostName() == "" || sn.GetPort() == 0 {
		return "", errors.New("zk: server name without host or port")
	}
	return net.JoinHostPort(sn.GetHostName(), strconv.Itoa(int(sn.GetPort()))), nil
}

// get reads one znode in a fresh session, giving up when ctx ends.
func (l Locator) get(ctx context.Context, node string) ([]byte, error) {
	timeout := l.SessionTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	var dials dialRecorder
	conn, _, err := zk.Connect(l.Quorum, timeout, zk.WithLogger(nopLogger{}), zk.WithDialer(dials.dial))
	if err != nil {
		return nil, fmt.Errorf("zk: cannot reach zookeeper %s: %w", strings.Join(l.Quorum, ","), err)
	}
	// Close can wait for the session's I/O loop; don't make the caller wait.
	defer func() { go conn.Close() }()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	path := l.path(node)
	go func() {
		data, _, err := conn.Get(path)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		switch {
		case errors.Is(r.err, zk.ErrNoNode):
			return nil, fmt.Errorf("%w: %s (is HBase running with this root znode?)", ErrNoNode, path)
		case errors.Is(r.err, zk.ErrNoAuth):
			return nil, fmt.Errorf("zk: %s is not readable without authentication (ACL %s): rkql reads ZooKeeper without credentials; ask the cluster's admin to keep HBase's znodes world-readable, as HBase does by default: %w",
				path, describeACL(conn, path), r.err)
		case errors.Is(r.err, zk.ErrNoServer) && dials.last() != nil:
			return nil, fmt.Errorf("zk: cannot reach zookeeper %s: %s", strings.Join(l.Quorum, ","), reason(dials.last()))
		case r.err != nil:
			return nil, fmt.Errorf("zk: read %s: %w", path, r.err)
		}
		return r.data, nil
	case <-ctx.Done():
		if last := dials.last(); last != nil {
			return nil, fmt.Errorf("zk: cannot reach zookeeper %s: %s: %w", strings.Join(l.Quorum, ","), reason(last), ctx.Err())
		}
		return nil, fmt.Errorf("zk: read %s: %w", path, ctx.Err())
	}
}

// describeACL renders a znode's ACL as "scheme:id:perms,...", or says why
// it cannot.
func describeACL(conn *zk.Conn, path string) string {
	acls, _, err := conn.GetACL(path)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	parts := make([]string, len(acls))
	for i, a := range acls {
		var p strings.Builder
		for _, f := range []struct {
			bit  int32
			name byte
		}{{zk.PermRead, 'r'}, {zk.PermWrite, 'w'}, {zk.PermCreate, 'c'}, {zk.PermDelete, 'd'}, {zk.PermAdmin, 'a'}} {
			if a.Perms&f.bit != 0 {
				p.WriteByte(f.name)
			}
		}
		parts[i] = a.Scheme + ":" + a.ID + ":" + p.String()
	}
	return strings.Join(parts, ",")
}

// decode strips the metadata block and the PBUF magic and unmarshals the rest.
func decode(data []byte, m proto.Message) error {
	b, err := Payload(data)
	if err != nil {
		return err
	}
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(b, m); err != nil {
		return fmt.Errorf("malformed znode value: %w", err)
	}
	return nil
}

// Payload returns the protobuf bytes of a znode value.
func Payload(data []byte) ([]byte, error) {
	if len(data) > 0 && data[0] == 0xFF {
		if len(data) < 5 {
			return nil, errors.New("truncated znode metadata")
		}
		idLen := binary.BigEndian.Uint32(data[1:5])
		if idLen < 1 || idLen > 65000 || int(idLen) > len(data)-5 {
			return nil, fmt.Errorf("bad znode metadata length %d", idLen)
		}
		data = data[5+idLen:]
	}
	if !bytes.HasPrefix(data, pbMagic) {
		return nil, errors.New("znode value lacks the PBUF magic")
	}
	return data[len(pbMagic):], nil
}

// dialRecorder remembers the last dial error, so a lookup that times out
// can say why.
type dialRecorder struct {
	mu  sync.Mutex
	err error
}

func (d *dialRecorder) dial(network, addr string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout(network, addr, timeout)
	d.mu.Lock()
	d.err = err
	d.mu.Unlock()
	return c, err
}

func (d *dialRecorder) last() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

func reason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		var sys interface{ Unwrap() error }
		if errors.As(op.Err, &sys) {
			return sys.Unwrap().Error()
		}
		return op.Err.Error()
	}
	return err.Error()
}

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

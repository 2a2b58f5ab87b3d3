package hbase

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os/user"
	"strings"
	"sync"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
	"github.com/rkql/rkql/hbase/internal/sasl"
	"github.com/rkql/rkql/hbase/zk"
	"google.golang.org/protobuf/proto"
)

// Config configures a Client. The zero value of every field means its
// default.
type Config struct {
	// ZKQuorum is "host[:port][,host[:port]]". Default "127.0.0.1:2181".
	ZKQuorum string
	// ZKRoot is the cluster's root znode. Default "/hbase".
	ZKRoot string
	// User is the effective user sent to the servers. Default: the
	// current OS user.
	User string
	// RPCTimeout bounds the wait for a server's next response while calls
	// are in flight on a connection. Default 60s.
	RPCTimeout time.Duration
	// DialTimeout bounds setting up a connection. Default 5s.
	DialTimeout time.Duration
	// MaxAttempts bounds the tries of one operation. Default 20.
	MaxAttempts int
	// RetryBackoff is the first pause between tries; it doubles up to
	// MaxBackoff. Defaults 20ms and 2s.
	RetryBackoff time.Duration
	MaxBackoff   time.Duration
	// ScanCaching is the default rows per scan RPC. Default 100.
	ScanCaching int
	// ScanMaxResultSize is the default bytes per scan RPC, and the bytes
	// per RPC of the client's hbase:meta scans. Default 2 MiB.
	ScanMaxResultSize int64
	// MetaScanRows is the most rows one RPC of an hbase:meta scan asks
	// for, when the client lists a table's regions or finds one (that
	// asks for 5 at most). Default 100.
	MetaScanRows int
	// Dial, when set, opens the TCP connections to region servers and the
	// master (not ZooKeeper) in place of a net.Dialer, e.g. through a
	// proxy or a tunnel. It must respect ctx.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS, when set, runs every RPC connection inside TLS, as HBase's
	// hbase.client.netty.tls.enabled does. An empty ServerName is set to
	// each server's host.
	TLS *tls.Config
	// Kerberos, when set, authenticates every RPC connection with SASL
	// GSSAPI instead of SIMPLE; User is then ignored.
	Kerberos *Kerberos
}

func (c Config) withDefaults() Config {
	if c.ZKQuorum == "" {
		c.ZKQuorum = "127.0.0.1:2181"
	}
	if c.ZKRoot == "" {
		c.ZKRoot = zk.DefaultRoot
	}
	if c.User == "" {
		c.User = "hbase"
		if u, err := user.Current(); err == nil && u.Username != "" {
			c.User = u.Username
		}
	}
	if c.RPCTimeout <= 0 {
		c.RPCTimeout = 60 * time.Second
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 5 * time.Second
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 20
	}
	if c.RetryBackoff <= 0 {
		c.RetryBackoff = 20 * time.Millisecond
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 2 * time.Second
	}
	if c.ScanCaching <= 0 {
		c.ScanCaching = 100
	}
	if c.ScanMaxResultSize <= 0 {
		c.ScanMaxResultSize = 2 << 20
	}
	if c.MetaScanRows <= 0 {
		c.MetaScanRows = 100
	}
	return c
}

// Client talks to one HBase cluster. It is safe for concurrent use. It
// routes each request to the region server holding its row, caches region
// locations, and retries with backoff until the request succeeds, fails
// for good, or its context ends.
type Client struct {
	cfg   Config
	zk    zk.Locator
	cache *regionCache
	// rsAuth and masterAuth authenticate connections to region servers
	// and the master; nil means SIMPLE.
	rsAuth, masterAuth rpc.Authenticator
	// login is the Kerberos login the authenticators share, if any.
	login *sasl.Login

	mu struct {
		sync.Mutex
		closed bool
		conns  map[connKey]*rpc.Conn
		meta   string // address of the hbase:meta server; "" = ask ZooKeeper
		master string // address of the master; "" = ask ZooKeeper
	}
}

type connKey struct{ addr, service string }

// NewClient connects to the cluster whose ZooKeeper quorum cfg names. It
// reads the location of hbase:meta to check that the cluster is there.
func NewClient(ctx context.Context, cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	quorum, err := zk.ParseQuorum(cfg.ZKQuorum)
	if err != nil {
		return nil, fmt.Errorf("hbase: %w", err)
	}
	c := &Client{cfg: cfg, zk: zk.Locator{Quorum: quorum, Root: cfg.ZKRoot}, cache: newRegionCache()}
	c.mu.conns = make(map[connKey]*rpc.Conn)
	if cfg.Kerberos != nil {
		c.rsAuth, c.masterAuth, c.login = kerberosAuth(cfg.Kerberos)
	}
	if _, err := c.metaAddr(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Close closes every connection. Calls in flight fail.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mu.closed = true
	for k, conn := range c.mu.conns {
		conn.Close()
		delete(c.mu.conns, k)
	}
	if c.login != nil {
		c.login.Close()
	}
	return nil
}

// Config returns the client's configuration, with defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// conn returns a live connection to addr for service, dialing if needed.
func (c *Client) conn(ctx context.Context, addr, service, role string) (*rpc.Conn, error) {
	k := connKey{addr, service}
	c.mu.Lock()
	if c.mu.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	if conn := c.mu.conns[k]; conn != nil && conn.Err() == nil {
		c.mu.Unlock()
		return conn, nil
	}
	c.mu.Unlock()

	auth := c.rsAuth
	if service == rpc.MasterService {
		auth = c.masterAuth
	}
	conn, err := rpc.Dial(ctx, addr, rpc.Options{
		Service: service, User: c.cfg.User,
		ReadTimeout: c.cfg.RPCTimeout, DialTimeout: c.cfg.DialTimeout,
		Dial: c.cfg.Dial, TLS: c.cfg.TLS, Auth: auth,
	})
	if err != nil {
		if isCtxErr(err) && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, wrapCallError(err, role, addr, "")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.closed {
		conn.Close()
		return nil, ErrClosed
	}
	if old := c.mu.conns[k]; old != nil && old.Err() == nil {
		conn.Close() // another caller won the race
		return old, nil
	}
	c.mu.conns[k] = conn
	return conn, nil
}

// dropConn forgets a failed connection so the next call dials anew.
func (c *Client) dropConn(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, conn := range c.mu.conns {
		if k.addr == addr {
			conn.Close()
			delete(c.mu.conns, k)
		}
	}
}

// callRegion sends one ClientService call for region r. The reply holds
// the response cellblock and the bytes received, also on failure.
func (c *Client) callRegion(ctx context.Context, r *Region, method string, req, resp proto.Message) (rpc.Reply, error) {
	switch {
	case r.offline:
		return rpc.Reply{}, &RegionError{Region: string(r.Name), Err: fmt.Errorf("hbase: region %s is offline", r.Name)}
	case r.Server == "":
		return rpc.Reply{}, &RegionError{Region: string(r.Name), Err: fmt.Errorf("hbase: region %s is not assigned to a server", r.Name)}
	}
	conn, err := c.conn(ctx, r.Server, rpc.ClientService, "region server")
	if err != nil {
		return rpc.Reply{}, err
	}
	var prio uint32
	if strings.HasPrefix(r.Table, "hbase:") {
		prio = 200 // system tables use the high-priority handlers
	}
	rep, err := conn.Call(ctx, method, req, prio, resp)
	return rep, wrapCallError(err, "region server", r.Server, string(r.Name))
}

// noteError updates the region cache after a failed call to region r.
func (c *Client) noteError(r *Region, err error) {
	var regErr *RegionError
	var srvErr *ServerError
	switch {
	case err == nil:
	case errors.As(err, &srvErr):
		c.dropConn(srvErr.Addr)
		c.cache.removeServer(srvErr.Addr)
		if r.Table == metaTable {
			c.forgetMeta()
		}
	case errors.As(err, &regErr):
		if r.Table == metaTable {
			c.forgetMeta()
			return
		}
		if addr, ok := movedTo(err); ok {
			moved := *r
			moved.Server = addr
			c.cache.add(&moved)
			return
		}
		c.cache.remove(r)
	case exceptionClass(err) == clsServerNotRunningYet:
		c.dropConn(r.Server)
	case exceptionClass(err) == clsRegionOpening:
		// Back off, then look again: the region may open elsewhere.
		c.cache.remove(r)
	}
}

// retry runs op until it succeeds, fails with an error that retrying cannot
// fix, runs out of attempts, or ctx ends. what names the operation in the
// final error.
func (c *Client) retry(ctx context.Context, what string, op func(ctx context.Context) error) error {
	var last error
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return giveUp(what, err, last)
		}
		err := op(ctx)
		if err == nil {
			return nil
		}
		if isCtxErr(err) && ctx.Err() != nil {
			return giveUp(what, ctx.Err(), last)
		}
		if !isRetryable(err) {
			return err
		}
		last = err
		if attempt+1 >= c.cfg.MaxAttempts {
			return fmt.Errorf("hbase: %s: giving up after %d attempts: %w", what, attempt+1, err)
		}
		t := time.NewTimer(c.backoff(attempt))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return giveUp(what, ctx.Err(), last)
		}
	}
}

func giveUp(what string, ctxErr, last error) error {
	if last == nil {
		return fmt.Errorf("hbase: %s: %w", what, ctxErr)
	}
	return fmt.Errorf("hbase: %s: %w (last error: %w)", what, ctxErr, last)
}

// backoff is the pause before try attempt+1: exponential, capped, jittered.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.RetryBackoff << min(attempt, 20)
	if d <= 0 || d > c.cfg.MaxBackoff {
		d = c.cfg.MaxBackoff
	}
	return d/2 + rand.N(d/2+1)
}

// withRegion runs op against the region holding key, relocating and
// retrying as errors demand.
func (c *Client) withRegion(ctx context.Context, what, table string, key []byte, op func(ctx context.Context, r *Region) error) error {
	var regionErrs int
	return c.retry(ctx, what, func(ctx context.Context) error {
		r, err := c.locate(ctx, table, key, false)
		if err != nil {
			return err
		}
		err = op(ctx, r)
		c.noteError(r, err)
		return c.checkDisabled(ctx, table, err, &regionErrs)
	})
}

// checkDisabled turns repeated RegionErrors into ErrTableNotEnabled when
// the master says the table is disabled: its regions are offline, and
// retrying would only wait for the attempts to run out.
func (c *Client) checkDisabled(ctx context.Context, table string, err error, count *int) error {
	var regErr *RegionError
	if !errors.As(err, &regErr) {
		return err
	}
	*count++
	if *count != 2 {
		return err
	}
	if enabled, stateErr := c.tableEnabled(ctx, table); stateErr == nil && !enabled {
		return fmt.Errorf("%w: %s", ErrTableNotEnabled, table)
	}
	return err
}

// tableEnabled asks the master, once and without retries, whether table
// is enabled.
func (c *Client) tableEnabled(ctx context.Context, table string) (bool, error) {
	addr, err := c.masterAddr(ctx)
	if err != nil {
		return false, err
	}
	conn, err := c.conn(ctx, addr, rpc.MasterService, "master")
	if err != nil {
		return false, err
	}
	var resp pb.GetTableStateResponse
	if _, err := conn.Call(ctx, "GetTableState", &pb.GetTableStateRequest{TableName: tableName(table)}, 0, &resp); err != nil {
		return false, wrapCallError(err, "master", addr, "")
	}
	return resp.GetTableState().GetState() == pb.TableState_ENABLED, nil
}

func regionSpec(r *Region) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: r.Name}
}

// ReadStats counts what a Get or MultiGet received from the region
// servers. Region lookups in hbase:meta are not counted.
type ReadStats struct {
	// RPCs is the number of calls attempted, retries included.
	RPCs int
	// Bytes is the size of every response frame received, as read off the
	// socket: length prefix, header, message and cellblock. Responses
	// that carried an exception and responses of retried calls count too.
	Bytes int64
	// Cells is the number of cells received in results.
	Cells int
	// Rows is the number of results received that hold at least one cell.
	Rows int
	// Regions is the number of regions a multi-get's rows were sent to,
	// retries' included.
	Regions int
}

func (st *ReadStats) addResult(r *Result) {
	st.Cells += len(r.Cells)
	if len(r.Cells) > 0 {
		st.Rows++
	}
}

// Get reads one row. A missing row gives a Result with no cells.
func (c *Client) Get(ctx context.Context, g *Get) (*Result, error) {
	res, _, err := c.GetWithStats(ctx, g)
	return res, err
}

// GetWithStats is Get that also reports what the read received, on
// failure too.
func (c *Client) GetWithStats(ctx context.Context, g *Get) (*Result, ReadStats, error) {
	var st ReadStats
	if g == nil {
		return nil, st, errNilRequest
	}
	var res *Result
	err := c.withRegion(ctx, fmt.Sprintf("get %q from %s", g.key, g.table), g.table, g.key,
		func(ctx context.Context, r *Region) error {
			var resp pb.GetResponse
			st.RPCs++
			rep, err := c.callRegion(ctx, r, "Get", &pb.GetRequest{Region: regionSpec(r), Get: g.pb}, &resp)
			st.Bytes += int64(rep.Bytes)
			if err != nil {
				return err
			}
			res, _, err = newResult(resp.GetResult(), rep.Cells)
			if err == nil {
				st.addResult(res)
			}
			return err
		})
	if err != nil {
		return nil, st, err
	}
	return res, st, nil
}

// Mutate applies one Put or Delete.
func (c *Client) Mutate(ctx context.Context, m Mutation) error {
	if m == nil {
		return errNilRequest
	}
	return c.withRegion(ctx, fmt.Sprintf("mutate %q in %s", m.Key(), m.Table()), m.Table(), m.Key(),
		func(ctx context.Context, r *Region) error {
			var resp pb.MutateResponse
			_, err := c.callRegion(ctx, r, "Mutate", &pb.MutateRequest{Region: regionSpec(r), Mutation: m.proto()}, &resp)
			return err
		})
}

package rpc

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Service names a server-side RPC service. A connection speaks to one.
const (
	ClientService = "ClientService"
	MasterService = "MasterService"
	// AdminService is a region server's administration service: flushes
	// and compactions of its regions.
	AdminService = "AdminService"
)

// codecClass asks the server to send cells as KeyValue cellblocks.
const codecClass = "org.apache.hadoop.hbase.codec.KeyValueCodec"

// fatalClass closes the connection it arrives on.
const fatalClass = "org.apache.hadoop.hbase.ipc.FatalConnectionException"

// maxFrame bounds a response frame; anything larger is a corrupt stream.
const maxFrame = 512 << 20

// connErrorCallID is the call id of a connection-level error (-1 as uint32).
const connErrorCallID = math.MaxUint32

// Preamble is what a client writes first: "HBas", version 0, auth SIMPLE.
var Preamble = []byte{'H', 'B', 'a', 's', 0, AuthSimple}

// Authentication method bytes of the preamble.
const (
	AuthSimple   = 0x50
	AuthKerberos = 0x51
)

// Authenticator runs a SASL exchange after the preamble. It returns the
// connection to go on with: nc itself, or nc wrapped in the negotiated
// security layer.
type Authenticator interface {
	// Method is the preamble's authentication byte.
	Method() byte
	// User is the effective user the connection header names.
	User() string
	// Handshake runs the exchange on nc for the server at addr.
	Handshake(ctx context.Context, nc net.Conn, addr string) (net.Conn, error)
}

// HandshakeError means TLS or SASL set-up failed. Retrying the same
// configuration does not help.
type HandshakeError struct {
	Addr string
	// Stage is "tls" or "sasl".
	Stage string
	Err   error
}

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("%s handshake with %s failed: %v", e.Stage, e.Addr, e.Err)
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// Options configure a connection. The zero value means the defaults.
type Options struct {
	// Service is ClientService (the default) or MasterService.
	Service string
	// User is the effective user sent in the connection header.
	User string
	// ReadTimeout bounds the wait for the next response frame while calls
	// are in flight. Default 60s.
	ReadTimeout time.Duration
	// DialTimeout bounds connection set-up. Default 10s.
	DialTimeout time.Duration
	// NoCellblocks asks the server to send cells inline in protobufs.
	NoCellblocks bool
	// Dial, when set, opens the TCP connection instead of a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS, when set, runs the connection inside TLS. An empty ServerName
	// becomes the host of the address.
	TLS *tls.Config
	// Auth, when set, replaces SIMPLE authentication.
	Auth Authenticator
}

func (o Options) withDefaults() Options {
	if o.Service == "" {
		o.Service = ClientService
	}
	if o.User == "" {
		o.User = "hbase"
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = 60 * time.Second
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 10 * time.Second
	}
	return o
}

// Conn is one connection to one server and service. It is safe for
// concurrent use; calls are multiplexed and matched by call id.
type Conn struct {
	addr   string
	opts   Options
	nc     net.Conn
	nextID atomic.Uint32
	// frames counts the response frames read, so that a call whose
	// deadline passes can tell a slow server from a silent one.
	frames atomic.Int64
	done   chan struct{}

	wmu sync.Mutex // serialises frame writes

	mu struct {
		sync.Mutex
		calls map[uint32]chan response // calls in flight
		err   error                    // set once when the connection fails
	}
}

type response struct {
	body  []byte
	cells []byte
	size  int // bytes of the frame on the wire, length prefix included
	err   error
}

// Reply is what a call received besides its response message.
type Reply struct {
	// Cells is the response cellblock, nil when none came.
	Cells []byte
	// Bytes is the size of the response frame as read off the socket:
	// the 4-byte length prefix, the header, the message and the
	// cellblock. It is set for an exception response too, and zero when
	// no response arrived.
	Bytes int
}

// Dial connects to addr and sends the connection preamble and header.
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	dial := opts.Dial
	if dial == nil {
		d := net.Dialer{Timeout: opts.DialTimeout}
		dial = d.DialContext
	}
	dctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	nc, err := dial(dctx, "tcp", addr)
	if err != nil {
		return nil, &ConnError{Addr: addr, Dial: true, Err: err}
	}
	if opts.TLS != nil {
		if nc, err = startTLS(dctx, nc, addr, opts.TLS); err != nil {
			return nil, err
		}
	}
	c, err := NewConn(dctx, nc, addr, opts)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// NewConn runs the protocol over an established connection (Dial uses it;
// tests hand it one end of a pipe).
func NewConn(ctx context.Context, nc net.Conn, addr string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	c := &Conn{addr: addr, opts: opts, nc: nc, done: make(chan struct{})}
	c.mu.calls = make(map[uint32]chan response)
	deadline := time.Now().Add(opts.DialTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = nc.SetDeadline(deadline)
	if opts.Auth != nil {
		if err := c.authenticate(ctx); err != nil {
			nc.Close()
			return nil, err
		}
	} else {
		hello, err := helloBytes(opts)
		if err != nil {
			nc.Close()
			return nil, err
		}
		if _, err := nc.Write(hello); err != nil {
			nc.Close()
			return nil, &ConnError{Addr: addr, Dial: true, Err: err}
		}
	}
	_ = c.nc.SetDeadline(time.Time{})
	go c.readLoop()
	return c, nil
}

// startTLS runs the TLS handshake on nc.
func startTLS(ctx context.Context, nc net.Conn, addr string, cfg *tls.Config) (net.Conn, error) {
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	tc := tls.Client(nc, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		nc.Close()
		return nil, &HandshakeError{Addr: addr, Stage: "tls", Err: err}
	}
	return tc, nil
}

// authenticate sends the preamble with the authenticator's method, runs
// its exchange, and sends the connection header through whatever
// security layer it set up. The header names the user the exchange
// authenticated (a different one would ask the server for impersonation).
func (c *Conn) authenticate(ctx context.Context) error {
	pre := append([]byte(nil), Preamble...)
	pre[len(pre)-1] = c.opts.Auth.Method()
	if _, err := c.nc.Write(pre); err != nil {
		return &ConnError{Addr: c.addr, Dial: true, Err: err}
	}
	nc, err := c.opts.Auth.Handshake(ctx, c.nc, c.addr)
	if err != nil {
		var ce *ConnError
		if errors.As(err, &ce) {
			return err
		}
		return &HandshakeError{Addr: c.addr, Stage: "sasl", Err: err}
	}
	c.nc = nc
	hello, err := helloBytes(c.opts)
	if err != nil {
		return err
	}
	if _, err := nc.Write(hello[len(Preamble):]); err != nil {
		return &ConnError{Addr: c.addr, Dial: true, Err: err}
	}
	return nil
}

func helloBytes(opts Options) ([]byte, error) {
	user := opts.User
	if opts.Auth != nil {
		user = opts.Auth.User()
	}
	hdr := &pb.ConnectionHeader{
		UserInfo:    &pb.UserInformation{EffectiveUser: proto.String(user)},
		ServiceName: proto.String(opts.Service),
	}
	if !opts.NoCellblocks {
		hdr.CellBlockCodecClass = proto.String(codecClass)
	}
	b, err := proto.Marshal(hdr)
	if err != nil {
		return nil, fmt.Errorf("marshal connection header: %w", err)
	}
	out := append([]byte(nil), Preamble...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(b)))
	return append(out, b...), nil
}

// Addr is the server address this connection talks to.
func (c *Conn) Addr() string { return c.addr }

// Done is closed when the connection has failed or been closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is the error the connection failed with, or nil while it is usable.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mu.err
}

// Close closes the connection; calls in flight fail.
func (c *Conn) Close() error {
	c.fail(ErrClosed)
	return nil
}

// Call sends one request and waits for its response, which it unmarshals
// into resp. The Reply holds the response cellblock and the size of the
// response frame. The wait ends when ctx does; the connection then stays
// usable if the server answered anything meanwhile, and is closed if it
// stayed silent.
func (c *Conn) Call(ctx context.Context, method string, param proto.Message, priority uint32, resp proto.Message) (Reply, error) {
	id := c.nextID.Add(1) & math.MaxInt32
	frame, err := encodeRequest(ctx, id, method, param, priority)
	if err != nil {
		return Reply{}, err
	}
	ch := make(chan response, 1)
	if err := c.register(id, ch); err != nil {
		return Reply{}, err
	}
	if err := c.write(ctx, frame); err != nil {
		c.unregister(id)
		return Reply{}, err
	}
	heard := c.frames.Load()
	select {
	case r := <-ch:
		if r.err != nil {
			return Reply{Bytes: r.size}, r.err
		}
		if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(r.body, resp); err != nil {
			return Reply{Bytes: r.size}, fmt.Errorf("decode %s response from %s: %w", method, c.addr, err)
		}
		return Reply{Cells: r.cells, Bytes: r.size}, nil
	case <-ctx.Done():
		c.unregister(id)
		if c.frames.Load() == heard {
			// Not one frame arrived while this call waited: the server
			// or the network has gone silent, and a half-read frame may
			// be stuck in the stream. The next call dials afresh rather
			// than wait on this connection.
			c.fail(fmt.Errorf("no answer from %s before the call's deadline", c.addr))
		}
		return Reply{}, ctx.Err()
	}
}

// encodeRequest builds a whole request frame.
func encodeRequest(ctx context.Context, id uint32, method string, param proto.Message, priority uint32) ([]byte, error) {
	hdr := &pb.RequestHeader{
		CallId:       proto.Uint32(id),
		MethodName:   proto.String(method),
		RequestParam: proto.Bool(true),
	}
	if priority > 0 {
		hdr.Priority = proto.Uint32(priority)
	}
	if d, ok := ctx.Deadline(); ok {
		ms := time.Until(d).Milliseconds()
		if ms < 1 {
			ms = 1
		}
		hdr.Timeout = proto.Uint32(uint32(min(ms, math.MaxUint32)))
	}
	h, err := proto.Marshal(hdr)
	if err != nil {
		return nil, fmt.Errorf("marshal request header: %w", err)
	}
	p, err := proto.Marshal(param)
	if err != nil {
		return nil, fmt.Errorf("marshal %s request: %w", method, err)
	}
	frame := make([]byte, 4, 4+2*binary.MaxVarintLen32+len(h)+len(p))
	frame = protowire.AppendBytes(frame, h)
	frame = protowire.AppendBytes(frame, p)
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	return frame, nil
}

func (c *Conn) register(id uint32, ch chan response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.err != nil {
		return c.mu.err
	}
	c.mu.calls[id] = ch
	_ = c.nc.SetReadDeadline(time.Now().Add(c.opts.ReadTimeout))
	return nil
}

func (c *Conn) unregister(id uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.mu.calls, id)
	if len(c.mu.calls) == 0 && c.mu.err == nil {
		_ = c.nc.SetReadDeadline(time.Time{})
	}
}

// write sends one frame. A failed or interrupted write leaves the stream
// corrupt, so it fails the whole connection.
func (c *Conn) write(ctx context.Context, frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	deadline := time.Now().Add(c.opts.ReadTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = c.nc.SetWriteDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = c.nc.SetWriteDeadline(time.Now()) })
	_, err := c.nc.Write(frame)
	stop()
	if err != nil {
		c.fail(err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.Err()
	}
	return nil
}

// fail marks the connection failed, fails every call in flight and closes
// the socket. Only the first failure counts.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.err != nil {
		return
	}
	var ce *ConnError
	if !errors.As(err, &ce) {
		ce = &ConnError{Addr: c.addr, Err: err}
	}
	c.mu.err = ce
	for id, ch := range c.mu.calls {
		ch <- response{err: ce}
		delete(c.mu.calls, id)
	}
	close(c.done)
	_ = c.nc.Close()
}

func (c *Conn) readLoop() {
	r := bufio.NewReaderSize(c.nc, 64<<10)
	var lenBuf [4]byte
	for first := true; ; first = false {
		if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
			if first && errors.Is(err, io.EOF) && c.opts.TLS == nil {
				// What a TLS-only server does to a plaintext client.
				err = fmt.Errorf("%w (the server closed the connection before answering; if the cluster uses TLS, set hbase.client.netty.tls.enabled=true or pass --tls)", err)
			}
			c.fail(err)
			return
		}
		n := binary.BigEndian.Uint32(lenBuf[:])
		if n > maxFrame {
			c.fail(fmt.Errorf("response frame of %d bytes is too large", n))
			return
		}
		frame := make([]byte, n)
		if _, err := io.ReadFull(r, frame); err != nil {
			c.fail(err)
			return
		}
		if err := c.dispatch(frame); err != nil {
			c.fail(err)
			return
		}
		c.frames.Add(1)
		c.mu.Lock()
		if c.mu.err == nil {
			if len(c.mu.calls) == 0 {
				_ = c.nc.SetReadDeadline(time.Time{})
			} else {
				_ = c.nc.SetReadDeadline(time.Now().Add(c.opts.ReadTimeout))
			}
		}
		c.mu.Unlock()
	}
}

// dispatch decodes one response frame and hands it to its call. An error
// return means the stream can no longer be trusted.
func (c *Conn) dispatch(frame []byte) error {
	id, rsp, fatal := DecodeResponse(frame)
	if fatal != nil {
		return fatal
	}
	var re *RemoteError
	if errors.As(rsp.err, &re) && (id == connErrorCallID || re.Class == fatalClass) {
		return re
	}
	c.mu.Lock()
	ch, ok := c.mu.calls[id]
	delete(c.mu.calls, id)
	c.mu.Unlock()
	if ok {
		rsp.size = 4 + len(frame)
		ch <- rsp
	}
	return nil
}

// DecodeResponse splits a response frame (without its length prefix) into
// call id, message bytes, cellblock and exception. fatal is set when the
// frame is malformed.
func DecodeResponse(frame []byte) (id uint32, rsp response, fatal error) {
	hb, n := protowire.ConsumeBytes(frame)
	if n < 0 {
		return 0, rsp, errors.New("malformed response header length")
	}
	var hdr pb.ResponseHeader
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(hb, &hdr); err != nil {
		return 0, rsp, fmt.Errorf("malformed response header: %w", err)
	}
	id = hdr.GetCallId()
	if ex := hdr.GetException(); ex != nil {
		re := NewRemoteError(ex.GetExceptionClassName(), ex.GetStackTrace())
		re.Host, re.Port = ex.GetHostname(), int(ex.GetPort())
		re.DoNotRetry, re.Overloaded = ex.GetDoNotRetry(), ex.GetServerOverloaded()
		rsp.err = re
		return id, rsp, nil
	}
	rest := frame[n:]
	body, m := protowire.ConsumeBytes(rest)
	if m < 0 {
		return id, rsp, errors.New("malformed response message length")
	}
	rsp.body = body
	if cbm := hdr.GetCellBlockMeta(); cbm != nil && cbm.GetLength() > 0 {
		l := int(cbm.GetLength())
		if l > len(rest)-m {
			return id, rsp, fmt.Errorf("cellblock of %d bytes overruns the frame", l)
		}
		rsp.cells = frame[len(frame)-l:]
	}
	return id, rsp, nil
}

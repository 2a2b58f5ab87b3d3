package rpc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// fakeServer is the server end of a pipe. It checks the hello and then
// returns each request to the test through reqs.
type fakeServer struct {
	t    *testing.T
	nc   net.Conn
	hdr  *pb.ConnectionHeader
	reqs chan fakeReq
}

type fakeReq struct {
	hdr   *pb.RequestHeader
	param []byte
}

func newPair(t *testing.T, opts Options) (*Conn, *fakeServer) {
	t.Helper()
	cli, srv := net.Pipe()
	fs := &fakeServer{t: t, nc: srv, reqs: make(chan fakeReq, 16)}
	helloDone := make(chan error, 1)
	go func() { helloDone <- fs.readHello() }()
	c, err := NewConn(context.Background(), cli, "pipe", opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-helloDone; err != nil {
		t.Fatal(err)
	}
	go fs.readRequests()
	t.Cleanup(func() { c.Close(); srv.Close() })
	return c, fs
}

func (fs *fakeServer) readHello() error {
	pre := make([]byte, 6)
	if _, err := io.ReadFull(fs.nc, pre); err != nil {
		return err
	}
	if !bytes.Equal(pre, Preamble) {
		return errors.New("bad preamble")
	}
	b, err := readFrame(fs.nc)
	if err != nil {
		return err
	}
	fs.hdr = &pb.ConnectionHeader{}
	return proto.Unmarshal(b, fs.hdr)
}

func readFrame(r io.Reader) ([]byte, error) {
	var l [4]byte
	if _, err := io.ReadFull(r, l[:]); err != nil {
		return nil, err
	}
	b := make([]byte, binary.BigEndian.Uint32(l[:]))
	_, err := io.ReadFull(r, b)
	return b, err
}

func (fs *fakeServer) readRequests() {
	for {
		b, err := readFrame(fs.nc)
		if err != nil {
			close(fs.reqs)
			return
		}
		hb, n := protowire.ConsumeBytes(b)
		pb2, _ := protowire.ConsumeBytes(b[n:])
		var h pb.RequestHeader
		if err := proto.Unmarshal(hb, &h); err != nil {
			fs.t.Errorf("bad request header: %v", err)
		}
		fs.reqs <- fakeReq{hdr: &h, param: pb2}
	}
}

// reply writes a response frame: header, optional message, optional cells.
// reply writes a response frame and returns its size on the wire.
func (fs *fakeServer) reply(id uint32, ex *pb.ExceptionResponse, msg proto.Message, cells []byte) int {
	hdr := &pb.ResponseHeader{CallId: proto.Uint32(id), Exception: ex}
	if len(cells) > 0 {
		hdr.CellBlockMeta = &pb.CellBlockMeta{Length: proto.Uint32(uint32(len(cells)))}
	}
	h, _ := proto.Marshal(hdr)
	frame := make([]byte, 4)
	frame = protowire.AppendBytes(frame, h)
	if msg != nil {
		m, _ := proto.Marshal(msg)
		frame = protowire.AppendBytes(frame, m)
	}
	frame = append(frame, cells...)
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	if _, err := fs.nc.Write(frame); err != nil {
		fs.t.Errorf("write reply: %v", err)
	}
	return len(frame)
}

func TestHello(t *testing.T) {
	_, fs := newPair(t, Options{Service: MasterService, User: "alice"})
	if got := fs.hdr.GetServiceName(); got != MasterService {
		t.Errorf("service = %q", got)
	}
	if got := fs.hdr.GetUserInfo().GetEffectiveUser(); got != "alice" {
		t.Errorf("user = %q", got)
	}
	if got := fs.hdr.GetCellBlockCodecClass(); got != codecClass {
		t.Errorf("codec = %q", got)
	}
}

func TestCallsMatchedByIDOutOfOrder(t *testing.T) {
	c, fs := newPair(t, Options{})
	type out struct {
		name string
		rep  Reply
		err  error
	}
	results := make(chan out, 2)
	for _, name := range []string{"a", "b"} {
		go func() {
			var resp pb.TableName
			rep, err := c.Call(context.Background(), "Get", &pb.TableName{Namespace: []byte("ns"), Qualifier: []byte(name)}, 200, &resp)
			if err == nil && string(resp.GetQualifier()) != name+"-reply" {
				err = errors.New("reply for " + string(resp.GetQualifier()))
			}
			results <- out{name, rep, err}
		}()
	}
	var got []fakeReq
	for range 2 {
		got = append(got, <-fs.reqs)
	}
	for _, r := range got {
		if !r.hdr.GetRequestParam() || r.hdr.GetMethodName() != "Get" || r.hdr.GetPriority() != 200 {
			t.Errorf("bad header %v", r.hdr)
		}
	}
	// Reply in reverse order, each with a cellblock.
	sizes := map[string]int{}
	for i := len(got) - 1; i >= 0; i-- {
		var p pb.TableName
		if err := proto.Unmarshal(got[i].param, &p); err != nil {
			t.Fatal(err)
		}
		reply := &pb.TableName{Namespace: []byte("ns"), Qualifier: append(p.Qualifier, "-reply"...)}
		sizes[string(p.Qualifier)] = fs.reply(got[i].hdr.GetCallId(), nil, reply, []byte(string(p.Qualifier)+"-cells"))
	}
	for range 2 {
		o := <-results
		if o.err != nil {
			t.Fatal(o.err)
		}
		if string(o.rep.Cells) != o.name+"-cells" {
			t.Errorf("%s: cells = %q", o.name, o.rep.Cells)
		}
		if o.rep.Bytes != sizes[o.name] || o.rep.Bytes == 0 {
			t.Errorf("%s: bytes = %d, the frame written was %d", o.name, o.rep.Bytes, sizes[o.name])
		}
	}
}

func TestRemoteExceptionKeepsConnection(t *testing.T) {
	c, fs := newPair(t, Options{})
	errc := make(chan error, 1)
	repc := make(chan Reply, 1)
	go func() {
		rep, err := c.Call(context.Background(), "Get", &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}, 0, &pb.TableName{})
		errc <- err
		repc <- rep
	}()
	r := <-fs.reqs
	size := fs.reply(r.hdr.GetCallId(), &pb.ExceptionResponse{
		ExceptionClassName: proto.String("org.apache.hadoop.hbase.TableNotFoundException"),
		StackTrace:         proto.String("org.apache.hadoop.hbase.TableNotFoundException: nope\n\tat x.y(Z.java:1)"),
		DoNotRetry:         proto.Bool(true),
	}, nil, nil)
	err := <-errc
	if rep := <-repc; rep.Bytes != size {
		t.Errorf("bytes of the exception response = %d, want %d", rep.Bytes, size)
	}
	var re *RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want RemoteError", err)
	}
	if re.Message != "nope" || !re.DoNotRetry || re.Error() != "TableNotFoundException: nope" {
		t.Errorf("remote error = %+v (%q)", re, re.Error())
	}
	if c.Err() != nil {
		t.Errorf("connection failed after a call exception: %v", c.Err())
	}
}

func TestCallContextDeadline(t *testing.T) {
	c, fs := newPair(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Call(ctx, "Get", &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}, 0, &pb.TableName{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	r := <-fs.reqs
	if r.hdr.GetTimeout() == 0 || r.hdr.GetTimeout() > 50 {
		t.Errorf("request timeout = %d ms", r.hdr.GetTimeout())
	}
	// The server said nothing while the call waited: the connection is
	// given up, so the next call dials afresh instead of waiting on it.
	if c.Err() == nil {
		t.Errorf("a connection silent past a call's deadline is still in use")
	}
}

// A call whose wait ends while the server answers other calls leaves the
// connection usable, and its late reply is dropped. The wait ends when the
// test cancels it, once the other call is answered (a deadline ends it the
// same way), so a slow machine cannot end it before.
func TestCallContextDeadlineBusyServer(t *testing.T) {
	c, fs := newPair(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msg := &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}
	slow := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "Get", msg, 0, &pb.TableName{})
		slow <- err
	}()
	first := <-fs.reqs
	other := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "Get", msg, 0, &pb.TableName{})
		other <- err
	}()
	second := <-fs.reqs
	fs.reply(second.hdr.GetCallId(), nil, msg, nil)
	if err := <-other; err != nil {
		t.Fatalf("the answered call: %v", err)
	}
	cancel()
	if err := <-slow; !errors.Is(err, context.Canceled) {
		t.Fatalf("the slow call: %v", err)
	}
	fs.reply(first.hdr.GetCallId(), nil, msg, nil)
	// A third call's answer comes after the late reply on the wire, so
	// once it is read the late reply has been dropped.
	third := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "Get", msg, 0, &pb.TableName{})
		third <- err
	}()
	fs.reply((<-fs.reqs).hdr.GetCallId(), nil, msg, nil)
	if err := <-third; err != nil {
		t.Fatalf("a call after the late reply: %v", err)
	}
	if c.Err() != nil {
		t.Errorf("connection failed: %v", c.Err())
	}
}

func TestReadTimeoutFailsConnection(t *testing.T) {
	c, _ := newPair(t, Options{ReadTimeout: 50 * time.Millisecond})
	_, err := c.Call(context.Background(), "Get", &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}, 0, &pb.TableName{})
	var ce *ConnError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timed-out ConnError", err)
	}
	select {
	case <-c.Done():
	default:
		t.Error("Done not closed")
	}
}

func TestServerCloseFailsInFlightCalls(t *testing.T) {
	c, fs := newPair(t, Options{})
	errc := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "Get", &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}, 0, &pb.TableName{})
		errc <- err
	}()
	<-fs.reqs
	fs.nc.Close()
	var ce *ConnError
	if err := <-errc; !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ConnError", err)
	}
	if _, err := c.Call(context.Background(), "Get", &pb.TableName{Namespace: []byte("a"), Qualifier: []byte("b")}, 0, &pb.TableName{}); !errors.As(err, &ce) {
		t.Fatalf("call on failed conn: err = %v", err)
	}
}

func TestConnectionLevelExceptionIsFatal(t *testing.T) {
	c, fs := newPair(t, Options{})
	fs.reply(connErrorCallID, &pb.ExceptionResponse{
		ExceptionClassName: proto.String("org.apache.hadoop.hbase.ipc.BadAuthException"),
		StackTrace:         proto.String("org.apache.hadoop.hbase.ipc.BadAuthException: no"),
	}, nil, nil)
	select {
	case <-c.Done():
	case <-time.After(time.Second):
		t.Fatal("connection still open")
	}
	if !strings.Contains(c.Err().Error(), "BadAuthException: no") {
		t.Errorf("err = %v", c.Err())
	}
}

func TestDialRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = Dial(ctx, addr, Options{})
	var ce *ConnError
	if !errors.As(err, &ce) || !ce.Dial {
		t.Fatalf("err = %v", err)
	}
	want := "cannot reach " + addr + ": connection refused"
	if err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

func TestDecodeResponseRejectsOverrun(t *testing.T) {
	hdr, _ := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(1), CellBlockMeta: &pb.CellBlockMeta{Length: proto.Uint32(100)}})
	frame := protowire.AppendBytes(nil, hdr)
	frame = protowire.AppendBytes(frame, nil)
	frame = append(frame, 1, 2, 3)
	if _, _, err := DecodeResponse(frame); err == nil {
		t.Error("want an overrun error")
	}
	if _, _, err := DecodeResponse([]byte{0xff}); err == nil {
		t.Error("want a malformed header error")
	}
}

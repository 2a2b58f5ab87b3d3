package hbasetest

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// LatencyNet stands in for a network between a client and HBase: it puts
// a TCP proxy on 127.0.0.1 in front of every server address the client
// dials (the master, the server of hbase:meta, each region server), and
// each proxy holds every RPC request for Delay before it passes it on.
// Its Dial is an hbase.Config.Dial: the client finds the servers through
// ZooKeeper and hbase:meta as usual, and every connection it opens goes
// through the proxy of that server.
//
// A request is one frame of HBase's RPC protocol: after the 6-byte
// connection preamble and the length-prefixed connection header, each
// frame is a 4-byte big-endian length and that many bytes. The proxy
// delays frames as a network line delays packets: a frame read at t is
// written at t+Delay, so calls in flight together on one connection are
// delayed together, not one after another. Responses pass at once, so a
// call's round trip grows by Delay. On a connection that does not start
// with the plain preamble (TLS, SASL) every chunk the client writes is
// delayed and counted instead.
type LatencyNet struct {
	delay    time.Duration
	requests atomic.Int64
	conns    atomic.Int64

	mu      sync.Mutex
	closed  bool
	proxies map[string]string // target → proxy address
	lns     []net.Listener
	open    map[net.Conn]bool
}

// NewLatencyNet returns a LatencyNet that delays each request by delay.
func NewLatencyNet(delay time.Duration) *LatencyNet {
	return &LatencyNet{delay: delay, proxies: map[string]string{}, open: map[net.Conn]bool{}}
}

// Delay is the delay added to each request.
func (n *LatencyNet) Delay() time.Duration { return n.delay }

// Requests is the number of request frames delayed so far.
func (n *LatencyNet) Requests() int64 { return n.requests.Load() }

// Conns is the number of client connections proxied so far.
func (n *LatencyNet) Conns() int64 { return n.conns.Load() }

// Targets lists the server addresses that have a proxy, sorted.
func (n *LatencyNet) Targets() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]string, 0, len(n.proxies))
	for t := range n.proxies {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Dial opens a connection to addr through its proxy, starting the proxy
// on first use.
func (n *LatencyNet) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	p, err := n.proxy(addr)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	return d.DialContext(ctx, network, p)
}

// Close stops every proxy and closes every connection through them.
func (n *LatencyNet) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for _, ln := range n.lns {
		ln.Close()
	}
	for c := range n.open {
		c.Close()
	}
	return nil
}

func (n *LatencyNet) proxy(target string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return "", errors.New("hbasetest: latency network closed")
	}
	if a, ok := n.proxies[target]; ok {
		return a, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	n.lns = append(n.lns, ln)
	n.proxies[target] = ln.Addr().String()
	go n.accept(ln, target)
	return ln.Addr().String(), nil
}

func (n *LatencyNet) accept(ln net.Listener, target string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go n.serve(c, target)
	}
}

// track registers c to be closed by Close; it fails once closed.
func (n *LatencyNet) track(cs ...net.Conn) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	for _, c := range cs {
		n.open[c] = true
	}
	return true
}

func (n *LatencyNet) untrack(cs ...net.Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(n.open, c)
	}
}

func (n *LatencyNet) serve(c net.Conn, target string) {
	s, err := net.Dial("tcp", target)
	if err != nil {
		c.Close()
		return
	}
	if !n.track(c, s) {
		c.Close()
		s.Close()
		return
	}
	n.conns.Add(1)
	defer n.untrack(c, s)
	go func() {
		defer n.untrack(c, s)
		_, _ = io.Copy(c, s)
	}()
	n.forward(s, c)
}

// held is bytes to write once due.
type held struct {
	due  time.Time
	data []byte
}

// forward copies the client's bytes to the server through a delay line.
func (n *LatencyNet) forward(dst io.Writer, src net.Conn) {
	line := make(chan held, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		failed := false
		for h := range line {
			if failed {
				continue
			}
			if d := time.Until(h.due); d > 0 {
				time.Sleep(d)
			}
			if _, err := dst.Write(h.data); err != nil {
				failed = true
				src.Close()
			}
		}
	}()
	n.readFrames(src, line)
	close(line)
	<-done
}

// readFrames reads the client's stream and queues it on line: the
// preamble and connection header at once, then each request frame (or,
// on a connection that is not plain HBase RPC, each chunk) with its delay.
func (n *LatencyNet) readFrames(src io.Reader, line chan<- held) {
	r := bufio.NewReaderSize(src, 64<<10)
	pre := make([]byte, 6)
	if _, err := io.ReadFull(r, pre); err != nil {
		return
	}
	plain := string(pre[:4]) == "HBas" && pre[5] == 0x50
	if !plain {
		line <- held{due: time.Now().Add(n.delay), data: pre}
		n.requests.Add(1)
		for {
			buf := make([]byte, 32<<10)
			k, err := r.Read(buf)
			if k > 0 {
				line <- held{due: time.Now().Add(n.delay), data: buf[:k]}
				n.requests.Add(1)
			}
			if err != nil {
				return
			}
		}
	}
	header, err := readFrame(r)
	if err != nil {
		return
	}
	line <- held{data: append(pre, header...)}
	for {
		f, err := readFrame(r)
		if err != nil {
			return
		}
		n.requests.Add(1)
		line <- held{due: time.Now().Add(n.delay), data: f}
	}
}

// readFrame reads one length-prefixed frame, prefix included.
func readFrame(r io.Reader) ([]byte, error) {
	var l [4]byte
	if _, err := io.ReadFull(r, l[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(l[:])
	if size > 512<<20 {
		return nil, errors.New("hbasetest: frame too large")
	}
	f := make([]byte, 4+int(size))
	copy(f, l[:])
	if _, err := io.ReadFull(r, f[4:]); err != nil {
		return nil, err
	}
	return f, nil
}

package main

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// netState is what a faultNet does with traffic.
type netState int

const (
	netPass netState = iota // forward everything
	netHang                 // hold every byte; accept connections and never answer
	netDown                 // close every connection; accept and close new ones
)

// faultNet is a set of TCP proxies on 127.0.0.1, one in front of each
// server address the client dials (ZooKeeper, master, region server),
// that a test can cut: netHang is a server that stops answering, netDown
// a server that is gone. Going back to netPass closes every connection
// first, as a server restart does.
type faultNet struct {
	t        *testing.T
	fromSrv  atomic.Int64 // bytes servers sent to the client
	mu       sync.Mutex
	state    netState
	changed  chan struct{} // closed and replaced on every state change
	proxies  map[string]string
	conns    map[net.Conn]bool
	cutAfter int64
	cutTo    netState
	cut      chan struct{} // closed when an armed cut happens
}

func newFaultNet(t *testing.T) *faultNet {
	return &faultNet{t: t, changed: make(chan struct{}), proxies: map[string]string{}, conns: map[net.Conn]bool{}}
}

// proxy returns the address of the proxy in front of target, starting it
// on first use.
func (f *faultNet) proxy(target string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a, ok := f.proxies[target]; ok {
		return a
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { ln.Close() })
	go f.accept(ln, target)
	f.proxies[target] = ln.Addr().String()
	return ln.Addr().String()
}

// dial is an hbase.Config.Dial that goes through the proxies.
func (f *faultNet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, f.proxy(addr))
}

func (f *faultNet) accept(ln net.Listener, target string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go f.serve(c, target)
	}
}

func (f *faultNet) serve(c net.Conn, target string) {
	if !f.track(c) || !f.wait() {
		c.Close()
		return
	}
	s, err := net.Dial("tcp", target)
	if err != nil {
		c.Close()
		return
	}
	if !f.track(s) {
		c.Close()
		s.Close()
		return
	}
	go f.copy(s, c, false)
	f.copy(c, s, true)
}

// track registers a connection, unless the network is down.
func (f *faultNet) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state == netDown {
		return false
	}
	f.conns[c] = true
	return true
}

func (f *faultNet) untrack(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(f.conns, c)
	}
}

// copy forwards src to dst, holding bytes while the network hangs.
func (f *faultNet) copy(dst, src net.Conn, fromServer bool) {
	defer f.untrack(dst, src)
	buf := make([]byte, 16<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if fromServer {
				f.count(int64(n))
			}
			if !f.wait() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // either side closing ends both, as the client expects
		}
	}
}

// wait blocks while the network hangs; it reports whether to go on.
func (f *faultNet) wait() bool {
	for {
		f.mu.Lock()
		st, ch := f.state, f.changed
		f.mu.Unlock()
		switch st {
		case netPass:
			return true
		case netDown:
			return false
		}
		<-ch
	}
}

// count adds server bytes and makes an armed cut when they pass the mark.
func (f *faultNet) count(n int64) {
	total := f.fromSrv.Add(n)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cut != nil && f.cutAfter > 0 && total >= f.cutAfter {
		f.cutAfter = 0
		f.setLocked(f.cutTo)
		close(f.cut)
	}
}

// arm makes the network go to state once servers have sent n more bytes;
// the returned channel closes then.
func (f *faultNet) arm(n int64, state netState) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cutAfter, f.cutTo, f.cut = f.fromSrv.Load()+n, state, make(chan struct{})
	return f.cut
}

// restore lets traffic through again, after closing every connection.
func (f *faultNet) restore() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setLocked(netPass)
}

func (f *faultNet) setLocked(st netState) {
	if st == netDown || (st == netPass && f.state != netPass) {
		for c := range f.conns {
			c.Close()
		}
		clear(f.conns)
	}
	f.state = st
	close(f.changed)
	f.changed = make(chan struct{})
}

package hbase

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// deadAddr returns a loopback address where nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// silentAddr returns a loopback address that accepts connections and
// never answers.
func silentAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	return l.Addr().String()
}

func TestNewClientDeadZooKeeper(t *testing.T) {
	addr := deadAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := NewClient(ctx, Config{ZKQuorum: addr})
	if err == nil {
		t.Fatal("want an error")
	}
	if want := "hbase: cannot reach zookeeper " + addr + ": connection refused"; err.Error() != want {
		t.Errorf("err %q, want %q", err, want)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
}

// deadRegionClient is a client whose cache and meta location point at addr.
func deadRegionClient(addr string, cfg Config) *Client {
	c := testClient(cfg)
	c.mu.meta = addr
	c.cache.add(&Region{Table: "t", Name: []byte("t,,1.x."), Server: addr})
	return c
}

func TestGetFromDeadRegionServer(t *testing.T) {
	addr := deadAddr(t)
	c := deadRegionClient(addr, Config{MaxAttempts: 1})
	g, _ := NewGet("t", []byte("k"))
	_, err := c.Get(context.Background(), g)
	var srvErr *ServerError
	if !errors.As(err, &srvErr) || !srvErr.Unreachable {
		t.Fatalf("err %v, want an unreachable ServerError", err)
	}
	if !strings.Contains(err.Error(), "cannot reach region server "+addr+": connection refused") {
		t.Errorf("err %q", err)
	}
	if c.cache.lookup("t", []byte("k"), false) != nil {
		t.Error("region on the dead server is still cached")
	}
}

func TestGetFromSilentServerEndsWithContext(t *testing.T) {
	addr := silentAddr(t)
	c := deadRegionClient(addr, Config{})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	g, _ := NewGet("t", []byte("k"))
	_, err := c.Get(ctx, g)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	// The scanner path too.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	s, _ := NewScan("t", nil, nil)
	sc := c.Scan(s)
	defer sc.Close()
	if _, err := sc.Next(ctx2); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("scan err %v", err)
	}
}

func TestSilentServerReadTimeout(t *testing.T) {
	addr := silentAddr(t)
	c := deadRegionClient(addr, Config{RPCTimeout: 100 * time.Millisecond, MaxAttempts: 2, RetryBackoff: time.Millisecond})
	defer c.Close()
	g, _ := NewGet("t", []byte("k"))
	start := time.Now()
	_, err := c.Get(context.Background(), g)
	if !strings.Contains(err.Error(), "lost connection to region server "+addr+": timed out") {
		t.Fatalf("err %v", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
}

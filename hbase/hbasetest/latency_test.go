package hbasetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"
)

func frame(payload string) []byte {
	b := make([]byte, 4+len(payload))
	binary.BigEndian.PutUint32(b, uint32(len(payload)))
	copy(b[4:], payload)
	return b
}

// TestLatencyNetCountsFrames sends the preamble, a connection header and
// five request frames through a LatencyNet to a server that reads them:
// the server gets the bytes unchanged, and five requests are delayed.
func TestLatencyNetCountsFrames(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	want := append([]byte("HBas\x00\x50"), frame("header")...)
	for _, p := range []string{"a", "bb", "", "dddd", "eeeee"} {
		want = append(want, frame(p)...)
	}
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		b := make([]byte, len(want))
		_, err = io.ReadFull(c, b)
		if err != nil {
			b = nil
		}
		_, _ = c.Write([]byte("ok"))
		got <- b
	}()

	n := NewLatencyNet(time.Millisecond)
	defer n.Close()
	c, err := n.Dial(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// In pieces, as a client may write them.
	for i := 0; i < len(want); i += 3 {
		if _, err := c.Write(want[i:min(i+3, len(want))]); err != nil {
			t.Fatal(err)
		}
	}
	reply := make([]byte, 2)
	if _, err := io.ReadFull(c, reply); err != nil || string(reply) != "ok" {
		t.Fatalf("reply %q, %v", reply, err)
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("server read %q, want %q", b, want)
	}
	if r := n.Requests(); r != 5 {
		t.Fatalf("%d requests delayed, want 5", r)
	}
	if c := n.Conns(); c != 1 {
		t.Fatalf("%d connections, want 1", c)
	}
	if tg := n.Targets(); len(tg) != 1 || tg[0] != ln.Addr().String() {
		t.Fatalf("targets %v", tg)
	}
}

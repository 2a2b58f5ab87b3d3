package zk

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestParseQuorum(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  bool
	}{
		{in: "127.0.0.1:2181", want: "127.0.0.1:2181"},
		{in: "a,b:2182", want: "a:2181 b:2182"},
		{in: " zk1 , zk2 ", want: "zk1:2181 zk2:2181"},
		{in: "", err: true},
		{in: ",", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseQuorum(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("got %q, want %q", s, tt.want)
			}
		})
	}
}

// znode builds a value the way HBase writes it: metadata, PBUF, message.
func znode(t *testing.T, withMeta bool, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	if withMeta {
		id := append([]byte("rs1.example:16020"), 0, 0, 0, 0, 0, 0, 0, 0)
		out = append(out, 0xFF, 0, 0, 0, byte(len(id)))
		out = append(out, id...)
	}
	out = append(out, "PBUF"...)
	return append(out, b...)
}

func TestDecodeMetaRegionServer(t *testing.T) {
	msg := &pb.MetaRegionServer{
		Server:     &pb.ServerName{HostName: proto.String("rs1.example"), Port: proto.Uint32(16020), StartCode: proto.Uint64(1525826512216)},
		RpcVersion: proto.Uint32(0),
		State:      proto.Uint32(3),
	}
	for _, withMeta := range []bool{true, false} {
		var m pb.MetaRegionServer
		if err := decode(znode(t, withMeta, msg), &m); err != nil {
			t.Fatal(err)
		}
		addr, err := serverAddr(m.GetServer())
		if err != nil || addr != "rs1.example:16020" {
			t.Errorf("withMeta=%v: addr %q err %v", withMeta, addr, err)
		}
	}
}

func TestWorkedExampleBytes(t *testing.T) {
	// The znode of the wire notes' worked example, message part.
	msg := []byte{0x0a, 0x17,
		0x0a, 0x0b, 'r', 's', '1', '.', 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		0x10, 0x94, 0x7d,
		0x18, 0xd8, 0xca, 0xe3, 0x92, 0xb4, 0x2c,
		0x10, 0x00, 0x18, 0x03}
	data := append([]byte("PBUF"), msg...)
	var m pb.MetaRegionServer
	if err := decode(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.GetServer().GetStartCode() != 1525826512216 || m.GetState() != 3 || m.GetServer().GetPort() != 16020 {
		t.Errorf("decoded %v", &m)
	}
}

func TestPayloadErrors(t *testing.T) {
	for _, data := range [][]byte{
		{0xFF, 0, 0},
		{0xFF, 0, 0, 0, 0},
		{0xFF, 0, 0, 0, 50, 'x'},
		[]byte("NOPE"),
		nil,
	} {
		if _, err := Payload(data); err == nil {
			t.Errorf("Payload(%x): want error", data)
		}
	}
	got, err := Payload(append([]byte("PBUF"), 1, 2))
	if err != nil || !bytes.Equal(got, []byte{1, 2}) {
		t.Errorf("Payload = %x, %v", got, err)
	}
}

func TestUnreachableQuorumEndsWithContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Locator{Quorum: []string{addr}}.Meta(ctx)
	if err == nil {
		t.Fatal("want an error")
	}
	if !strings.Contains(err.Error(), "cannot reach zookeeper "+addr+": connection refused") {
		t.Errorf("err = %q", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
}

func TestPath(t *testing.T) {
	for _, tt := range []struct{ root, want string }{
		{"", "/hbase/master"},
		{"/hbase-unsecure/", "/hbase-unsecure/master"},
	} {
		if got := (Locator{Root: tt.root}).path(MasterZNode); got != tt.want {
			t.Errorf("root %q: %q", tt.root, got)
		}
	}
}

func TestSilentQuorumEndsWithContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Locator{Quorum: []string{l.Addr().String()}}.Master(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
}

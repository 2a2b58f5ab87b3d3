package zk_test

import (
	"context"
	"strings"
	"testing"
	"time"

	gozk "github.com/go-zookeeper/zk"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/hbase/zk"
)

// TestUnreadableZnode reads a meta znode whose ACL lets only a digest user
// read it (anyone may read the ACL): the error names the znode and its ACL.
func TestUnreadableZnode(t *testing.T) {
	q := hbasetest.Quorum(t)
	servers, err := zk.ParseQuorum(q)
	if err != nil {
		t.Fatal(err)
	}
	conn, _, err := gozk.Connect(servers, 5*time.Second, gozk.WithLogger(quiet{}))
	if err != nil {
		t.Fatal(err)
	}
	root := "/" + hbasetest.TableName("rkql_acl")
	if _, err := conn.Create(root, nil, 0, gozk.WorldACL(gozk.PermAll)); err != nil {
		t.Fatal(err)
	}
	node := root + "/" + zk.MetaZNode
	// Anyone may read the ACL (ADMIN), only the digest user the data.
	acl := append(gozk.DigestACL(gozk.PermAll, "admin", "secret"), gozk.WorldACL(gozk.PermAdmin)...)
	if _, err := conn.Create(node, []byte("PBUF"), 0, acl); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := conn.AddAuth("digest", []byte("admin:secret")); err != nil {
			t.Error(err)
		}
		if err := conn.Delete(node, -1); err != nil {
			t.Errorf("delete %s: %v", node, err)
		}
		if err := conn.Delete(root, -1); err != nil {
			t.Errorf("delete %s: %v", root, err)
		}
		conn.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = zk.Locator{Quorum: servers, Root: root}.Meta(ctx)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{node + " is not readable without authentication", "(ACL digest:admin:", ":rwcda,world:anyone:a)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

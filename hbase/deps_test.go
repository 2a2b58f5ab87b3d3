package hbase

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies checks that the client imports no other rkql package
// and nothing outside the standard library but ZooKeeper, protobuf and
// gokrb5 (with its own dependencies).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	allowed := []string{
		"github.com/rkql/rkql/hbase",
		"github.com/go-zookeeper/zk",
		"google.golang.org/protobuf",
		// Kerberos (SASL GSSAPI) and what it brings.
		"github.com/jcmturner/",
		"github.com/hashicorp/go-uuid",
		"golang.org/x/crypto",
		"golang.org/x/net/http2/hpack", // via gokrb5/pac
	}
	for _, dep := range strings.Fields(string(out)) {
		ok := false
		for _, a := range allowed {
			if dep == a || strings.HasPrefix(dep, strings.TrimSuffix(a, "/")+"/") {
				ok = true
			}
		}
		if !ok {
			t.Errorf("hbase depends on %s", dep)
		}
	}
}

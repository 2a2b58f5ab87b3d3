package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rkql/rkql/cmd/rkql/shell"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

// connOptions are the flags that say how to reach and log in to a
// cluster. They override hbase-site.xml.
type connOptions struct {
	hbaseConf     string
	user          string
	principal     string
	keytab        string
	rpcProtection string
	tls           bool
	tlsCA         string
	tlsCert       string
	tlsKey        string
	tlsInsecure   bool
	// set holds the names of the flags given on the command line.
	set map[string]bool
	// site is the resolved configuration, once checkCommon has run.
	site *hbase.Site
}

func connFlags(fs *flag.FlagSet, o *options) {
	c := &o.conn
	fs.StringVar(&c.hbaseConf, "hbase-conf", "", "read the cluster's hbase-site.xml and core-site.xml from `dir` (default $HBASE_CONF_DIR with --zk); flags override it")
	fs.StringVar(&c.user, "user", "", "user `name` sent to HBase with SIMPLE authentication (default: the OS user)")
	fs.StringVar(&c.principal, "principal", "", "Kerberos `principal` to log in as with --keytab (hbase.client.keytab.principal)")
	fs.StringVar(&c.keytab, "keytab", "", "Kerberos keytab `file`; implies hbase.security.authentication=kerberos (default: the ticket cache, $KRB5CCNAME)")
	fs.StringVar(&c.rpcProtection, "rpc-protection", "", "SASL protection: authentication, integrity or privacy (hbase.rpc.protection)")
	fs.BoolVar(&c.tls, "tls", false, "connect to HBase's RPC servers with TLS (hbase.client.netty.tls.enabled)")
	fs.StringVar(&c.tlsCA, "tls-ca", "", "PEM `file` of the CAs that sign the servers' certificates (hbase.rpc.tls.truststore.location); implies --tls")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "PEM `file` with the client certificate, and its key unless --tls-key (hbase.rpc.tls.keystore.location); implies --tls")
	fs.StringVar(&c.tlsKey, "tls-key", "", "PEM `file` with the client certificate's key")
	fs.BoolVar(&c.tlsInsecure, "tls-insecure", false, "accept any server certificate (tests only); implies --tls")
}

// usesHBase reports whether the flags name a real cluster rather than the
// embedded store.
func (o *options) usesHBase() bool { return o.zk != "" || o.conn.hbaseConf != "" }

// quorum is the ZooKeeper quorum in effect, for messages.
func (o *options) quorum() string {
	if o.conn.site != nil {
		if q := o.conn.site.Quorum(); q != "" {
			return q
		}
	}
	if o.zk != "" {
		return o.zk
	}
	return "127.0.0.1:2181"
}

// resolveConn builds the connection settings from hbase-site.xml, the
// environment and the flags, in rising order of precedence.
func resolveConn(fs *flag.FlagSet, o *options, getenv func(string) string) (*hbase.Site, error) {
	c := &o.conn
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	dir, dirSource := c.hbaseConf, "flag --hbase-conf"
	if dir == "" && o.zk != "" && getenv("HBASE_CONF_DIR") != "" {
		dir, dirSource = getenv("HBASE_CONF_DIR"), "env HBASE_CONF_DIR"
	}
	site := &hbase.Site{}
	if dir != "" {
		var err error
		if site, err = hbase.LoadSite(dir); err != nil {
			return nil, fmt.Errorf("%s: %w", dirSource, err)
		}
	}
	if v := getenv("KRB5CCNAME"); v != "" {
		site.Set(hbase.PropTicketCache, v, "env KRB5CCNAME")
	}
	if v := getenv("KRB5_CONFIG"); v != "" {
		site.Set(hbase.PropKrb5Conf, v, "env KRB5_CONFIG")
	}
	flagProp := []struct {
		flag, prop, value string
	}{
		{"zk", hbase.PropQuorum, o.zk},
		{"zk-root", hbase.PropZNodeParent, o.zkRoot},
		{"user", hbase.PropUser, c.user},
		{"principal", hbase.PropClientPrincipal, c.principal},
		{"keytab", hbase.PropClientKeytab, c.keytab},
		{"rpc-protection", hbase.PropRPCProtection, c.rpcProtection},
		{"tls-ca", hbase.PropTrustStore, c.tlsCA},
		{"tls-cert", hbase.PropKeyStore, c.tlsCert},
		{"tls-key", hbase.PropTLSKey, c.tlsKey},
		{"tls-insecure", hbase.PropTLSInsecure, fmt.Sprint(c.tlsInsecure)},
		{"tls", hbase.PropTLSEnabled, fmt.Sprint(c.tls)},
	}
	for _, fp := range flagProp {
		if c.set[fp.flag] {
			site.Set(fp.prop, fp.value, "flag --"+fp.flag)
		}
	}
	if c.set["tls-ca"] {
		site.Set(hbase.PropTrustStoreType, "PEM", "flag --tls-ca")
	}
	if c.set["tls-cert"] {
		site.Set(hbase.PropKeyStoreType, "PEM", "flag --tls-cert")
	}
	for _, f := range []string{"tls-ca", "tls-cert", "tls-insecure"} {
		if c.set[f] && !c.set["tls"] {
			site.Set(hbase.PropTLSEnabled, "true", "flag --"+f)
		}
	}
	if c.set["keytab"] {
		if v, _ := site.Get(hbase.PropAuthentication); !strings.EqualFold(v, "kerberos") {
			site.Set(hbase.PropAuthentication, "kerberos", "flag --keytab")
		}
	}
	return site, nil
}

// connSettings lists the connection settings in effect and where each
// came from. It does not connect.
func connSettings(o *options) []hbase.Setting {
	if o.conn.site == nil {
		return nil
	}
	return o.conn.site.Settings()
}

// writeConnSettings prints the settings as an aligned table.
func writeConnSettings(w io.Writer, settings []hbase.Setting) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "setting\tvalue\tfrom")
	for _, s := range settings {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Value, s.Source)
	}
	return tw.Flush()
}

// runConnInfo is "rkql conninfo [flags]": the connection settings the
// same flags would use, without connecting.
func runConnInfo(args []string, e env) int {
	o := &options{}
	fs := flag.NewFlagSet("rkql conninfo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	commonFlags(fs, o)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usageFunc(fs, e.stdout, "usage: rkql conninfo [flags]   show the HBase connection settings in effect and where each came from\nflags:\n")()
			return exitOK
		}
		return reportStartup(e, &usageError{msg: err.Error() + " (rkql conninfo -h for help)"})
	}
	if fs.NArg() > 0 {
		return reportStartup(e, &usageError{msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))})
	}
	if err := checkCommon(fs, o); err != nil {
		return reportStartup(e, err)
	}
	if err := writeConnSettings(e.stdout, connSettings(o)); err != nil {
		return reportStartup(e, err)
	}
	return exitOK
}

// connectTo resolves the target of \connect: "hbase QUORUM", "embedded
// [DIR]", or a bare ZooKeeper quorum (host:port[,host:port…]). An HBase
// target keeps the session's other connection settings (root znode,
// security, --allow-writes) and changes only the quorum. release says
// whether an embedded store is held only while a statement runs.
func connectTo(o *options, target string, release bool) (shell.Connection, error) {
	fields := strings.Fields(target)
	if len(fields) == 0 {
		return shell.Connection{}, fmt.Errorf("no target: want hbase QUORUM, embedded [DIR], or a quorum such as 127.0.0.1:2181")
	}
	kind, args := strings.ToLower(fields[0]), fields[1:]
	switch {
	case kind == "embedded" && len(args) <= 1:
		n := *o
		n.zk, n.conn = "", connOptions{}
		n.store = ""
		if len(args) == 1 {
			n.store = args[0]
		}
		c := shell.Connection{
			Open:           func(ctx context.Context) (exec.Store, error) { return openStore(ctx, &n) },
			OpenRead:       func(ctx context.Context) (exec.Store, error) { return openReader(ctx, &n) },
			CreateOnDemand: true,
			ReleaseStore:   release,
			Name:           connWhere(&n),
			Info:           connInfo(&n),
		}
		return c, nil
	case kind == "hbase" && len(args) == 1:
		return connectHBase(o, args[0])
	case len(fields) == 1 && (strings.Contains(kind, ":") || strings.Contains(kind, ",")):
		return connectHBase(o, fields[0])
	}
	return shell.Connection{}, fmt.Errorf("unknown target %q: want hbase QUORUM, embedded [DIR], or a quorum such as 127.0.0.1:2181", target)
}

// connectHBase is the connection to the cluster at ZooKeeper quorum q,
// with o's other settings.
func connectHBase(o *options, q string) (shell.Connection, error) {
	n := *o
	n.zk, n.store = q, ""
	if o.conn.site != nil {
		n.conn.site = o.conn.site.Clone()
		n.conn.site.Set(hbase.PropQuorum, q, `\connect`)
	}
	if _, err := hbaseConfig(&n); err != nil {
		return shell.Connection{}, err
	}
	return shell.Connection{
		Open:         func(ctx context.Context) (exec.Store, error) { return openStore(ctx, &n) },
		ReadOnly:     !n.allowWrites,
		ReadOnlyHint: fmt.Sprintf("writes to the HBase cluster at %s need --allow-writes", n.quorum()),
		Name:         connWhere(&n),
		Info:         connInfo(&n),
	}, nil
}

package hbase

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/rkql/rkql/hbase/internal/rpc"
)

// Sentinel errors. Test for them with errors.Is; the errors the client
// returns wrap them with detail.
var (
	ErrTableNotFound    = errors.New("hbase: table not found")
	ErrNoSuchFamily     = errors.New("hbase: no such column family")
	ErrTableExists      = errors.New("hbase: table already exists")
	ErrTableNotEnabled  = errors.New("hbase: table not enabled")
	ErrTableNotDisabled = errors.New("hbase: table not disabled")
	ErrClosed           = errors.New("hbase: client closed")
	// ErrNamespaceNotFound and ErrNamespaceExists are HBase's
	// NamespaceNotFoundException and NamespaceExistException.
	ErrNamespaceNotFound = errors.New("hbase: namespace not found")
	ErrNamespaceExists   = errors.New("hbase: namespace already exists")
	// ErrPermissionDenied is HBase's AccessDeniedException: the user
	// lacks a permission, or the cluster wants another authentication.
	ErrPermissionDenied = errors.New("hbase: permission denied")
)

// Exception is an exception the HBase server returned for a call. It
// unwraps to the matching sentinel error when there is one.
type Exception struct {
	// Class is the Java class name, e.g.
	// org.apache.hadoop.hbase.TableNotFoundException.
	Class string
	// Message is the server's one-line message.
	Message string
	// DoNotRetry is the server's verdict that retrying cannot help.
	DoNotRetry bool
	// Host and Port are the new location a RegionMovedException names.
	Host string
	Port int

	sentinel error
}

func (e *Exception) Error() string {
	short := e.Class[strings.LastIndexByte(e.Class, '.')+1:]
	if e.sentinel != nil {
		if e.Message == "" {
			return e.sentinel.Error()
		}
		return e.sentinel.Error() + ": " + e.Message
	}
	if e.Message == "" {
		return "hbase: " + short
	}
	return "hbase: " + short + ": " + e.Message
}

func (e *Exception) Unwrap() error { return e.sentinel }

// Exception class names the client acts on.
const (
	pkgHBase                 = "org.apache.hadoop.hbase."
	clsNotServingRegion      = pkgHBase + "NotServingRegionException"
	clsRegionMoved           = pkgHBase + "exceptions.RegionMovedException"
	clsRegionOpening         = pkgHBase + "exceptions.RegionOpeningException"
	clsUnknownScanner        = pkgHBase + "UnknownScannerException"
	clsOutOfOrderScannerNext = pkgHBase + "exceptions.OutOfOrderScannerNextException"
	clsScannerReset          = pkgHBase + "exceptions.ScannerResetException"
	clsServerStopped         = pkgHBase + "regionserver.RegionServerStoppedException"
	clsServerAborted         = pkgHBase + "regionserver.RegionServerAbortedException"
	clsServerNotRunningYet   = pkgHBase + "ipc.ServerNotRunningYetException"
	clsTableNotFound         = pkgHBase + "TableNotFoundException"
	clsAccessDenied          = pkgHBase + "security.AccessDeniedException"
)

// sentinels maps exception classes to the sentinel they unwrap to.
var sentinels = map[string]error{
	clsTableNotFound: ErrTableNotFound,
	pkgHBase + "regionserver.NoSuchColumnFamilyException": ErrNoSuchFamily,
	pkgHBase + "TableExistsException":                     ErrTableExists,
	pkgHBase + "TableNotEnabledException":                 ErrTableNotEnabled,
	pkgHBase + "TableNotDisabledException":                ErrTableNotDisabled,
	clsUnknownProtocol:                                    ErrNoEndpoint,
	clsAccessDenied:                                       ErrPermissionDenied,
	pkgHBase + "NamespaceNotFoundException":               ErrNamespaceNotFound,
	pkgHBase + "NamespaceExistException":                  ErrNamespaceExists,
}

// retryLater lists exceptions that say "same place, a little later".
var retryLater = map[string]bool{
	clsRegionOpening:                           true,
	clsServerNotRunningYet:                     true,
	pkgHBase + "RegionTooBusyException":        true,
	pkgHBase + "PleaseHoldException":           true,
	pkgHBase + "CallQueueTooBigException":      true,
	pkgHBase + "CallDroppedException":          true,
	pkgHBase + "RetryImmediatelyException":     true,
	pkgHBase + "MultiActionResultTooLarge":     true,
	pkgHBase + "quotas.RpcThrottlingException": true,
	pkgHBase + "ipc.ServerTooBusyException":    true,
}

// RegionError means a region is not where the client thought it was: the
// client drops the cached location, looks the region up again in
// hbase:meta and retries.
type RegionError struct {
	// Region is the region name the request was sent to.
	Region string
	Err    error
}

func (e *RegionError) Error() string { return e.Err.Error() }
func (e *RegionError) Unwrap() error { return e.Err }

// RetryableError means the server is busy or a region is in transition:
// the client backs off and retries at the same place.
type RetryableError struct{ Err error }

func (e *RetryableError) Error() string { return e.Err.Error() }
func (e *RetryableError) Unwrap() error { return e.Err }

// ServerError means the client could not reach a server or lost its
// connection to it. The client forgets the regions it had cached there,
// relocates them and retries with backoff.
type ServerError struct {
	// Role is "region server", "master" or "zookeeper".
	Role string
	Addr string
	// Unreachable is true when no connection could be made at all.
	Unreachable bool
	Err         error
}

func (e *ServerError) Error() string {
	reason := rpc.Reason(e.Err)
	var ce *rpc.ConnError
	if errors.As(e.Err, &ce) {
		reason = rpc.Reason(ce.Err)
	}
	if e.Unreachable {
		return fmt.Sprintf("hbase: cannot reach %s %s: %s", e.Role, e.Addr, reason)
	}
	return fmt.Sprintf("hbase: lost connection to %s %s: %s", e.Role, e.Addr, reason)
}

func (e *ServerError) Unwrap() error { return e.Err }

// SecurityError means TLS or SASL set-up with a server failed: a
// certificate, a ticket or a principal is wrong. The client does not
// retry; the message says what to check.
type SecurityError struct {
	// Role is "region server" or "master".
	Role string
	Addr string
	// Stage is "tls" or "sasl".
	Stage string
	Err   error
}

func (e *SecurityError) Error() string {
	what := "TLS"
	if e.Stage == "sasl" {
		what = "Kerberos (SASL GSSAPI)"
	}
	return fmt.Sprintf("hbase: %s handshake with %s %s failed: %s", what, e.Role, e.Addr, securityReason(e.Stage, e.Err))
}

func (e *SecurityError) Unwrap() error { return e.Err }

// securityReason says what went wrong and what to check.
func securityReason(stage string, err error) string {
	msg := err.Error()
	if stage != "tls" {
		return msg
	}
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &unknownCA):
		return "the server's certificate is not signed by a CA in the trust store (hbase.rpc.tls.truststore.location, --tls-ca): " + msg
	case errors.As(err, &hostErr):
		return "the server's certificate does not name this host (hbase.client.netty.tls.verify.server.hostname=false turns the check off): " + msg
	case errors.As(err, &certInvalid):
		return "the server's certificate is not valid: " + msg
	case strings.Contains(msg, "first record does not look like a TLS handshake"):
		return "the server does not speak TLS (is hbase.server.netty.tls.enabled set on the cluster?)"
	case strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") || strings.Contains(msg, "unknown certificate"):
		return "the server wants a client certificate it trusts (hbase.rpc.tls.keystore.location, --tls-cert): " + msg
	}
	return rpc.Reason(err)
}

// wrapCallError turns an error from the wire layer into the client's error
// groups. role and addr name the server; region is the region name, if the
// call was for one.
func wrapCallError(err error, role, addr, region string) error {
	var re *rpc.RemoteError
	var ce *rpc.ConnError
	var he *rpc.HandshakeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &he):
		return &SecurityError{Role: role, Addr: addr, Stage: he.Stage, Err: he.Err}
	case errors.As(err, &re):
		return classifyException(toException(re), region, role, addr)
	case errors.As(err, &ce):
		return &ServerError{Role: role, Addr: addr, Unreachable: ce.Dial, Err: ce}
	}
	return err
}

func toException(re *rpc.RemoteError) *Exception {
	e := &Exception{
		Class: re.Class, Message: re.Message, DoNotRetry: re.DoNotRetry,
		Host: re.Host, Port: re.Port, sentinel: sentinels[re.Class],
	}
	switch e.sentinel {
	case ErrNoSuchFamily:
		e.Message = shortFamilyMessage(e.Message)
	case ErrPermissionDenied:
		e.Message = permissionMessage(e.Message)
	}
	return e
}

// shortFamilyMessage shortens the server's NoSuchColumnFamilyException
// text, which carries the whole table descriptor, to "<family> in table
// <table>".
func shortFamilyMessage(msg string) string {
	const famPrefix, famSuffix, tablePrefix = "Column family ", " does not exist", "in table '"
	fam, rest, ok := strings.Cut(strings.TrimPrefix(msg, famPrefix), famSuffix)
	if !ok || !strings.HasPrefix(msg, famPrefix) {
		if i := strings.Index(msg, ", {"); i >= 0 {
			return msg[:i]
		}
		return msg
	}
	if _, t, ok := strings.Cut(rest, tablePrefix); ok {
		if table, _, ok := strings.Cut(t, "'"); ok {
			return fam + " in table " + table
		}
	}
	return fam
}

// insufficient matches the AccessController's message, e.g. "Insufficient
// permissions for user 'reader' (table=t, action=READ)".
var insufficient = regexp.MustCompile(`^Insufficient permissions for user '([^']*)' \(table=([^,]*), action=([A-Z]+)\)`)

// permissionMessage says who lacks which permission on which table, and
// what to do about a cluster that wants Kerberos.
func permissionMessage(msg string) string {
	if m := insufficient.FindStringSubmatch(msg); m != nil {
		letter := m[3][:1]
		if m[3] == "EXEC" {
			letter = "X"
		}
		return fmt.Sprintf("user %s lacks %s permission on table %s (ask an HBase admin: grant '%s', '%s', '%s')", m[1], m[3], m[2], m[1], letter, m[2])
	}
	if strings.HasPrefix(msg, "Authentication is required") {
		return "the cluster requires Kerberos: set hbase.security.authentication=kerberos (--hbase-conf with the cluster's hbase-site.xml) and log in with kinit or --keytab"
	}
	return msg
}

// classifyException puts a server exception into its group.
func classifyException(ex *Exception, region, role, addr string) error {
	switch {
	case ex.Class == clsNotServingRegion || ex.Class == clsRegionMoved:
		return &RegionError{Region: region, Err: ex}
	case ex.Class == clsServerStopped || ex.Class == clsServerAborted:
		return &ServerError{Role: role, Addr: addr, Err: ex}
	case retryLater[ex.Class]:
		return &RetryableError{Err: ex}
	case ex.DoNotRetry || ex.sentinel != nil:
		return ex
	}
	// Like the Java client, retry anything the server did not rule out.
	return &RetryableError{Err: ex}
}

// movedTo returns the new "host:port" of a RegionMovedException.
func movedTo(err error) (string, bool) {
	var ex *Exception
	if !errors.As(err, &ex) || ex.Class != clsRegionMoved || ex.Host == "" || ex.Port <= 0 {
		return "", false
	}
	return net.JoinHostPort(ex.Host, strconv.Itoa(ex.Port)), true
}

// isRetryable reports whether the retry loop may try again after err.
func isRetryable(err error) bool {
	var regErr *RegionError
	var retErr *RetryableError
	var srvErr *ServerError
	return errors.As(err, &regErr) || errors.As(err, &retErr) || errors.As(err, &srvErr)
}

// isCtxErr reports whether err came from a context ending.
func isCtxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// exceptionClass returns the Java class of the exception err carries.
func exceptionClass(err error) string {
	var ex *Exception
	if errors.As(err, &ex) {
		return ex.Class
	}
	return ""
}

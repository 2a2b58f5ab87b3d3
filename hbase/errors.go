package hbase

import (
	"context"
	"errors"
	"fmt"
	"net"
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
)

// sentinels maps exception classes to the sentinel they unwrap to.
var sentinels = map[string]error{
	clsTableNotFound: ErrTableNotFound,
	pkgHBase + "regionserver.NoSuchColumnFamilyException": ErrNoSuchFamily,
	pkgHBase + "TableExistsException":                     ErrTableExists,
	pkgHBase + "TableNotEnabledException":                 ErrTableNotEnabled,
	pkgHBase + "TableNotDisabledException":                ErrTableNotDisabled,
	clsUnknownProtocol:                                    ErrNoEndpoint,
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

// wrapCallError turns an error from the wire layer into the client's error
// groups. role and addr name the server; region is the region name, if the
// call was for one.
func wrapCallError(err error, role, addr, region string) error {
	var re *rpc.RemoteError
	var ce *rpc.ConnError
	switch {
	case err == nil:
		return nil
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
	if e.sentinel == ErrNoSuchFamily {
		e.Message = shortFamilyMessage(e.Message)
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

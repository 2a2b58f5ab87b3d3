package rpc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
)

// RemoteError is an exception the server returned for one call.
type RemoteError struct {
	// Class is the Java class name of the exception.
	Class string
	// Message is the first line of the server's text, without the class
	// name when it starts with it.
	Message string
	// Trace is the server's full text: message and stack trace.
	Trace string
	// Host and Port are set by a RegionMovedException: the new location.
	Host string
	Port int
	// DoNotRetry is true when the server says a retry cannot succeed.
	DoNotRetry bool
	// Overloaded is true when the server says it is overloaded.
	Overloaded bool
}

// NewRemoteError builds a RemoteError from a class name and the server's text.
func NewRemoteError(class, trace string) *RemoteError {
	msg := trace
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSpace(strings.TrimPrefix(msg, class))
	msg = strings.TrimSpace(strings.TrimPrefix(msg, ":"))
	return &RemoteError{Class: class, Message: msg, Trace: trace}
}

// ShortClass is the class name without its Java package.
func (e *RemoteError) ShortClass() string {
	if i := strings.LastIndexByte(e.Class, '.'); i >= 0 {
		return e.Class[i+1:]
	}
	return e.Class
}

func (e *RemoteError) Error() string {
	if e.Message == "" {
		return e.ShortClass()
	}
	return e.ShortClass() + ": " + e.Message
}

// ConnError means the connection to Addr failed or could not be made. Calls
// in flight on it may or may not have run on the server.
type ConnError struct {
	Addr string
	// Dial is true when the connection could not be established at all.
	Dial bool
	Err  error
}

func (e *ConnError) Error() string {
	if e.Dial {
		return fmt.Sprintf("cannot reach %s: %s", e.Addr, Reason(e.Err))
	}
	return fmt.Sprintf("connection to %s failed: %s", e.Addr, Reason(e.Err))
}

func (e *ConnError) Unwrap() error { return e.Err }

// ErrClosed is the cause of a ConnError after Close.
var ErrClosed = errors.New("connection closed")

// Reason renders a network error the way an operator wants to read it:
// "connection refused", "timed out", "no such host", and so on.
func Reason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return "no such host " + dnsErr.Name
		}
		return dnsErr.Err
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return "timed out"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	if errors.Is(err, net.ErrClosed) {
		return "connection closed"
	}
	return err.Error()
}

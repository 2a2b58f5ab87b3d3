package sasl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

// maxWrapped bounds one wrapped packet from the server.
const maxWrapped = 512 << 20

// layerConn is a connection inside the SASL security layer: each Write is
// one Wrap token, sent as a 4-byte length and the token; reads unwrap the
// server's packets the same way. The stream inside is HBase's usual one.
type layerConn struct {
	net.Conn
	sc     *secContext
	sealed bool

	wmu sync.Mutex
	buf []byte // unwrapped bytes not yet read
}

func newLayerConn(nc net.Conn, sc *secContext, sealed bool) *layerConn {
	return &layerConn{Conn: nc, sc: sc, sealed: sealed}
}

func (c *layerConn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	tok, err := c.sc.wrap(b, c.sealed)
	if err != nil {
		return 0, err
	}
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(tok)), uint32(len(tok)))
	if _, err := c.Conn.Write(append(out, tok...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (c *layerConn) Read(b []byte) (int, error) {
	for len(c.buf) == 0 {
		var hdr [4]byte
		if _, err := io.ReadFull(c.Conn, hdr[:]); err != nil {
			return 0, err
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if n > maxWrapped {
			return 0, fmt.Errorf("wrapped packet of %d bytes is too large", n)
		}
		tok := make([]byte, n)
		if _, err := io.ReadFull(c.Conn, tok); err != nil {
			return 0, err
		}
		msg, sealed, err := c.sc.unwrap(tok)
		if err != nil {
			return 0, err
		}
		if c.sealed && !sealed {
			return 0, errors.New("the server sent a packet without encryption on a privacy connection")
		}
		c.buf = msg
	}
	n := copy(b, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

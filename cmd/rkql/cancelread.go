package main

import (
	"context"
	"io"
)

// cancelReader reads r in a goroutine of its own, so that a Read waiting
// on an idle pipe or terminal returns when ctx is done. The goroutine may
// stay blocked in r's Read after that; it holds nothing the process needs
// to exit. It reads only when asked, into a buffer of its own.
type cancelReader struct {
	ctx  context.Context
	want chan int
	got  chan readResult
	err  error // sticky: the input's end or error, or ctx's
}

type readResult struct {
	b   []byte
	err error
}

func newCancelReader(ctx context.Context, r io.Reader) *cancelReader {
	c := &cancelReader{ctx: ctx, want: make(chan int), got: make(chan readResult, 1)}
	go func() {
		var buf []byte
		for n := range c.want {
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			k, err := r.Read(buf[:n])
			// The receiver copies the bytes before it asks again.
			c.got <- readResult{buf[:k], err}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *cancelReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	select {
	case c.want <- min(len(p), 64<<10):
	case <-c.ctx.Done():
		c.err = c.ctx.Err()
		return 0, c.err
	}
	select {
	case res := <-c.got:
		// p holds all of it: no more than len(p) was asked for.
		n := copy(p, res.b)
		c.err = res.err
		return n, res.err
	case <-c.ctx.Done():
		c.err = c.ctx.Err()
		return 0, c.err
	}
}

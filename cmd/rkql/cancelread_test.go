package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// Every byte comes through, in order, whatever the reads' sizes.
func TestCancelReaderPassesBytes(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 20_000)
	r := newCancelReader(context.Background(), bytes.NewReader(data))
	var got bytes.Buffer
	buf := make([]byte, 1000)
	for {
		n, err := r.Read(buf)
		got.Write(buf[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got.Bytes(), data) {
		t.Fatalf("read %d bytes, not the %d written", got.Len(), len(data))
	}
}

// A read waiting on an idle pipe returns when the context is done.
func TestCancelReaderCancels(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := newCancelReader(ctx, pr)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 10))
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Read returned %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Read still waits a minute after the context was cancelled")
	}
}

package main

import (
	"github.com/rkql/rkql/exec"
)

// blockCacheFlag is --block-cache auto|on|off.
type blockCacheFlag struct{ o *options }

func (f blockCacheFlag) String() string {
	if f.o == nil {
		return exec.BlockCacheAuto.String()
	}
	return f.o.blockCache.String()
}

func (f blockCacheFlag) Set(s string) error {
	b, err := exec.ParseBlockCache(s)
	if err != nil {
		return err
	}
	f.o.blockCache = b
	return nil
}

package main

import (
	"github.com/rkql/rkql/engine"
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

// parallelFlag is --parallel auto|N.
type parallelFlag struct{ o *options }

func (f parallelFlag) String() string {
	if f.o == nil {
		return engine.ParallelAuto.String()
	}
	return f.o.parallel.String()
}

func (f parallelFlag) Set(s string) error {
	p, err := engine.ParseParallel(s)
	if err != nil {
		return err
	}
	f.o.parallel = p
	return nil
}

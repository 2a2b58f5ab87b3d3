package engine

import "github.com/rkql/rkql/exec"

// BlockCache is the session's choice of which reads skip the region
// servers' block cache (exec.BlockCache), for the shell and the command
// line, which do not reach into exec.
type BlockCache = exec.BlockCache

// The choices; see exec.BlockCacheAuto.
const (
	BlockCacheAuto = exec.BlockCacheAuto
	BlockCacheOn   = exec.BlockCacheOn
	BlockCacheOff  = exec.BlockCacheOff
	// BigReadRows is the rows above which BlockCacheAuto counts a
	// whole-table or open-ended read as big.
	BigReadRows = exec.BigReadRows
)

// ParseBlockCache reads auto, on or off, in any case.
func ParseBlockCache(s string) (BlockCache, error) { return exec.ParseBlockCache(s) }

package shell

import (
	"fmt"

	"github.com/rkql/rkql/engine"
)

// blockCacheCmd is \blockcache [auto|on|off]: with no argument it says
// the current choice.
func blockCacheCmd(c metaCall) (intent, error) {
	switch len(c.args) {
	case 0:
		return intent{kind: intentSet, text: "blockcache", set: func(*Settings) {}}, nil
	case 1:
		b, err := engine.ParseBlockCache(c.args[0])
		if err != nil {
			return intent{}, fmt.Errorf(`\blockcache takes auto, on or off, not %q`, c.args[0])
		}
		return intent{kind: intentSet, text: "blockcache", set: func(s *Settings) { s.BlockCache = b }}, nil
	}
	return intent{}, fmt.Errorf(`\blockcache takes auto, on or off`)
}

// blockCacheText says what a choice does.
func blockCacheText(b engine.BlockCache) string {
	switch b {
	case engine.BlockCacheOn:
		return "on for every read"
	case engine.BlockCacheOff:
		return "off for every read"
	}
	return fmt.Sprintf("auto (off for a whole-table or open-ended scan that may return over %d rows)", engine.BigReadRows)
}

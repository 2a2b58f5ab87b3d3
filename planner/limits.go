package planner

// Limits caps how far the planner expands keys.
type Limits struct {
	// MaxKeys caps the ranges one access may enumerate; an IN list that
	// would exceed it becomes a wider range plus a filter. Each range is
	// a scan of its own.
	MaxKeys int
	// MaxPoints caps the keys an access may enumerate when its IN lists
	// (or OR branches) bind the whole key: each key is a Get, sent in
	// batched multi-gets in key order, which costs far less than the
	// scan of a range, so a list of up to MaxPoints keys stays a point
	// lookup where ranges past MaxKeys become one filtered range. It is
	// never below MaxKeys.
	MaxPoints int
	// MaxFanout caps the values of one hash, bucket, salt or random
	// component the planner will fan out over.
	MaxFanout int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxKeys <= 0 {
		l.MaxKeys = 4096
	}
	if l.MaxPoints <= 0 {
		l.MaxPoints = defaultMaxPoints
	}
	l.MaxPoints = max(l.MaxPoints, l.MaxKeys)
	if l.MaxFanout <= 0 {
		l.MaxFanout = 1024
	}
	return l
}

// defaultMaxPoints is MaxPoints when Limits leaves it 0: 262,144 keys,
// which take some hundred megabytes to plan at most (each key is built
// from a copy of a row), where a statement of as many values takes some
// seconds to parse.
const defaultMaxPoints = 1 << 18

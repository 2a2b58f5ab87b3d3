package embedded

import bolt "go.etcd.io/bbolt"

// DB exposes the bbolt file to the external tests' raw baselines.
func (s *Store) DB() *bolt.DB { return s.db }

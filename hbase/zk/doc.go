// Package zk finds an HBase cluster's hbase:meta region server and active
// master through ZooKeeper. It is a leaf of the hbase client: it knows the
// znode layout under the cluster root (default /hbase) and the znode value
// format, and nothing about RPC.
//
// A znode value is an optional metadata block (0xFF, a 4-byte big-endian
// length, that many bytes of writer id), then the magic "PBUF", then a
// protobuf message: MetaRegionServer in <root>/meta-region-server and Master
// in <root>/master. Both hold a ServerName whose host and port are returned
// as "host:port".
//
// Each lookup opens a short ZooKeeper session and closes it again; the
// client calls it only at start-up and when a cached location goes stale.
// Every lookup ends when its context does.
package zk

// Package hbasetest finds the HBase that integration tests run against.
//
// Quorum returns the ZooKeeper quorum named by $RKQL_HBASE_ZK (default
// 127.0.0.1:2181) once it has checked that HBase answers there. When it
// does not, the test is skipped, or fails when $RKQL_REQUIRE_HBASE=1, so a
// CI run that started HBase cannot pass by skipping.
//
// TableName returns a table name unique to the test run, and DropAtEnd
// drops the table when the test ends. MultiQuorum is the same for the
// multi-server HBase that $RKQL_HBASE_MULTI_ZK names (skipped when unset).
//
// LatencyNet is a proxy per server that adds a delay to every RPC
// request, installed through hbase.Config.Dial, so that one machine can
// stand in for a network. The package imports nothing of
// rkql besides the hbase client's zk leaf.
package hbasetest

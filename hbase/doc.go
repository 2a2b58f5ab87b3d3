// Package hbase is a native client for Apache HBase 2.x: ZooKeeper
// bootstrap, region location through hbase:meta, Get, Put/Delete, Scan,
// Multi and table administration through the master.
package hbase

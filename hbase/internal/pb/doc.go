// Package pb holds the protobuf messages of the HBase RPC protocol that the
// client uses. The .proto files are written for this client; only field
// numbers and types follow HBase. Regenerate with `go generate`.
package pb

//go:generate protoc -I. --go_out=. --go_opt=paths=source_relative hbase.proto cell.proto rpc.proto client.proto filter.proto zookeeper.proto master.proto aggregate.proto cluster.proto admin.proto snapshot.proto namespace.proto

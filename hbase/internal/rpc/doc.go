// Package rpc is the wire layer of the HBase client: one TCP connection to
// one server for one service (ClientService or MasterService).
//
// A Conn writes the connection preamble and ConnectionHeader, then carries
// many calls at once. Each call gets an id; a single reader goroutine reads
// response frames and hands each one to the call with the same id, so
// responses may arrive in any order. A frame is
//
//	uint32 BE total length
//	varint length + header (RequestHeader or ResponseHeader)
//	varint length + message (absent when the response is an exception)
//	optional cellblock (its length is in the header's cell_block_meta)
//
// Every read is bounded: while calls are in flight the socket has a read
// deadline (Options.ReadTimeout), and every caller also waits no longer than
// its own context. When the connection fails, every call in flight fails
// with a *ConnError and the Conn is unusable; the owner dials a new one.
//
// Exceptions the server sends back arrive as *RemoteError; classifying them
// is the caller's job.
package rpc

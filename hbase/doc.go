// Package hbase is a native Go client for Apache HBase 2.x. It speaks the
// HBase RPC protocol directly (protobuf over TCP, SIMPLE or Kerberos
// authentication, optionally inside TLS) and needs nothing but a ZooKeeper
// quorum to find the cluster.
//
// # Use
//
//	c, err := hbase.NewClient(ctx, hbase.Config{ZKQuorum: "127.0.0.1:2181"})
//	g, err := hbase.NewGet("t", []byte("row"), hbase.Versions(3))
//	res, err := c.Get(ctx, g)
//
//	s, err := hbase.NewScan("t", start, stop, hbase.Reversed(), hbase.Caching(500),
//		hbase.WithFilter(filter.Prefix{Prefix: p}))
//	sc := c.Scan(s)
//	defer sc.Close()
//	for {
//		row, err := sc.Next(ctx)
//		if err == io.EOF {
//			break
//		}
//		...
//	}
//
// Writes are NewPut and NewDelete values applied with Client.Mutate, or in
// bulk with Client.MultiMutate; Client.MultiGet reads many rows. Tables are
// created, listed, disabled and deleted through Client.Admin.
//
// # Reads the server narrows
//
// Families and Columns project columns, WithFilter sets a server-side
// filter (package filter), TimeRange keeps cells with from <= ts < to;
// they apply to a Get, and so to each row of a MultiGet, and to a Scan.
// A Scan also takes Caching (rows per RPC), MaxResultSize (bytes per RPC)
// and Limit, which each scan RPC passes on to the server so that it closes
// its scanner at the limit. Facts pinned on HBase 2.6 by the integration
// tests:
//
//   - A projection is applied before the filter: a row without any
//     projected column does not come back, and a filter never sees a
//     column left out of the projection. So SingleColumnValueFilter on
//     an unprojected column drops every row with FilterIfMissing and keeps
//     every row without it.
//   - "Every row, plus only these columns" is one scan over all families
//     with filter.Or(FirstKeyOnly, columns...): each row comes with its
//     first cell and the wanted columns, a row lacking all of them with
//     its first cell alone. KeyOnly ANDed to FirstKeyOnly there also
//     strips a wanted first cell; And(FirstKeyOnly, Qualifier != each
//     wanted, KeyOnly) strips only an unwanted one.
//   - Raw (the "_raw_" attribute, honoured on a Get as on a Scan) adds
//     the delete markers, a row delete's as one CellDeleteFamily per
//     family, and the puts they hide; MaxVersions bounds the puts of a
//     column and not its markers.
//
// # Regions
//
// The client reads hbase:meta with one server scanner per lookup or
// listing, page by page (Config.MetaScanRows rows per RPC, fewer where
// Config.ScanMaxResultSize or the server cuts a page short), and goes on
// while the response's more_results and more_results_in_region flags say
// rows remain: a short page, or an empty heartbeat, is not the end.
// Client.Regions returns regions that tile the table, the first starting
// it, each ending where the next starts, the last ending it; split
// parents are left out, and regions without a server or offline are
// listed. While meta leaves a gap or an overlap (a split, merge or reopen
// being written), it drops the table's cached regions and reads meta
// again with backoff, and fails naming the gap when the attempts run out.
// Admin.CheckTables (CHECK CLUSTER) reads meta once through the same
// listing and reports every fault of the same tiling check (tilingFaults,
// whose first fault is the read path's error), with the regions not open
// on a live server and those the master has in transition.
// A Scanner and an Aggregate walk their range region by region, each one
// looked up at the end key of the one before, so a split during the read
// is followed and a gap is retried, then fails, never skipped.
//
// The region cache (regioncache.go) keeps each table's regions sorted by
// start key, never overlapping: a lookup is a binary search, and caching
// a region evicts, by binary search, only the regions it overlaps (the
// parent of a daughter, the old location of a moved region). An error
// that names a region (NotServingRegion, RegionMoved, RegionOpening)
// invalidates that region's entry alone; a dead server, its regions.
//
// # Aggregation where the data lives
//
// Client.Aggregate runs an Aggregate (NewAggregate: RowCount, Sum, Min,
// Max or Avg, read by LongInterpreter or DoubleInterpreter, over a Scan)
// through HBase's aggregation endpoint, AggregateImplementation: one
// ClientService.ExecService call per region the scan's range covers, in
// parallel, partial answers combined here. A table loads the endpoint
// through its descriptor (TableSpec.Coprocessors; DescribeTable lists
// them). A region without it answers UnknownProtocolException, which
// matches ErrNoEndpoint, so a caller can read the rows instead. Facts
// pinned on HBase 2.6.4 with hbase-endpoint 2.5.12 by the integration
// test:
//
//   - The region finds the service by the name "AggregateService" (HBase
//     drops its own package, hbase.pb, from service names).
//   - The interpreters read every cell of 8 bytes the scan returns,
//     whatever its column, and skip other lengths: scan the families the
//     filter needs and keep only the aggregated column with a Qualifier
//     filter after the others.
//   - GetAvg's row count counts scanner steps, not values: exact averages
//     come from Sum and RowCount.
//
// # Measuring
//
// Scanner.Stats, Client.GetWithStats and Client.MultiGetWithStats count
// RPCs, cells and rows received, and the bytes of every response frame as
// read off the socket (length prefix, header, message and cellblock;
// retried and failed calls included, hbase:meta lookups not). With
// TrackScanMetrics a Scanner also sums the servers' own counters, among
// them ROWS_SCANNED and ROWS_FILTERED.
//
// # Security
//
// Config.Kerberos authenticates every RPC connection with SASL GSSAPI
// (internal/sasl): a keytab or the ticket cache, the servers' principals
// with _HOST expanded to each server's host name, and the SASL layer of
// hbase.rpc.protection (authentication, integrity or privacy). Config.TLS
// runs every RPC connection inside TLS first, as HBase 2.6's native TLS
// does. LoadSite reads hbase-site.xml and core-site.xml into a Site whose
// Config method gives the Config, and whose Settings say where each value
// came from. A failed TLS or SASL handshake is a *SecurityError and is not
// retried; HBase's AccessDeniedException unwraps to ErrPermissionDenied
// and names the user, the permission and the table. ZooKeeper is read
// without authentication.
//
// # Layers
//
//	request values      Get, Scan, Put, Delete: built by constructors with
//	  (request.go)      functional options; they hold their protobuf and do
//	                    no I/O
//	        |
//	client              Client: finds the region for each row through
//	  (client.go,       hbase:meta, caches locations, groups Multi actions by
//	   locate.go,       server, drives Scanners region by region, retries
//	   meta.go,         with backoff, and turns server exceptions into the
//	   scanner.go,      error groups below; Admin talks to the master
//	   multi.go,
//	   admin.go)
//	        |
//	region connection   internal/rpc: one TCP connection per server and
//	                    service; preamble, ConnectionHeader, length-framed
//	                    calls matched by call id, many in flight, cellblocks
//	                    handed back raw, every read bounded
//
//	leaves              zk (where hbase:meta and the master are), filter
//	                    (server-side filters and comparators), internal/pb
//	                    (generated protobuf messages)
//
// Cells arrive either inline in protobuf Results or in a KeyValue cellblock
// after the response message; the client decodes both (cell.go). Cells in
// results point into the response buffer.
//
// # Errors
//
// Errors are grouped by what the caller must do, and every group wraps its
// cause (errors.Is and errors.As see through them):
//
//   - *RegionError: the region is not where the cache said
//     (NotServingRegionException, RegionMovedException). The client drops
//     the location, looks it up again and retries.
//   - *RetryableError: the server is busy or the region is in transition
//     (RegionOpening, RegionTooBusy, PleaseHold, CallQueueTooBig, ...). The
//     client backs off and retries at the same place.
//   - *ServerError: a server could not be reached or the connection broke
//     ("hbase: cannot reach region server 127.0.0.1:16020: connection
//     refused"). The client forgets the server's regions and connection,
//     relocates and retries with backoff.
//   - anything else fails at once: *Exception for a server exception the
//     server marked final, unwrapping to ErrTableNotFound, ErrNoSuchFamily,
//     ErrTableExists, ErrTableNotEnabled or ErrTableNotDisabled where one
//     applies; validation errors from the constructors. A request to a
//     disabled table fails with ErrTableNotEnabled once the master
//     confirms the state, after the second RegionError.
//
// Retries stop after Config.MaxAttempts or when the caller's context ends,
// whichever is first; the error then wraps both the context's error and
// the last failure. No call waits longer than its context: every wait on
// the network is bounded by the context and, while calls are in flight, by
// a read deadline (Config.RPCTimeout) on the socket.
//
// A Client is safe for concurrent use; a Scanner is not.
package hbase

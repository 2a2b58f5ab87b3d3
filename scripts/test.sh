#!/usr/bin/env bash
# Runs the whole test suite. When Java and Maven are present it starts the
# local HBase first, and beside it a Kerberos and TLS one for the secure
# tests and a Phoenix one for the Phoenix tests (stopping each afterwards
# if it started it), so the integration tests run; with
# RKQL_REQUIRE_HBASE=1 a missing HBase fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# The secure instance's ports: RKQL_HBASE_SECURE_{ZK,MASTER,RS}_PORT.
secure() {
  RKQL_HBASE_SECURITY=kerberos,tls \
    RKQL_HBASE_ZK_PORT="${RKQL_HBASE_SECURE_ZK_PORT:-2183}" \
    RKQL_HBASE_MASTER_PORT="${RKQL_HBASE_SECURE_MASTER_PORT:-16200}" \
    RKQL_HBASE_RS_PORT="${RKQL_HBASE_SECURE_RS_PORT:-16220}" "$@"
}

# The multi-server instance (4 region servers in one JVM) for the tests of
# reads spread over region servers: RKQL_HBASE_MULTI_{ZK,MASTER,RS}_PORT.
multi() {
  RKQL_HBASE_REGIONSERVERS=4 \
    RKQL_HBASE_ZK_PORT="${RKQL_HBASE_MULTI_ZK_PORT:-2187}" \
    RKQL_HBASE_MASTER_PORT="${RKQL_HBASE_MULTI_MASTER_PORT:-16400}" \
    RKQL_HBASE_RS_PORT="${RKQL_HBASE_MULTI_RS_PORT:-16420}" "$@"
}

# The Phoenix instance's ports: RKQL_HBASE_PHOENIX_{ZK,MASTER,RS}_PORT.
phoenix() {
  RKQL_HBASE_PHOENIX=1 \
    RKQL_HBASE_ZK_PORT="${RKQL_HBASE_PHOENIX_ZK_PORT:-2185}" \
    RKQL_HBASE_MASTER_PORT="${RKQL_HBASE_PHOENIX_MASTER_PORT:-16300}" \
    RKQL_HBASE_RS_PORT="${RKQL_HBASE_PHOENIX_RS_PORT:-16320}" "$@"
}

started=0
started_secure=0
started_multi=0
started_phoenix=0
stop() {
  if [ "$started" = 1 ]; then scripts/hbase/down || true; fi
  if [ "$started_secure" = 1 ]; then secure scripts/hbase/down || true; fi
  if [ "$started_multi" = 1 ]; then multi scripts/hbase/down || true; fi
  if [ "$started_phoenix" = 1 ]; then phoenix scripts/hbase/down || true; fi
}
trap stop EXIT
# On Ctrl-C or SIGTERM, exit so that the EXIT trap stops what was started.
trap 'exit 130' INT
trap 'exit 143' TERM

if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
  if ! scripts/hbase/status >/dev/null 2>&1; then
    started=1 # before up: an interrupted start is stopped too
    scripts/hbase/up
  fi
  export RKQL_HBASE_ZK="127.0.0.1:${RKQL_HBASE_ZK_PORT:-2181}"
  if ! secure scripts/hbase/status >/dev/null 2>&1; then
    started_secure=1
    secure scripts/hbase/up
  fi
  export RKQL_HBASE_SECURE_ZK="127.0.0.1:${RKQL_HBASE_SECURE_ZK_PORT:-2183}"
  if ! multi scripts/hbase/status >/dev/null 2>&1; then
    started_multi=1
    multi scripts/hbase/up
  fi
  export RKQL_HBASE_MULTI_ZK="127.0.0.1:${RKQL_HBASE_MULTI_ZK_PORT:-2187}"
  # Phoenix: up waits for the first Phoenix connection (SYSTEM.* tables).
  if ! phoenix scripts/hbase/status >/dev/null 2>&1; then
    started_phoenix=1
    phoenix scripts/hbase/up
  fi
  export RKQL_PHOENIX_ZK="127.0.0.1:${RKQL_HBASE_PHOENIX_ZK_PORT:-2185}"
  RKQL_PHOENIX_SQL="$(pwd)/scripts/phoenix/sql"
  export RKQL_PHOENIX_SQL
elif [ "${RKQL_REQUIRE_HBASE:-}" = 1 ]; then
  echo "test: RKQL_REQUIRE_HBASE=1 but java or mvn is missing" >&2
  exit 1
else
  echo "test: java or mvn missing; HBase integration tests will be skipped" >&2
fi

# RKQL_LONG=1 (make test-long) runs the differential and write suites at
# their long sizes, which take a package longer.
timeout=30m
if [ "${RKQL_LONG:-}" = 1 ]; then timeout=60m; fi
go vet ./...
go test -count=1 -timeout "$timeout" ./...

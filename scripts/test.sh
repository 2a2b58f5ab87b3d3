#!/usr/bin/env bash
# Runs the whole test suite. When Java and Maven are present it starts the
# local HBase first (and stops it afterwards if it started it), so the
# integration tests run; with RKQL_REQUIRE_HBASE=1 a missing HBase fails.
set -euo pipefail
cd "$(dirname "$0")/.."

started=0
stop() { if [ "$started" = 1 ]; then scripts/hbase/down || true; fi; }
trap stop EXIT

if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
  if ! scripts/hbase/status >/dev/null 2>&1; then
    scripts/hbase/up
    started=1
  fi
  export RKQL_HBASE_ZK="127.0.0.1:${RKQL_HBASE_ZK_PORT:-2181}"
elif [ "${RKQL_REQUIRE_HBASE:-}" = 1 ]; then
  echo "test: RKQL_REQUIRE_HBASE=1 but java or mvn is missing" >&2
  exit 1
else
  echo "test: java or mvn missing; HBase integration tests will be skipped" >&2
fi

go vet ./...
go test -count=1 -timeout 30m ./...

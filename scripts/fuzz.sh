#!/usr/bin/env bash
# Runs every fuzz target of the module, each for FUZZTIME (30s). The
# targets are found with `go test -list`, so a new one joins by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-30s}"
n=0
for pkg in $(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "fuzz: $target in $pkg for $fuzztime"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s "$pkg"
    n=$((n + 1))
  done
done
echo "fuzz: $n targets ran"

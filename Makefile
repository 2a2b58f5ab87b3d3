# rkql: an SQL-like query shell over HBase rowkey schemas.

GO        ?= go
DEMO_DIR  ?= .cache/demo
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
export GOFLAGS ?= -buildvcs=false

.PHONY: all build test test-long test-short demo demo-opentsdb bench bench-compare bench-hbase lint fuzz clean

all: build

build: ## build bin/rkql
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/rkql ./cmd/rkql

test: ## run every test; starts a local HBase when Java and Maven are present
	@scripts/test.sh

test-long: ## make test with the long randomized runs (RKQL_LONG=1), as CI runs it
	@RKQL_LONG=1 scripts/test.sh

test-short: ## unit tests only, with smaller differential runs, no HBase
	$(GO) test -short ./...

demo: build ## the REPL on the embedded store, with the examples loaded
	$(GO) run ./examples/load --store $(DEMO_DIR) --catalog examples/catalog.yaml
	bin/rkql --store $(DEMO_DIR) --catalog examples/catalog.yaml

demo-opentsdb: build ## the REPL on a day of OpenTSDB points: seconds, milliseconds, compacted
	$(GO) run ./examples/load --opentsdb --store $(DEMO_DIR)-opentsdb
	bin/rkql --store $(DEMO_DIR)-opentsdb --catalog examples/opentsdb.yaml

bench: ## benchmarks, each with its raw baseline in the same run
	$(GO) test -run '^$$' -bench . -benchtime 2s ./...

bench-compare: build ## rkql's embedded store against sqlite3 on 1M generated logs rows (ROWS, RUNS, IMPORT_RUNS)
	scripts/bench-compare

lint: ## no tracked file over 1 MB, gofmt, go vet, staticcheck
	@scripts/lint.sh

fuzz: ## every fuzz target of the module, each for FUZZTIME (30s)
	scripts/fuzz.sh

clean:
	rm -rf bin $(DEMO_DIR)

include scripts/hbase/hbase.mk

bench-hbase: build ## rkql on HBase against the Java client and Phoenix on 200k orders rows (ROWS, RUNS, IMPORT; `scripts/bench-hbase latency` for the latency mode)
	scripts/bench-hbase

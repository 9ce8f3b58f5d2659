# Thin targets over go and cetpgen. `make test` is the one test command:
# CI (.ci/run) runs exactly it on a clean clone.
GO ?= go

.PHONY: build test vet generate check-generated bench fuzz update-goldens tools

# build builds both command-line tools: the generator (bin/cetpgen) and the
# CETP v2 Consumer for the command line (bin/cetp).
build:
	$(GO) build -o bin/cetpgen ./cmd/cetpgen
	$(GO) build -o bin/cetp ./cmd/cetp

# tools installs what the tests need beyond Go: the Kotlin compiler (from
# the npm registry, cached in .cache/kotlinc) for the Kotlin compile tests,
# ajv (npm, pinned, cached in .cache/ajv) for the meta-schema test of
# schema/, and a throwaway PostgreSQL server on loopback for the PostgreSQL store
# tests (scripts/postgres.sh, docs/postgres.md); `make test` stops it when
# the tests end, pass or fail.
tools:
	scripts/kotlinc.sh
	scripts/kotlin-deps.sh
	scripts/ajv.sh
	scripts/postgres.sh start

# CETP_PG_DSN names that server's test database; it is read when each
# recipe line runs, so after `tools` has started the server. A DSN set by
# the caller wins.
export CETP_PG_DSN ?= $(shell scripts/postgres.sh dsn 2>/dev/null)

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^out/')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

generate:
	$(GO) run ./cmd/cetpgen generate

check-generated:
	$(GO) run ./cmd/cetpgen generate --check

# The Kotlin JVM test compiles every generated Provider (the 205-tool import
# corpus among them) in one kotlinc run of a few minutes; on a loaded
# 2-core machine that package can pass go test's default 10-minute limit,
# so the limit is raised for the whole run.
test: tools vet check-generated
	$(GO) test -race -timeout 30m ./...; status=$$?; scripts/postgres.sh stop; exit $$status

bench:
	scripts/bench.sh

# fuzz runs every fuzz target for FUZZTIME each (default 30s).
FUZZTIME ?= 30s
fuzz:
	scripts/fuzz.sh $(FUZZTIME)

update-goldens:
	$(GO) test ./gen/... -update

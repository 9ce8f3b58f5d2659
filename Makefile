# Thin targets over go and cetpgen. `make test` is the one test command:
# CI (.ci/run) runs exactly it on a clean clone.
GO ?= go

.PHONY: build test vet generate check-generated bench fuzz update-goldens tools

build:
	$(GO) build -o bin/cetpgen ./cmd/cetpgen

# tools installs what the tests need beyond Go: the Kotlin compiler (from
# the npm registry, cached in .cache/kotlinc) for the Kotlin compile tests.
tools:
	scripts/kotlinc.sh

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^out/')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

generate:
	$(GO) run ./cmd/cetpgen generate

check-generated:
	$(GO) run ./cmd/cetpgen generate --check

test: tools vet check-generated
	$(GO) test -race ./...

bench:
	scripts/bench.sh

# fuzz runs every fuzz target for FUZZTIME each (default 30s).
FUZZTIME ?= 30s
fuzz:
	scripts/fuzz.sh $(FUZZTIME)

update-goldens:
	$(GO) test ./gen/... -update

#!/usr/bin/env bash
# Runs cetpgen's benchmarks and prints the figures BENCHMARKS.md records,
# with the machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(go version)"

echo "== validate: Go benchmark (load + validate + IR, 1,000 tools)"
go test ./gen/ -run '^$' -bench 'Check1000' -benchtime 20x -count 3 -benchmem

echo "== validate: the CLI on a synthetic 1,000-tool Provider (wall, user, sys seconds)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./gen/internal/synth/synthspec -tools 1000 -out "$tmp/synth"
go build -o "$tmp/cetpgen" ./cmd/cetpgen
for _ in 1 2 3 4 5; do
  /usr/bin/time -f "%e %U %S" "$tmp/cetpgen" validate "$tmp/synth"
done

echo "== runtime: CETP against the MCP Go SDK, floors, durable write (bench/run.sh)"
bench/run.sh

echo "== Go generator against oapi-codegen (bench/oapi/run.sh 1000 5)"
bench/oapi/run.sh 1000 5

echo "== generate, target by target: this tree against the commit given as BASE (default HEAD)"
scripts/bench-generate-ab.sh "${BASE:-HEAD}" 5

echo "== catalog: the synthetic Cobra CLI, and a CLI generated from a spec"
scripts/bench-catalog.sh
scripts/bench-generated-cli.sh

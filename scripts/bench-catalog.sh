#!/bin/sh
# Catalog benchmarks (BENCHMARKS.md, ## Catalog): whole-process time and peak
# RSS of generating the catalog of a synthetic N-leaf Cobra CLI and of
# `schema` queries against it, then the Go benchmarks. Usage:
#   scripts/bench-catalog.sh            # N=1000
#   N=572 scripts/bench-catalog.sh
set -eu
cd "$(dirname "$0")/.."
N=${N:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/catalogbench" ./examples/cobracli/internal/catalogbench
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
b=$tmp/catalogbench
t() { label=$1; shift; /usr/bin/time -f "$label: %e s %M KB (user %U s, sys %S s)" "$@" >"$tmp/out"; }
for i in 1 2; do
	t "generate $N tools (every gate)" "$b" gen "$N" "$tmp"
done
cat "$tmp/out"
for i in 1 2; do
	t "version (the tree alone)" "$b" query "$N" "$tmp" version
	t "schema (overview)" "$b" query "$N" "$tmp" schema
	t "schema prod12" "$b" query "$N" "$tmp" schema prod12
	t "schema \"prod12 group3\"" "$b" query "$N" "$tmp" schema "prod12 group3"
	t "schema \"prod12 group3 create\"" "$b" query "$N" "$tmp" schema "prod12 group3 create"
	t "schema \"prod12 group3 create\" --compact" "$b" query "$N" "$tmp" schema "prod12 group3 create" --compact
	t "schema --all" "$b" query "$N" "$tmp" schema --all
	echo "  --all output: $(wc -c <"$tmp/out") bytes"
	t "schema --all --compact" "$b" query "$N" "$tmp" schema --all --compact
done
go test -run '^$' -bench . -benchmem -count 1 ./examples/cobracli/synth

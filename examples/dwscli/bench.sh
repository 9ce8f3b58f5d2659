#!/bin/sh
# Speed of the dws example against the real dws figures (BENCHMARKS.md,
# "The catalog on dws's real inputs"): whole-process wall time and peak RSS
# of generating the catalog from dws's reviewed inputs and of each kind of
# `dws schema` query, twice each, under /usr/bin/time. Usage, from the
# repository root or anywhere:
#   examples/dwscli/bench.sh
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/dws" .
go build -o "$tmp/gencatalog" ./internal/gencatalog
mkdir "$tmp/gen" && cp -r catalog "$tmp/gen/"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
t() { label=$1; shift; /usr/bin/time -f "$label: %e s %M KB (user %U s, sys %S s)" "$@" >"$tmp/out" 2>"$tmp/err" || true; tail -1 "$tmp/err"; }
for i in 1 2; do
	(cd "$tmp/gen" && /usr/bin/time -f "generate (every gate, files written): %e s %M KB (user %U s, sys %S s)" "$tmp/gencatalog" >/dev/null)
done
cmp "$tmp/gen/catalog/schema_catalog.json" catalog/schema_catalog.json && echo "  generated catalog equals the committed one"
d=$tmp/dws
for i in 1 2; do
	t "dws --help (start-up and the tree alone)" "$d" --help
	t "dws schema (overview)" "$d" schema
	t "dws schema calendar (product)" "$d" schema calendar
	t "dws schema \"calendar event\" (group)" "$d" schema "calendar event"
	t "dws schema \"calendar event create\" (leaf)" "$d" schema "calendar event create"
	t "dws schema \"calendar event create\" --compact" "$d" schema "calendar event create" --compact
	t "dws schema calendar.create_calendar_event (canonical)" "$d" schema calendar.create_calendar_event
	t "dws schema --all" "$d" schema --all
	echo "  --all output: $(wc -c <"$tmp/out") bytes"
	t "dws schema --all --compact" "$d" schema --all --compact
	echo "  --all --compact output: $(wc -c <"$tmp/out") bytes"
done

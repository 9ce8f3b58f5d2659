#!/usr/bin/env bash
# Runs the peer comparisons recorded in BENCHMARKS.md and prints every
# round, the medians and the median of the per-round ratios:
#   - search_orders through the CETP Consumer client against the MCP Go
#     SDK's client: in process, to a child process (Unix socket against
#     stdio), and 16 callers on one connection to a child;
#   - the floors: a bare jsonschema/v6 validate + handler in process, and a
#     raw Unix-socket round trip of a CETP call's frame sizes to a child;
#   - a durable write against a bare SQLite insert (synchronous FULL and
#     NORMAL).
# Each benchmark runs in a process of its own, both sides of a pair back
# to back, their order alternating between rounds; each heap setting
# (BENCH_HEAP_MB, held by the benchmark process and by every child) runs
# every round.
#   ROUNDS     rounds (default 5)
#   BENCHTIME  -test.benchtime per benchmark (default 1s)
#   HEAPS      live heaps in MiB (default "0 64": default GOGC alone, then
#              a 64 MiB live heap in both processes)
#   WRITES     0 skips the durable-write pairs (default 1)
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-5}
BENCHTIME=${BENCHTIME:-1s}
HEAPS=${HEAPS:-0 64}
WRITES=${WRITES:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "nproc: $(nproc)"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p')"
echo "go: $(go version)"
echo "GOGC: ${GOGC:-default (100)}"
echo "rounds: $ROUNDS, benchtime: $BENCHTIME, heaps (MiB): $HEAPS"
echo "loadavg at start: $(cat /proc/loadavg)"

go test -c -o "$work/bench.test" .
(cd "$work" && ./bench.test -test.run '^TestPeersAgree$' -test.v) | grep -E 'protocol version|bytes written|^(ok|PASS|FAIL)'

# one HEAP ROUND NAME runs BenchmarkNAME once and records its line.
one() {
	(cd "$work" && BENCH_HEAP_MB=$1 ./bench.test -test.run '^$' -test.bench "^Benchmark$3\$" \
		-test.benchtime "$BENCHTIME" -test.benchmem) |
		grep '^Benchmark' | sed "s/^/heap=$1 round=$2 /" | tee -a "$work/all.txt"
}

# pair HEAP ROUND A B runs A then B in odd rounds, B then A in even ones.
pair() {
	if (($2 % 2)); then one "$1" "$2" "$3"; one "$1" "$2" "$4"; else one "$1" "$2" "$4"; one "$1" "$2" "$3"; fi
}

for heap in $HEAPS; do
	for round in $(seq "$ROUNDS"); do
		echo "heap $heap MiB, round $round, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
		pair "$heap" "$round" InProcessCETP InProcessMCP
		pair "$heap" "$round" ChildCETP ChildMCP
		pair "$heap" "$round" Child16CETP Child16MCP
		pair "$heap" "$round" InProcessCETP InProcessFloor
		pair "$heap" "$round" ChildCETP ChildEchoFloor
	done
done
if [ "$WRITES" != 0 ]; then
	for round in $(seq "$ROUNDS"); do
		echo "durable write, round $round, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
		pair 0 "$round" WriteEngine WriteBareSQLite
		pair 0 "$round" WriteEngineNormal WriteBareSQLiteNormal
	done
fi

# value HEAP ROUND NAME UNIT prints the UNIT figure of the (last) line of
# BenchmarkNAME in that heap and round.
value() {
	awk -v h="heap=$1" -v r="round=$2" -v n="Benchmark$3" -v u="$4" \
		'$1 == h && $2 == r { split($3, f, "-"); if (f[1] == n) for (i = 4; i < NF; i++) if ($(i+1) == u) v = $i } END { print v }' "$work/all.txt"
}

# mid prints the median of the numbers on its input, one per line.
mid() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# ratio HEAP ROUND A B UNIT prints A/B of their UNIT figures.
ratio() { awk -v a="$(value "$1" "$2" "$3" "$5")" -v b="$(value "$1" "$2" "$4" "$5")" 'BEGIN {printf "%.3f\n", a/b}'; }

report() { # HEAP LABEL A B UNIT
	local rs
	rs=$(for round in $(seq "$ROUNDS"); do ratio "$1" "$round" "$3" "$4" "$5"; done)
	printf '  %-58s %6.2fx   rounds: %s\n' "$2" "$(echo "$rs" | mid)" "$(echo "$rs" | tr '\n' ' ')"
}

echo
for heap in $HEAPS; do
	echo "live heap $heap MiB: median calls/s over $ROUNDS rounds"
	for name in InProcessCETP InProcessMCP InProcessFloor ChildCETP ChildMCP Child16CETP Child16MCP ChildEchoFloor; do
		printf '  %-16s %10.0f calls/s  %8s allocs/op\n' "$name" \
			"$(for r in $(seq "$ROUNDS"); do value "$heap" "$r" "$name" calls/s; done | mid)" \
			"$(for r in $(seq "$ROUNDS"); do value "$heap" "$r" "$name" allocs/op; done | mid)"
	done
	echo "live heap $heap MiB: ratios (median of the per-round ratios)"
	report "$heap" "in process: CETP / MCP calls/s" InProcessCETP InProcessMCP calls/s
	report "$heap" "child process: CETP socket / MCP stdio calls/s" ChildCETP ChildMCP calls/s
	report "$heap" "16 callers, one connection: CETP / MCP calls/s" Child16CETP Child16MCP calls/s
	report "$heap" "in process: floor / CETP calls/s (CETP's cost over the floor)" InProcessFloor InProcessCETP calls/s
	report "$heap" "child process: echo floor / CETP calls/s" ChildEchoFloor ChildCETP calls/s
done
if [ "$WRITES" != 0 ]; then
	echo "durable write (time per call, engine / bare insert)"
	report 0 "synchronous=FULL" WriteEngine WriteBareSQLite ns/op
	report 0 "synchronous=NORMAL (a CPU view)" WriteEngineNormal WriteBareSQLiteNormal ns/op
fi
echo "loadavg at end: $(cat /proc/loadavg)"

#!/usr/bin/env bash
# Runs the peer comparisons recorded in BENCHMARKS.md and prints medians
# and ratios. Each round runs both sides of a comparison back to back, so
# that disk and load drift hit both alike.
#   ROUNDS     rounds per comparison (default 5)
#   BENCHTIME  -test.benchtime per benchmark (default 2s)
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-5}
BENCHTIME=${BENCHTIME:-2s}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "nproc: $(nproc)"
echo "cpu: $(lscpu | grep 'Model name' | sed 's/Model name:[[:space:]]*//')"
echo "go: $(go version)"
echo "rounds: $ROUNDS, benchtime: $BENCHTIME"

go test -c -o "$work/bench.test" .
for _ in $(seq "$ROUNDS"); do
	for pair in 'Read(Engine|MCP)$' 'Write(Engine|BareSQLite)$' 'Write(Engine|BareSQLite)Normal$'; do
		(cd "$work" && ./bench.test -test.run '^$' -test.bench "$pair" -test.benchtime "$BENCHTIME" -test.benchmem) |
			grep '^Benchmark' | tee -a "$work/all.txt"
	done
done

median() { # name -> median ns/op
	grep "^Benchmark$1-" "$work/all.txt" | awk '{print $3}' | sort -n |
		awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'
}
echo
echo "median ns/op:"
for name in ReadEngine ReadMCP WriteEngine WriteBareSQLite WriteEngineNormal WriteBareSQLiteNormal; do
	printf '  %-22s %s\n' "$name" "$(median "$name")"
done
# Per-round ratios: each round holds one line of each benchmark.
rounds=$(awk '{split($1, n, "-"); v[n[1]] = $3}
	/^BenchmarkReadMCP-/ {printf "%s ", v["BenchmarkReadMCP"] / v["BenchmarkReadEngine"]}
	/^BenchmarkWriteBareSQLite-/ {printf "%s ", v["BenchmarkWriteEngine"] / v["BenchmarkWriteBareSQLite"]}
	/^BenchmarkWriteBareSQLiteNormal-/ {printf "%s\n", v["BenchmarkWriteEngineNormal"] / v["BenchmarkWriteBareSQLiteNormal"]}' "$work/all.txt")
echo "per-round ratios (read MCP/engine, write engine/bare FULL, write engine/bare NORMAL):"
echo "$rounds" | awk '{printf "  %.1fx  %.2fx  %.2fx\n", $1, $2, $3}'
mid() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
rr=$(echo "$rounds" | awk '{print $1}' | mid)
wr=$(echo "$rounds" | awk '{print $2}' | mid)
nr=$(echo "$rounds" | awk '{print $3}' | mid)
awk -v r="$rr" -v w="$wr" -v n="$nr" 'BEGIN {
	printf "read:  CETP engine throughput = %.1fx MCP Go SDK in-memory tools/call (median of rounds; goal >= 2x: %s)\n", r, (r >= 2 ? "met" : "MISSED")
	printf "write: CETP durable write = %.2fx the time of a bare SQLite insert, synchronous=FULL (median of rounds; goal <= 2x: %s)\n", w, (w <= 2 ? "met" : "MISSED")
	printf "write: CETP durable write = %.2fx the time of a bare SQLite insert, synchronous=NORMAL (median of rounds; CPU view, no goal)\n", n
}'

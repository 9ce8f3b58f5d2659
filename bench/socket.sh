#!/usr/bin/env bash
# Runs the calls-per-second comparison of socket_mcp_test.go: the same read
# tool in process, over the Unix socket (one connection, sequential and
# shared by 8 goroutines; 8 connections), and through the MCP Go SDK over
# OS pipes, with a bare Unix socket round trip as the floor. Each round runs
# every variant back to back, so that load drift hits all alike; it prints
# each round's results and ratios, then medians.
#   ROUNDS     rounds (default 5)
#   BENCHTIME  -test.benchtime per benchmark (default 2s)
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-5}
BENCHTIME=${BENCHTIME:-2s}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=(CallInProcess CallInProcessParallel CallSocket CallSocketShared CallSocketConns SocketFloor CallMCPPipe)

echo "nproc: $(nproc)"
echo "cpu: $(lscpu | grep 'Model name' | sed 's/Model name:[[:space:]]*//')"
echo "go: $(go version)"
echo "loadavg at start: $(cat /proc/loadavg)"
echo "rounds: $ROUNDS, benchtime: $BENCHTIME"

go test -c -o "$work/bench.test" .
pattern="^Benchmark($(IFS='|'; echo "${names[*]}"))\$"
for round in $(seq "$ROUNDS"); do
	echo "round $round, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd "$work" && ./bench.test -test.run '^$' -test.bench "$pattern" -test.benchtime "$BENCHTIME" -test.benchmem) |
		grep '^Benchmark' | tee "$work/round$round.txt" | tee -a "$work/all.txt"
done

# callsps FILE NAME prints the calls/s that FILE reports for NAME.
callsps() {
	awk -v n="Benchmark$2" '{split($1, f, "-")} f[1] == n {
		for (i = 2; i < NF; i++) if ($(i+1) == "calls/s") print $i }' "$1"
}

# mid prints the median of the numbers on its input, one per line.
mid() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# ratios FILE prints one round's ratios: socket/in-process, MCP
# pipe/socket, 8 conns/1 conn sequential, 8 conns/1 conn shared.
ratios() {
	awk -v ip="$(callsps "$1" CallInProcess)" -v s="$(callsps "$1" CallSocket)" \
		-v sh="$(callsps "$1" CallSocketShared)" -v cn="$(callsps "$1" CallSocketConns)" \
		-v m="$(callsps "$1" CallMCPPipe)" \
		'BEGIN {printf "%.3f %.3f %.3f %.3f\n", s/ip, m/s, cn/s, cn/sh}'
}

echo
echo "per-round ratios (socket/in-process, MCP pipe/socket 1 conn, 8 conns/1 conn seq, 8 conns/1 conn shared):"
for round in $(seq "$ROUNDS"); do
	ratios "$work/round$round.txt" | tee -a "$work/ratios.txt" |
		awk '{printf "  %.2fx  %.2fx  %.2fx  %.2fx\n", $1, $2, $3, $4}'
done
echo
echo "median calls/s over $ROUNDS rounds:"
for name in "${names[@]}"; do
	printf '  %-24s %.0f\n' "$name" "$(callsps "$work/all.txt" "$name" | mid)"
done
echo "median of per-round ratios:"
labels=("socket 1 conn / in-process" "MCP pipe / socket 1 conn" "8 conns / 1 conn sequential" "8 conns / 1 conn shared by 8")
for i in 0 1 2 3; do
	printf '  %-30s %.2fx\n' "${labels[$i]}" "$(awk -v c=$((i + 1)) '{print $c}' "$work/ratios.txt" | mid)"
done
echo "loadavg at end: $(cat /proc/loadavg)"

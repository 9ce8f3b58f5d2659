#!/usr/bin/env bash
# run.sh times `cetpgen generate --target go` against oapi-codegen v2
# (models + strict server on net/http) on the same synthetic Provider of
# TOOLS tools (default 1000), side by side: each round runs both, one
# after the other, cetpgen first in odd rounds and oapi-codegen first in
# even ones, and the ratio of that round is taken, so that load from
# other work on the machine hits both sides alike. Each round then times
# `cetpgen generate` of all targets. It prints every round (wall and CPU,
# user + sys, in seconds), the best and median of each, and the median
# per-round ratio.
#
# Usage: bench/oapi/run.sh [TOOLS] [ROUNDS]
set -euo pipefail
tools=${1:-1000}
rounds=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$root"
go build -o "$work/cetpgen" ./cmd/cetpgen
go run ./gen/internal/synth/synthspec -tools "$tools" -out "$work/spec/synth"
cd "$here"
go build -o "$work/oapi-codegen" github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen
go run ./cmd/openapi "$work/spec/synth" > "$work/openapi.json"

# timed prints "WALL CPU" in seconds for one run of a command, CPU being
# the user + system time of the command and its children. The command's
# own stderr goes to the terminal (file descriptor 3), so that only the
# time line reaches awk and a failure shows its message.
timed() {
	local TIMEFORMAT='%R %U %S'
	{ time "$@" > /dev/null 2>&3; } 3>&2 2>&1 | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
}

ours() { rm -rf "$work/out"; timed "$work/cetpgen" generate -q --target go --out "$work/out" "$work/spec/synth"; }
theirs() { timed "$work/oapi-codegen" -generate types,std-http-server,strict-server -package api -o "$work/api.go" "$work/openapi.json"; }
all() { rm -rf "$work/all"; timed "$work/cetpgen" generate -q --out "$work/all" "$work/spec/synth"; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tools: $tools, rounds: $rounds"
for r in $(seq "$rounds"); do
	if ((r % 2)); then
		o=$(ours)
		t=$(theirs)
	else
		t=$(theirs)
		o=$(ours)
	fi
	a=$(all)
	echo "round $r: cetpgen-go $o oapi-codegen $t cetpgen-all $a" | tee -a "$work/rounds"
done
echo "output: cetpgen $(cat "$work"/out/go/synth/*.go | wc -c) bytes of Go, oapi-codegen $(wc -c < "$work/api.go") bytes"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
# Fields of a round line: 4, 5 cetpgen-go wall, CPU; 7, 8 oapi-codegen;
# 10, 11 all targets.
awk '
function sort(a, n,   i, j, x) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x } }
function med(a, n) { sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function line(name, w, c, n) { sort(w, n); printf "%-13s wall best %.3fs median %.3fs, CPU median %.3fs\n", name, w[1], med(w, n), med(c, n) }
{ n = NR; ow[n] = $4; oc[n] = $5; tw[n] = $7; tc[n] = $8; aw[n] = $10; ac[n] = $11; q[n] = $7 / $4 }
END {
	line("cetpgen go", ow, oc, n); line("oapi-codegen", tw, tc, n); line("cetpgen all", aw, ac, n)
	sort(q, n)
	printf "ratio oapi-codegen / cetpgen go, per round: median %.2fx (min %.2fx, max %.2fx)\n", med(q, n), q[1], q[n]
}' "$work/rounds"

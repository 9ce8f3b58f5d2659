#!/bin/sh
# run.sh times `cetpgen generate --target go` against oapi-codegen v2
# (models + strict server on net/http) on the same synthetic Provider of
# TOOLS tools (default 1000), side by side: each round runs both, one after
# the other, and the ratio of that round is taken, so that load from other
# work on the machine hits both sides alike. It prints every round, the
# best time of each side and the median ratio.
#
# Usage: bench/oapi/run.sh [TOOLS] [ROUNDS]
set -eu
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

# timed prints the wall-clock seconds of one run of a command.
timed() {
	s=$(date +%s.%N)
	"$@" > /dev/null
	e=$(date +%s.%N)
	echo "$s $e" | awk '{printf "%.3f\n", $2 - $1}'
}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tools: $tools, rounds: $rounds"
for r in $(seq "$rounds"); do
	rm -rf "$work/out"
	ours=$(timed "$work/cetpgen" generate --target go --out "$work/out" "$work/spec/synth")
	theirs=$(timed "$work/oapi-codegen" -generate types,std-http-server,strict-server -package api -o "$work/api.go" "$work/openapi.json")
	echo "round $r: cetpgen ${ours}s oapi-codegen ${theirs}s" | tee -a "$work/rounds"
done
echo "output: cetpgen $(cat "$work"/out/go/synth/*.go | wc -c) bytes of Go, oapi-codegen $(wc -c < "$work/api.go") bytes"
awk '{o[NR] = $4 + 0; t[NR] = $6 + 0; q[NR] = t[NR] / o[NR]}
END {
	n = NR
	for (i = 2; i <= n; i++) for (j = i; j > 1 && q[j - 1] > q[j]; j--) { x = q[j]; q[j] = q[j - 1]; q[j - 1] = x }
	bo = o[1]; bt = t[1]
	for (i = 2; i <= NR; i++) { if (o[i] < bo) bo = o[i]; if (t[i] < bt) bt = t[i] }
	printf "best: cetpgen %.3fs, oapi-codegen %.3fs\n", bo, bt
	printf "ratio oapi-codegen / cetpgen: median %.2fx (min %.2fx, max %.2fx)\n", q[int((n + 1) / 2)], q[1], q[n]
}' "$work/rounds"

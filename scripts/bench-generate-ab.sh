#!/usr/bin/env bash
# bench-generate-ab.sh REV [ROUNDS] times `cetpgen generate` of the
# commit REV against the working tree on the synthetic 1,000-tool Provider,
# target by target (go, kotlin, catalog, all targets), the two binaries
# alternating which runs first in each round, and prints per binary and
# target the best and median wall time, the median CPU time (user + sys)
# and the median peak RSS. Both outputs are compared byte for byte.
#   scripts/bench-generate-ab.sh 5942e5a 5
set -euo pipefail
rev=${1:?usage: scripts/bench-generate-ab.sh REV [ROUNDS]}
rounds=${2:-5}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/base"
git archive "$rev" | tar -x -C "$work/base"
(cd "$work/base" && go build -o "$work/cetpgen-base" ./cmd/cetpgen)
go build -o "$work/cetpgen-new" ./cmd/cetpgen
go run ./gen/internal/synth/synthspec -tools 1000 -out "$work/spec/synth"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base: $(git rev-parse --short "$rev"), new: working tree at $(git rev-parse --short HEAD), rounds: $rounds"

# run NAME TARGET times one generation into $work/NAME-TARGET.
run() {
	local out=$work/$1-$2 args=()
	[ "$2" != all ] && args=(--target "$2")
	rm -rf "$out"
	/usr/bin/time -f "$1 $2 %e %U %S %M" "$work/cetpgen-$1" generate -q "${args[@]}" --out "$out" "$work/spec/synth" 2>> "$work/times" > /dev/null
}

for r in $(seq "$rounds"); do
	for target in go kotlin catalog all; do
		if ((r % 2)); then run base "$target"; run new "$target"; else run new "$target"; run base "$target"; fi
	done
done
for target in go kotlin catalog all; do
	# A Go server skeleton's main.go names the output directory it was
	# generated into, which differs between the two runs.
	if diff -r -q -x main.go "$work/base-$target" "$work/new-$target" > /dev/null; then
		echo "$target: outputs identical"
	else
		echo "$target: OUTPUTS DIFFER"
	fi
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
function sort(a, n,   i, j, x) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x } }
function med(s,   a, n, i) { n = split(s, a, " "); for (i in a) a[i] += 0; sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function best(s,   a, n, i) { n = split(s, a, " "); for (i in a) a[i] += 0; sort(a, n); return a[1] }
{ k = $2 " " $1; w[k] = w[k] " " $3; c[k] = c[k] " " ($4 + $5); m[k] = m[k] " " $6 }
END { for (k in w) printf "%-13s wall best %.2f s, median %.2f s; CPU median %.2f s; peak RSS median %.0f MB\n", k, best(w[k]), med(w[k]), med(c[k]), med(m[k]) / 1024 }' "$work/times" | sort

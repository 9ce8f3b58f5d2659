#!/usr/bin/env bash
# kotlinc.sh installs the Kotlin compiler that the Kotlin compile tests of
# gen/emit/kotlin use, from the npm package kotlin-compiler, into
# .cache/kotlinc/ at the repository root (git-ignored), and prints the path
# of the kotlinc binary. It does nothing but print the path when the
# compiler is already there. Java 17 or later must be on the PATH.
set -euo pipefail

version="${KOTLIN_COMPILER_VERSION:-2.4.20}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.cache/kotlinc/$version"

find_bin() {
	{ find "$dest" -type f -path '*/bin/kotlinc' 2>/dev/null || true; } | sort | head -n 1
}

bin="$(find_bin)"
if [ -z "$bin" ]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "kotlin-compiler@$version" >/dev/null)
	mkdir -p "$(dirname "$dest")"
	partial="$(mktemp -d "$dest.partial.XXXXXX")"
	tar -xzf "$tmp"/kotlin-compiler-*.tgz -C "$partial"
	chmod 755 "$partial"
	# Another run may have finished first; its copy is as good as ours.
	mv -T "$partial" "$dest" 2>/dev/null || rm -rf "$partial"
	bin="$(find_bin)"
	if [ -z "$bin" ]; then
		echo "kotlinc.sh: no bin/kotlinc in kotlin-compiler@$version" >&2
		exit 1
	fi
	chmod +x "$(dirname "$bin")"/* || true
fi
echo "$bin"

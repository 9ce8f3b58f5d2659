#!/usr/bin/env bash
# ajv.sh installs ajv (the JavaScript JSON Schema validator) and
# ajv-formats, pinned, from the npm registry into .cache/ajv/<version>/ at
# the repository root (git-ignored), and prints that directory. The
# meta-schema test of schema/ runs scripts/ajv-check.js with it, to check
# the meta-schemas and every example spec with a second, independent
# implementation in its default strict mode. It does nothing but print the
# directory when the packages are already there. Node.js must be on the PATH.
set -euo pipefail

ajv="${AJV_VERSION:-8.20.0}"
formats="${AJV_FORMATS_VERSION:-3.0.1}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.cache/ajv/$ajv-$formats"

if [ ! -f "$dest/done" ]; then
	mkdir -p "$(dirname "$dest")"
	partial="$(mktemp -d "$dest.partial.XXXXXX")"
	trap 'rm -rf "$partial"' EXIT
	npm install --silent --no-audit --no-fund --no-package-lock --prefix "$partial" \
		"ajv@$ajv" "ajv-formats@$formats" >&2
	touch "$partial/done"
	chmod 755 "$partial"
	# Another run may have finished first; its copy is as good as ours.
	mv -T "$partial" "$dest" 2>/dev/null || true
fi
echo "$dest"

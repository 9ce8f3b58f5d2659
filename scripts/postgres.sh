#!/usr/bin/env bash
# postgres.sh runs the throwaway PostgreSQL server of the PostgreSQL store
# tests (runtime/store/pgstore, runtime/provider).
#
#   scripts/postgres.sh start     install if missing, start, print the DSN
#   scripts/postgres.sh stop      stop the server (its data stays)
#   scripts/postgres.sh env       print `export CETP_PG_DSN=...` if running
#   scripts/postgres.sh dsn       print the DSN if running, else nothing
#   scripts/postgres.sh test [go test args]
#                                 start, then run the store and provider
#                                 tests with CETP_PG_DSN set
#   scripts/postgres.sh destroy   stop and delete the data directory
#
# The server listens on 127.0.0.1 only, on a free port, with trust
# authentication for loopback connections; its data directory is
# .cache/pg/data at the repository root (git-ignored), or, when the
# clone lives where the `postgres` user cannot enter (a 0700 home, as
# root), /var/lib/postgresql/cetpgen/<hash of the clone's path>/data; the
# lock, the port and the choice stay in .cache/pg. It installs
# PostgreSQL from Debian's packages when no initdb is found. PostgreSQL
# refuses to run as root, so as root the server runs as the `postgres`
# system user (created if missing). start is idempotent and safe when run
# concurrently: a second start finds the running server and prints its DSN.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/.cache/pg" # lock, port and the server directory's name
db="cetp_test"

# srv is the directory of the server's own files (data, logs): $dir, or
# the one that choose_srv recorded in $dir/server-dir.
srv="$dir"
if [ -f "$dir/server-dir" ]; then srv="$(cat "$dir/server-dir")"; fi
data="$srv/data"

die() { echo "postgres.sh: $*" >&2; exit 1; }

bindir() {
	local d
	d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
	if [ -z "$d" ] && command -v initdb >/dev/null; then d="$(dirname "$(readlink -f "$(command -v initdb)")")"; fi
	echo "$d"
}

install_pg() {
	[ -n "$(bindir)" ] && return 0
	[ "$(id -u)" = 0 ] || die "PostgreSQL is not installed; run as root or: apt-get install -y postgresql"
	echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
	[ -n "$(bindir)" ] || die "apt-get installed no PostgreSQL binaries"
}

# as runs a command as the server's owner: `postgres` when we are root,
# from /, since the caller's directory may be one that postgres cannot
# enter.
as() {
	if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

ensure_user() {
	[ "$(id -u)" = 0 ] || return 0
	id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
}

# choose_srv picks where the server's files live: in $dir when the
# server's owner can write there, else (as root, a clone under a
# directory that `postgres` cannot enter) under /var/lib/postgresql,
# named after the clone's path so that clones do not share a server.
choose_srv() {
	local d="$dir"
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$dir"
		if ! as test -w "$dir" 2>/dev/null; then
			d="/var/lib/postgresql/cetpgen/$(printf '%s' "$root" | sha256sum | cut -c1-16)"
			mkdir -p "$d"
			chown postgres: "$d"
			as test -w "$d" || die "user postgres can write neither $dir nor $d"
		fi
	fi
	echo "$d" >"$dir/server-dir"
	srv="$d"
	data="$srv/data"
}

port() { cat "$dir/port" 2>/dev/null || true; }

dsn() { echo "postgres://postgres@127.0.0.1:$(port)/$db?sslmode=disable"; }

running() {
	[ -f "$data/PG_VERSION" ] && [ -n "$(port)" ] && as "$(bindir)/pg_ctl" status -D "$data" >/dev/null 2>&1
}

free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 40000))
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
	die "no free port found"
}

init_cluster() {
	[ -f "$data/PG_VERSION" ] && return 0
	rm -rf "$data"
	as "$(bindir)/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
		die "initdb failed, see $dir/initdb.log"
	cat >>"$data/postgresql.conf" <<-EOF
		# cetpgen test server
		listen_addresses = '127.0.0.1'
		unix_socket_directories = ''
		max_connections = 300
	EOF
	printf 'host all all 127.0.0.1/32 trust\n' >"$data/pg_hba.conf"
}

start_server() {
	local p
	for _ in 1 2 3; do
		p="$(free_port)"
		echo "$p" >"$dir/port"
		if as "$(bindir)/pg_ctl" start -D "$data" -l "$srv/server.log" -w -t 60 -o "-p $p" >/dev/null 9>&-; then
			return 0
		fi
	done
	rm -f "$dir/port"
	die "the server did not start, see $srv/server.log"
}

create_db() {
	local psql=("$(bindir)/psql" -h 127.0.0.1 -p "$(port)" -U postgres -d postgres -qtAX)
	if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
		"${psql[@]}" -c "CREATE DATABASE $db" >/dev/null
	fi
}

start() {
	install_pg
	mkdir -p "$dir"
	exec 9>"$dir/lock"
	flock 9
	ensure_user
	if ! running; then
		choose_srv
		init_cluster
		start_server
	fi
	create_db
	dsn
}

stop() {
	[ -f "$data/PG_VERSION" ] || return 0
	as "$(bindir)/pg_ctl" stop -D "$data" -m fast >/dev/null 2>&1 || true
	rm -f "$dir/port"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
dsn) if running; then dsn; fi ;;
env) running || die "not running; run: scripts/postgres.sh start"; echo "export CETP_PG_DSN='$(dsn)'" ;;
test)
	shift
	CETP_PG_DSN="$(start)"
	export CETP_PG_DSN
	cd "$root" && go test -race "$@" ./runtime/store/... ./runtime/provider/...
	;;
destroy) stop; rm -rf "$data" ;;
*) die "usage: scripts/postgres.sh start|stop|env|dsn|test|destroy" ;;
esac

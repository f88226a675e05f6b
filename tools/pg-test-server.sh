#!/usr/bin/env bash
# Start (or reuse) a private PostgreSQL server for ferro's tests and print its connection string.
#
#   tools/pg-test-server.sh          start the server unless it runs already; print the
#                                    connection string (postgres://...) on standard output
#   tools/pg-test-server.sh stop     stop it
#
# The cluster lives in $FERRO_PG_DIR (default ${TMPDIR:-/tmp}/ferro-pg-test): initdb'd on first
# use with trust authentication, listening on 127.0.0.1 only, on a free port. When no server
# binaries are installed and this runs as root, the Debian package `postgresql` is installed
# first; as root the server runs as the `postgres` user the package creates.
#
# Usage in a shell: export FERRO_PG_CONN_STR="$(tools/pg-test-server.sh)"
set -euo pipefail

dir=${FERRO_PG_DIR:-${TMPDIR:-/tmp}/ferro-pg-test}
mkdir -p "$dir"
exec 9>"$dir.lock"
flock 9

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin)
if [[ -z $bin ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "pg-test-server: no PostgreSQL server found; install the Debian package postgresql" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null 2>&1 || {
    echo "pg-test-server: apt-get install postgresql failed" >&2
    exit 1
  }
  bin=$(find_bin)
fi

if [[ $(id -u) -eq 0 ]]; then
  chown postgres: "$dir"
  as_owner() { runuser -u postgres -- "$@"; }
else
  as_owner() { "$@"; }
fi

conn() { printf 'postgres://postgres@127.0.0.1:%s/postgres?sslmode=disable\n' "$(cat "$dir/port")"; }

if [[ ${1:-start} == stop ]]; then
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
fi

if [[ -f $dir/port ]] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  conn
  exit 0
fi

if [[ ! -f $dir/data/PG_VERSION ]]; then
  rm -rf "$dir/data"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
fi
as_owner mkdir -p "$dir/sock"

# A free port: one nothing answers on (a few tries in case another process takes it first).
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    continue
  fi
  if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 30 start \
    -o "-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null 2>&1 9>&-; then
    echo "$port" >"$dir/port"
    conn
    exit 0
  fi
done
echo "pg-test-server: the server did not start; see $dir/data/server.log" >&2
tail -n 20 "$dir/data/server.log" >&2 || true
exit 1

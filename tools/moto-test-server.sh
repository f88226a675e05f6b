#!/usr/bin/env bash
# Start (or reuse) a private moto server (an S3, DynamoDB and STS API) for ferro's s3 backend
# tests and print its endpoint.
#
#   tools/moto-test-server.sh          start the server unless it runs already; print the
#                                      endpoint (http://127.0.0.1:PORT) on standard output
#   tools/moto-test-server.sh stop     stop it
#
# moto is installed from PyPI (`moto[server]`, a pinned version) into a virtual environment in
# a cache folder (default ~/.cache/ferro-moto, or $FERRO_MOTO_CACHE) on first use. The server
# runs in $FERRO_MOTO_DIR (default ${TMPDIR:-/tmp}/ferro-moto-test), listening on 127.0.0.1
# only, on a free port.
#
# Usage in a shell: export FERRO_MOTO_ENDPOINT="$(tools/moto-test-server.sh)"
set -euo pipefail

version=5.2.6
cache=${FERRO_MOTO_CACHE:-${HOME:-/tmp}/.cache/ferro-moto}
dir=${FERRO_MOTO_DIR:-${TMPDIR:-/tmp}/ferro-moto-test}
mkdir -p "$dir" "$cache"
exec 9>"$dir.lock"
flock 9

endpoint() { printf 'http://127.0.0.1:%s\n' "$(cat "$dir/port")"; }
running() { [[ -f $dir/pid && -f $dir/port ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; }

if [[ ${1:-start} == stop ]]; then
  if running; then
    kill "$(cat "$dir/pid")" 2>/dev/null || true
  fi
  rm -f "$dir/pid" "$dir/port"
  exit 0
fi

if running; then
  endpoint
  exit 0
fi

venv="$cache/venv-$version"
if [[ ! -x $venv/bin/moto_server ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$version" >&2 || {
    echo "moto-test-server: pip install moto[server]==$version failed" >&2
    rm -rf "$venv"
    exit 1
  }
fi

# A free port: one nothing answers on (a few tries in case another process takes it first).
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    continue
  fi
  setsid "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/server.log" 2>&1 9>&- </dev/null &
  pid=$!
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$pid" >"$dir/pid"
      echo "$port" >"$dir/port"
      endpoint
      exit 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
done
echo "moto-test-server: the server did not start; see $dir/server.log" >&2
tail -n 20 "$dir/server.log" >&2 || true
exit 1

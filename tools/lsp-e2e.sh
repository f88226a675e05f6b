#!/usr/bin/env bash
# End-to-end tests of `ferro lsp` with a third-party LSP client: pytest-lsp (from PyPI, on
# pygls) drives the real binary over stdio. The client is installed into a virtual environment
# under a cache folder (default ~/.cache/ferro-lsp-e2e, or $FERRO_LSP_E2E); nothing is
# downloaded once it is there. pytest's exit 5 (no test ran) counts as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${FERRO_LSP_E2E:-${HOME:-/tmp}/.cache/ferro-lsp-e2e}
venv="$cache/venv"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if ! "$venv/bin/python" -c "import pytest_lsp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet \
    pytest-lsp==1.0.1 pygls==2.1.1 lsprotocol==2025.0.0 pytest==9.2.0 pytest-asyncio==1.5.0
fi
flock -u 9

cargo build --quiet -p ferro-cli --bin ferro
export FERRO_BIN="$PWD/target/debug/ferro"

status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider tools/lsp-e2e "$@" || status=$?
if [[ $status -eq 5 ]]; then
  echo "lsp-e2e: no test ran" >&2
  exit 1
fi
exit "$status"

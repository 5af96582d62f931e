#!/bin/sh
# Runs python-bitshares' own node test suite (tests/testnet/aio, v0.7.1, unmodified) against this
# node, started by the suite's own conftest.py through a stand-in for docker (shim/docker.py).
# README.md beside this file says what differs from upstream's run and why.
#
#   test/python-upstream/run.sh                      # the whole suite
#   test/python-upstream/run.sh -k test_transfer     # extra arguments go to pytest
#   test/python-upstream/run.sh --isolate            # each test without what earlier ones left in the
#                                                    # library's transaction buffer (shim/isolate.py)
#   test/python-upstream/run.sh --cache-check        # only cache-check/: the library's object cache,
#                                                    # not the node, fails five of the suite's tests
#
# Needs Debian's python3 with python3-pytest python3-pytest-asyncio python3-pytest-timeout
# python3-aiohttp python3-websockets python3-websocket python3-ecdsa python3-requests
# python3-pycryptodome python3-appdirs python3-scrypt python3-expiringdict, and the library checkout
# (PYTHON_BITSHARES_DIR, default ../shared/clients/python-bitshares beside the repository).
# Not part of npm test: CI does not need Python.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
clients=${PYTHON_BITSHARES_DIR:-$repo/../shared/clients/python-bitshares}
python=${PYTHON:-/usr/bin/python3}
plugins="-p loop_compat -p default_account"
cache_check=
if [ "${1:-}" = "--isolate" ]; then
  plugins="$plugins -p isolate"
  shift
elif [ "${1:-}" = "--cache-check" ]; then
  cache_check=1
  shift
fi

if [ ! -d "$clients/upstream-tests/tests/testnet/aio" ] || [ ! -d "$clients/lib/bitshares" ]; then
  echo "run.sh: no python-bitshares checkout with upstream-tests/ and lib/ at $clients (set PYTHON_BITSHARES_DIR)" >&2
  exit 2
fi
(cd "$repo" && npm run -s build)

# A copy of the suite, so that pytest's caches and the suite's relative paths (it mounts
# ./tests/testnet/node_config) stay out of the shared checkout.
work=$(mktemp -d "${TMPDIR:-/tmp}/python-upstream-XXXXXX")
cp -R "$clients/upstream-tests/tests" "$work/tests"
mkdir -p "$work/logs" "$work/nodes"
if [ -n "$cache_check" ]; then
  cp "$here/cache-check/test_zz_cache_check.py" "$work/tests/testnet/aio/"
  set -- -k test_cache_ "$@"
fi
echo "run.sh: suite copied to $work; node logs in $work/logs" >&2

cd "$work"
# A library call that loops (python-graphenelib's API wrapper retries some failures forever, growing
# as it goes) must not take the machine's memory: pytest gets 4 GiB of address space, and its
# per-test timeout ends a test that hangs. The node is given its own limits back (shim/docker.py).
ulimit -S -v "${PYTEST_MAX_KIB:-4194304}"
status=0
UPSTREAM_NODE_REPO=$repo UPSTREAM_NODE_LOG_DIR=$work/logs UPSTREAM_NODE_DATA_DIR=$work/nodes \
PYTHONDONTWRITEBYTECODE=1 XDG_DATA_HOME=$work/data \
PYTHONPATH="$here/shim:$clients/lib" \
  "$python" -m pytest tests/testnet/aio \
    -p no:cacheprovider \
    $plugins \
    -o asyncio_mode=auto \
    --timeout "${PYTEST_TIMEOUT:-180}" \
    -rfE \
    --junitxml "$work/results.xml" \
    "$@" || status=$?
"$python" "$here/summary.py" "$work/results.xml" || true
# The chains are not needed after the run (a node stopped by a killed pytest leaves its own behind).
rm -rf "$work/nodes"
exit $status

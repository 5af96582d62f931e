#!/bin/sh
# Runs bitsharesjs' (6.0.3) and bitsharesjs-ws' (6.0.2) own mocha suites against two devnet nodes of
# this repository, one standing in for BitShares' main net (prefix BTS) and one for its public testnet
# (prefix TEST). README.md beside this file lists what is changed from upstream's run and why, and the
# results.
#
#   test/bitsharesjs-upstream/run.sh                  # both suites
#   test/bitsharesjs-upstream/run.sh bitsharesjs      # one of them (bitsharesjs or bitsharesjs-ws)
#   test/bitsharesjs-upstream/run.sh bitsharesjs test/chain/ChainStore.js   # some files of one
#   BARE=1 test/bitsharesjs-upstream/run.sh           # on a main-net stand-in without the main-net
#                                                     # ids the suites read (genesis.mjs --bare)
#
# The libraries' sources: BITSHARESJS_DIR and BITSHARESJS_WS_DIR (checkouts of the tags 6.0.3 and
# 6.0.2), or else `git clone` of the tags from GitHub. Their test dependencies are installed from the
# npm registry at the exact versions of locks/ (npm ci --ignore-scripts) into a temporary directory.
# Not part of npm test: it needs those installs.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
which=${1:-all}
[ $# -gt 0 ] && shift
case "$which" in all|bitsharesjs|bitsharesjs-ws) ;; *) echo "run.sh: unknown suite $which" >&2; exit 2 ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/bitsharesjs-upstream-XXXXXX")
echo "run.sh: working in $work (node logs there)" >&2
cleanup() {
  for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  rm -rf "$work/main-data" "$work/test-data"
}
trap cleanup EXIT INT TERM

(cd "$repo" && npm run -s build)

# $1 name, $2 tag, $3 directory given by the user (may be empty)
fetch_source() {
  if [ -n "$3" ]; then
    mkdir -p "$work/$1"
    (cd "$3" && tar -c --exclude ./node_modules --exclude ./.git --exclude ./docs .) | tar -x -C "$work/$1"
  else
    git clone -q --depth 1 --branch "$2" "https://github.com/bitshares/$1" "$work/$1"
  fi
  version=$(node -p "require('$work/$1/package.json').version")
  if [ "$version" != "$2" ]; then echo "run.sh: $1 is $version, not $2" >&2; exit 2; fi
  cp "$here/locks/$1/package-lock.json" "$work/$1/package-lock.json"
  (cd "$work/$1" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
}
if [ "$which" != bitsharesjs-ws ]; then fetch_source bitsharesjs 6.0.3 "${BITSHARESJS_DIR:-}"; fi
if [ "$which" != bitsharesjs ]; then
  fetch_source bitsharesjs-ws 6.0.2 "${BITSHARESJS_WS_DIR:-}"
  # The package's prepare script (skipped by --ignore-scripts): its suite loads lib/, built from src/.
  (cd "$work/bitsharesjs-ws" && npx babel src -d lib >/dev/null)
fi

node "$here/genesis.mjs" "$work" ${BARE:+--bare}
# $1 name, then serve's options. Prints the port the node took (port 0: a free one).
start_node() {
  name=$1; shift
  node "$repo/bin/graphene-rpc.js" serve --data-dir "$work/$name-data" --rpc-endpoint 127.0.0.1:0 \
    --block-interval 1 --workers 1 "$@" >"$work/$name-node.log" 2>&1 &
  echo $! >"$work/$name.pid" # start_node runs in a subshell: the pid goes to a file for cleanup
  i=0
  until port=$(grep -o '"port":[0-9]*' "$work/$name-node.log" | head -n 1 | cut -d: -f2) && [ -n "$port" ] \
      && curl -sf "http://127.0.0.1:$port/ready" >/dev/null; do
    i=$((i + 1)); if [ $i -gt 600 ]; then echo "run.sh: the $name node did not get ready" >&2; cat "$work/$name-node.log" >&2; exit 1; fi
    sleep 0.1
  done
  echo "$port"
}
chain_id() {
  curl -sf -d '{"id":1,"method":"call","params":[0,"get_chain_id",[]]}' "http://127.0.0.1:$1" | node -p 'JSON.parse(require("fs").readFileSync(0)).result'
}
# --enable-subscribe-to-all: the suite's set_subscribe_callback(cb, true) asks for every object's
# creation and removal, which Core refuses unless the node enables it (as public nodes do).
main_port=$(start_node main --genesis-json "$work/mainnet.json" --enable-subscribe-to-all true)
test_port=$(start_node test --genesis-json "$work/testnet.json" --address-prefix TEST \
  --private-key '["TEST6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV","5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3"]')
export DEVNET_MAIN_CHAIN_ID DEVNET_TEST_CHAIN_ID
DEVNET_MAIN_CHAIN_ID=$(chain_id "$main_port")
DEVNET_TEST_CHAIN_ID=$(chain_id "$test_port")
main_url=ws://127.0.0.1:$main_port
test_url=ws://127.0.0.1:$test_port
# A second address of the same node, where a suite needs two working main-net nodes.
other_main_url=ws://localhost:$main_port
[ -n "${BARE:-}" ] || (cd "$repo" && node "$here/setup-chain.mjs" "$main_url")

# The nodes' addresses in place of the public ones (README.md, "What is changed").
sed -i \
  -e "s#wss://eu\.nodes\.testnet\.bitshares\.ws#$test_url#g" \
  -e "s#wss://testnet\.nodes\.bitshares\.ws#$test_url#g" \
  -e "s#wss://node\.testnet\.bitshares\.eu#$test_url#g" \
  -e "s#wss://eu\.nodes\.bitshares\.ws#$main_url#g" \
  -e "s#wss://public\.xbts\.io/ws#$other_main_url#g" \
  -e "s#wss://eu\.openledger\.info/ws#$other_main_url#g" \
  -e "s#wss://bts\.open\.icowallet\.net/ws#$other_main_url#g" \
  $(find "$work"/bitsharesjs*/test -name '*.js' 2>/dev/null)

status=0
run_suite() {
  suite=$1; shift
  echo "=== $suite" >&2
  # Node.js >= 20.19 parses a .js file with import statements as an ES module before @babel/register
  # can compile it (module syntax detection); the suites were written for Node.js 16, which did not.
  (cd "$work/$suite" && NODE_OPTIONS=--no-experimental-detect-module BABEL_ENV=test npx mocha --require @babel/register --require "$here/register-chains.cjs" \
    --recursive --exit "$@" >"$work/$suite.out" 2>&1) || status=1
  cat "$work/$suite.out"
}
if [ "$which" = all ]; then
  run_suite bitsharesjs
  run_suite bitsharesjs-ws
else
  run_suite "$which" "$@"
fi
exit $status

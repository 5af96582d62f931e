// Every rule of .dependency-cruiser.cjs fires: test/fixtures/layers/ is a tiny tree laid out like
// the project in which each rule is broken (and a few allowed imports are not), cruised with the
// project's own config. A rule that matches nothing here would be one that can never fire.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fixture } from './helpers/fixtures.js';

const root = path.resolve(fixture('.'), '../..');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

let cached: Violation[] | undefined;

/** The violations in the fixture tree (cruised once: it takes a couple of seconds). */
function cruise(): Violation[] {
  if (cached) return cached;
  const cwd = fixture('layers');
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src', 'workers', 'bench', 'test'],
    { cwd, encoding: 'utf8' },
  );
  if (!run.stdout) throw new Error(`dependency-cruiser failed (${run.status}): ${run.stderr}`);
  cached = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  return cached;
}

/**
 * A package file as `node_modules/…`: dependency-cruiser names it by its resolved path relative to
 * the cruised directory, which goes up and out of the tree when node_modules is a symlink (as in a
 * git worktree that shares the main checkout's packages).
 */
function packagePath(name: string): string {
  const at = name.indexOf('node_modules/');
  return at < 0 ? name : name.slice(at);
}

test('each layer rule reports exactly the imports that break it in the fixture tree', (t) => {
  const found = cruise()
    .map((v) => (v.cycle ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}` : `${v.rule.name}: ${v.from} → ${packagePath(v.to)}`))
    .sort();
  t.deepEqual(found, [
    'api-tables-closed: src/api/registry.js → src/chain/store/store.js',
    'below-the-pipeline: src/dispatch/route.js → src/transport/framing.js',
    'below-the-pipeline: src/handlers/login.js → src/pipeline/pipeline.js',
    'below-the-pipeline: src/pool/scheduler.js → src/pipeline/pipeline.js',
    'below-the-pipeline: src/subscriptions/hub.js → src/transport/framing.js',
    'chain-crypto-below-protocol: src/chain/crypto/keys.js → src/chain/protocol/serializer.js',
    'chain-evaluators-below-plugins: src/chain/evaluators/ledger.js → src/chain/plugins/market-history.js',
    'chain-fc-is-the-floor: src/chain/fc/object-id.js → src/chain/crypto/keys.js',
    'chain-not-front-end: src/chain/node/block-applier.js → src/session/session.js',
    'chain-not-generate: src/chain/node/block-applier.js → src/generate/generate.js',
    'chain-plugins-below-node: src/chain/plugins/market-history.js → src/chain/node/producer.js',
    'chain-protocol-below-store: src/chain/protocol/serializer.js → src/chain/store/store.js',
    'chain-store-below-evaluators: src/chain/store/state.js → src/chain/evaluators/ledger.js',
    'dispatch-not-session: src/dispatch/dispatcher.js → src/session/session.js',
    'main-is-an-entry-point: src/access.js → src/main.js',
    'main-is-an-entry-point: workers/reply-writer.js → src/main.js',
    'no-circular: bench/report.js → bench/run.js → bench/report.js',
    'no-circular: src/chain/store/state.js → src/chain/store/store.js → src/chain/store/state.js',
    'no-circular: test/helpers/a.js → test/helpers/b.js → test/helpers/a.js',
    'node-not-bench-or-test: src/log.js → bench/run.js',
    'node-without-dev-packages: src/log.js → node_modules/ws/wrapper.mjs',
    'pipeline-not-transport: src/pipeline/failure.js → src/transport/framing.js',
    'pool-is-the-inner-layer: src/pool/scheduler.js → src/handlers/login.js',
    'protocol-not-chain: src/protocol/jsonrpc.js → src/chain/fc/fc-json.js',
    'session-holds-state-only: src/session/session.js → src/chain/node/producer.js',
    'session-holds-state-only: src/session/session.js → src/pool/pool.js',
    'startup-only-from-entry-points: src/readiness.js → src/startup/front-end.js',
    'transport-is-the-outer-layer: src/transport/server.js → src/api/registry.js',
    'transport-is-the-outer-layer: src/transport/server.js → workers/entry.js',
    'tuning-is-a-leaf: src/tuning.js → src/errors.js',
    'workers-not-front-end: workers/entry.js → src/pool/pool.js',
    'workers-not-front-end: workers/reply-writer.js → src/main.js',
  ]);
});

test('the config names every rule the fixture tree exercises, and no other', async (t) => {
  const { createRequire } = await import('node:module');
  const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };
  const fired = new Set(cruise().map((v) => v.rule.name));
  t.deepEqual(config.forbidden.map((r) => r.name).sort(), [...fired].sort());
});

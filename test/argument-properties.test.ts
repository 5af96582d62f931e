// Argument conversion, for every method every worker serves: whatever JSON values a client puts at
// each argument position, the call answers a result (a JSON reply) or an error of Core's kinds;
// never an unexpected exception (-32603 with a 'call failed' log line), which would mean a converter
// or a handler met a value it did not expect. The calls run through the workers' own call path
// (workers/run-call.ts, what workers/entry.ts runs for each call), after the msgpackr round trip of
// the pool, against a real LMDB store holding a small chain, in this thread: thousands of calls a
// second instead of a server's hundreds. The methods the front end answers itself (broadcasts,
// validate_transaction, subscriptions, login, network_node, debug) run through a real node instead,
// over WebSocket, as they need its sessions, chain writer and subscription hub.
import test from 'ava';
import fc from 'fast-check';
import { API_SETS } from '../src/api/registry.js';
import { requiredArgs, runsIn, type MethodSpec } from '../src/api/types.js';
import { buildConfig } from '../src/config.js';
import { decode, encode } from '../src/protocol/codec.js';
import type { PoolAnswer, PoolTask } from '../src/protocol/thread-messages.js';
import { RPC, isWireError } from '../src/errors.js';
import { costOf } from '../src/pipeline/cost.js';
import type { Target } from '../src/dispatch/route.js';
import { formatAddress, parsePublicKey, publicKeyAddress } from '../src/chain/crypto/public-key.js';
import { runCall } from '../workers/run-call.js';
import type { WorkerContext } from '../workers/context.js';
import { DEV_PUB, DEV_WIF, makeChain, op } from './helpers/chain.js';
import { captureLogs } from './helpers/logs.js';
import { checkAsyncProperty } from './helpers/properties.js';
import { startTestNode } from './helpers/node.js';
import { tempDir } from './helpers/temp.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

/** Every (set, method) the pool serves, with its parameter table. */
const POOL_METHODS: { set: string; method: string; spec: MethodSpec }[] = Object.entries(API_SETS).flatMap(([set, s]) =>
  Object.entries(s.methods as Record<string, MethodSpec>)
    .filter(([, spec]) => runsIn(s, spec) === 'pool')
    .map(([method, spec]) => ({ set, method, spec })),
);

// ---- values a client might send: the well-formed, the almost well-formed, and the hostile ----

const DEV_ADDRESS = formatAddress(publicKeyAddress(parsePublicKey(DEV_PUB)));
const badChecksum = DEV_PUB.slice(0, -1) + (DEV_PUB.endsWith('1') ? '2' : '1');
const names = ['nathan', 'alice', 'bob', 'committee-account', 'init0', 'nobody', '', 'A', 'a'.repeat(64), 'a'.repeat(300), 'x'.repeat(5000), 'ni\u00f1o', '\u0000'];
const assets = ['BTS', 'TEST', 'NOPE', 'bts', 'A'.repeat(17), 'A'.repeat(300)];
const ids = [
  '1.2.0', '1.2.6', '1.2.7', '1.2.8', '1.2.99999', '1.3.0', '1.3.1', '1.3.77', '1.11.0', '1.11.3', '1.11.99999', '2.1.0', '2.0.0', '2.3.0', '2.5.0', '2.5.1', '2.6.6',
  '1.5.0', '1.6.1', '1.7.0', '1.14.0', '1.16.0', '1.19.0', '1.20.0', '1.21.0', '1.22.0', '1.23.0', '1.24.0', '1.4.0', '1.8.0', '1.10.0', '1.12.0', '1.13.0', '1.15.0', '1.17.0', '1.18.0',
  '1.2.18446744073709551615', '1.2.18446744073709551616', '1.2.-1', '1..1', '1.2', '.1.2', '1.2.3.4', '00001.2.3', '1.2.1e3', '1.2. 5', '255.255.281474976710655', '256.0.0', '1.2.0x10',
];
const keys = [DEV_PUB, badChecksum, 'BTS', 'BTS1111111111111111111111111111111114T1Anm', 'TEST' + DEV_PUB.slice(3), DEV_ADDRESS, 'BTS' + '1'.repeat(200), 'BTS0OIl'];
const numbers: unknown[] = [
  0, 1, -1, 2, 3, 10, 100, 101, 1000, 10001, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), 1.5, -0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER,
  // What JSON.parse makes of 1e999999, -1e999999 and -0: numbers a client can send that no integer is.
  Infinity, -Infinity, -0, 1e-300,
  '0', '10', '-1', '1e3', '0x10', 'abc', ' 5', '5 ', '18446744073709551615', '18446744073709551616', '-9223372036854775809', '99999999999999999999999', '1.5',
];
const times = ['2020-01-01T00:00:00', '1970-01-01T00:00:00', '2106-02-07T06:28:15', '2106-02-07T06:28:16', '2024-13-01T00:00:00', '2024-02-30T00:00:00', 'now', '2020-01-01', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00.123', '9999-12-31T23:59:59'];
const hexes = ['', '00', 'ab'.repeat(32), 'zz', '0'.repeat(66), '02' + '0'.repeat(64), '03' + 'f'.repeat(64), '0'.repeat(40), 'f'.repeat(40), 'abc', '1f' + 'ab'.repeat(64)];
const transfer = { fee: { amount: 0, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.7', amount: { amount: 1000, asset_id: '1.3.0' }, extensions: [] };
const trx = { ref_block_num: 1, ref_block_prefix: 1, expiration: '2030-01-01T00:00:00', operations: [[0, transfer]], extensions: [], signatures: [] };
const structs: unknown[] = [
  {}, { a: 1 }, trx, { ...trx, operations: [] }, { ...trx, operations: [[99, {}]] }, { ...trx, operations: [[5, {}]] }, { ...trx, signatures: ['zz'] }, { ...trx, expiration: 5 },
  [0, transfer], [[0, transfer]], [0, {}], [5, { name: 'x' }], [10, {}], [14, {}], [6, {}], [3, {}], [-1, {}], [0], [[0, {}], [1, {}]],
  { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } }, { amount: 1, asset_id: '1.3.0' }, { amount: '1e400', asset_id: '1.3.0' },
];
const atom: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...names, ...assets) },
  { weight: 3, arbitrary: fc.constantFrom(...ids) },
  { weight: 1, arbitrary: fc.constantFrom(...keys) },
  { weight: 3, arbitrary: fc.constantFrom(...numbers) },
  { weight: 1, arbitrary: fc.constantFrom(...times) },
  { weight: 1, arbitrary: fc.constantFrom(...hexes) },
  { weight: 2, arbitrary: fc.constantFrom(...structs) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, 'true', [], {}) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
/** One argument: a value, a list of values, a list of pairs, any JSON value, a long list, a deep one. */
const argument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: atom },
  { weight: 3, arbitrary: fc.array(atom, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.tuple(atom, atom), { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(atom, { minLength: 99, maxLength: 130 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown) },
);
const pick = (...xs: unknown[]) => fc.constantFrom(...xs);
/** Numbers at the edges, at any position: what converters to integers, ids and times must refuse or wrap, never throw on. */
const EDGE_NUMBERS: readonly unknown[] = [Infinity, -Infinity, -0, 1e308, -1e308, 2 ** 64, -(2 ** 63), -(2 ** 64), 1.5, -1, -1.5, '18446744073709551616', '-9223372036854775809', 1e-300];
const edgeNumber = pick(...EDGE_NUMBERS);
const accountValue = pick('nathan', 'alice', 'bob', '1.2.6', '1.2.7', '1.2.0', 'nobody', '1.2.99999');
const assetValue = pick('BTS', 'TEST', '1.3.0', '1.3.1', 'NOPE', '1.3.99');
/**
 * A well-formed value for a parameter, guessed from its name, so that calls get past their first
 * arguments and the later ones are converted too (a random first argument mostly ends the call there).
 */
function plausible(name: string): fc.Arbitrary<unknown> {
  if (/^(trx)$/.test(name)) return pick(trx, { ...trx, signatures: ['1f' + 'ab'.repeat(64)] });
  if (/^ops$/.test(name)) return pick([[0, transfer]], [[0, transfer], [5, {}]], [[14, {}]]);
  if (/keys|public_key|^addrs$/.test(name)) return fc.oneof(pick(DEV_PUB, DEV_ADDRESS), fc.array(pick(DEV_PUB, DEV_ADDRESS), { maxLength: 3 }));
  if (/symbol|^asset|^base|^quote|^a$|^b$/.test(name)) return fc.oneof(assetValue, fc.array(assetValue, { maxLength: 3 }));
  if (/account|name|issuer|signers|^votes$/.test(name)) return fc.oneof(accountValue, fc.array(accountValue, { maxLength: 3 }));
  if (/time|^start$|^end$|^stop$/.test(name)) return fc.oneof(pick(...times.slice(0, 4)), pick('1.11.0', '1.11.2', 0, 3));
  if (/limit|num|count|trx_in_block|space_id|type_id|seconds|operation_type|bits|exp|^value$|^group$/.test(name)) return fc.oneof(fc.integer({ min: -2, max: 120 }), pick(0, 1, 3, 100, 101, '5', Infinity, -Infinity));
  if (/id/.test(name)) return fc.oneof(pick(...ids.slice(0, 36)), fc.array(pick(...ids.slice(0, 36)), { maxLength: 3 }));
  if (/subscribe|with_|is_|non_neg|pending/.test(name)) return pick(true, false, null, 0, 1);
  return atom;
}

/** Arguments for a method: from its required count (fewer is refused before a worker) to one past its last. */
const argumentsFor = (spec: MethodSpec, wellFormed: (name: string) => fc.Arbitrary<unknown> = plausible): fc.Arbitrary<unknown[]> =>
  fc.integer({ min: requiredArgs(spec), max: spec.params.length + 1 }).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => {
      const p = spec.params[i];
      return p ? fc.oneof({ weight: 3, arbitrary: wellFormed(p.name) }, { weight: 2, arbitrary: argument }, { weight: 1, arbitrary: edgeNumber }) : argument;
    })),
  );

// ---- the property ----

const HEAD = '{"id":1,"result":';

/** Why an answer breaks the property, or undefined when it holds. */
function violation(answer: PoolAnswer): string | undefined {
  if (answer instanceof Uint8Array || 'bytes' in answer) {
    const text = new TextDecoder().decode(answer instanceof Uint8Array ? answer : answer.bytes);
    try {
      const v = JSON.parse(text) as Record<string, unknown>;
      if (v.id !== 1 || !('result' in v) || !text.startsWith(HEAD)) return `a reply that is not a result: ${text.slice(0, 200)}`;
    } catch {
      return `a reply that is not JSON: ${text.slice(0, 200)}`;
    }
    return undefined;
  }
  const e = answer.error;
  if (!isWireError(e)) return `an error that is not a wire error: ${fc.stringify(e)}`;
  if (e.code === RPC.INTERNAL.code) return `-32603: ${e.message}`;
  if (e.code >= 0 && (!e.message.startsWith('Execution error: ') || e.data?.code !== e.code || !Array.isArray(e.data.stack))) return `an fc error of the wrong shape: ${fc.stringify(e)}`;
  return undefined;
}

test('every pool method, any JSON at every argument position: a result or an error of Core\'s kinds, never -32603', async (t) => {
  t.timeout(170_000);
  const chain = makeChain(t);
  // A small chain with something to find: accounts, an asset, issuance and transfers.
  chain.block([op.accountCreate('alice'), op.accountCreate('bob')]);
  chain.block([op.assetCreate('TEST')]);
  chain.block([op.assetIssue('1.3.1', '1.2.7', 100000), op.transfer('1.2.6', '1.2.7', 5000)]);
  chain.block([op.transfer('1.2.7', '1.2.8', 7, '1.3.1')]);
  const { log, lines } = captureLogs('error');
  const config = buildConfig({ 'data-dir': chain.dataDir, 'log-level': 'silent' });
  const ctx: WorkerContext = { store: chain.store, config };

  const failures: string[] = [];
  let total = 0;
  let results = 0;
  const codes = new Map<number, number>();
  const runs = Number(process.env.ARGUMENT_RUNS ?? 150);
  for (const [i, { set, method, spec }] of POOL_METHODS.entries()) {
    total += await checkAsyncProperty(t, runs, [argumentsFor(spec)], async (args) => {
      // What the scheduler computes from the arguments before the call leaves the front end.
      costOf({ setKey: set, set: API_SETS[set as keyof typeof API_SETS], method, spec, args, runsIn: 'pool' } as unknown as Target);
      // The pool's msgpackr round trip: what the worker sees is what crossed the thread.
      const task = decode<PoolTask[]>(encode([{ set, method, params: args, head: HEAD, deadline: Date.now() + config.callBudgetMs, budgetMs: config.callBudgetMs }]))[0]!;
      const before = lines.length;
      const answer = await runCall(ctx, log, task);
      const why = violation(answer);
      if ('error' in answer) codes.set(answer.error.code, (codes.get(answer.error.code) ?? 0) + 1);
      else results++;
      if (why !== undefined || lines.length > before) {
        const logged = lines.slice(before).map((l) => (l.err as { stack?: string } | undefined)?.stack ?? l.msg);
        failures.push(`${set}.${method}(${fc.stringify(args).slice(0, 300)}): ${why ?? 'logged'} ${logged.join(' | ')}`);
        // Keep going: one run reports every method that fails, not only the first.
      }
    }, { seedOffset: i, quiet: true });
  }
  t.log(`${POOL_METHODS.length} methods, ${total} distinct argument lists: ${results} results, errors by code ${fc.stringify(Object.fromEntries(codes))}`);
  t.deepEqual(failures.slice(0, 20), [], `${failures.length} calls broke the property`);
});

test('every pool method, every argument position, every edge number (±Infinity, -0, 2^64, …), the others well-formed: never -32603', async (t) => {
  // A sweep rather than a sample: the random runs above meet an edge value at a given position of a
  // given method only now and then (-Infinity as get_trade_history_by_sequence's start was found so).
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  const { log, lines } = captureLogs('error');
  const config = buildConfig({ 'data-dir': chain.dataDir, 'log-level': 'silent' });
  const ctx: WorkerContext = { store: chain.store, config };
  const failures: string[] = [];
  let calls = 0;
  // Several sets of well-formed arguments around each edge value (a scalar or a list, where a
  // parameter may be either), so that the checks before the edge's position pass in some of them.
  for (const { set, method, spec } of POOL_METHODS) for (let seed = 1; seed <= 6; seed++) {
    const base = spec.params.map((p) => fc.sample(plausible(p.name), { numRuns: 1, seed: seed * 31 + p.name.length })[0]);
    for (let i = 0; i < spec.params.length; i++) {
      for (const edge of EDGE_NUMBERS) {
        const args = base.map((v, j) => (j === i ? edge : v));
        const task = decode<PoolTask[]>(encode([{ set, method, params: args, head: HEAD, deadline: Date.now() + config.callBudgetMs, budgetMs: config.callBudgetMs }]))[0]!;
        const before = lines.length;
        const why = violation(await runCall(ctx, log, task));
        calls++;
        if (why !== undefined || lines.length > before) failures.push(`${set}.${method}(${fc.stringify(args).slice(0, 200)}): ${why ?? 'logged'}`);
      }
    }
  }
  t.log(`${calls} calls`);
  t.deepEqual(failures.slice(0, 20), [], `${failures.length} calls broke the property`);
});

// ---- the front end's own methods, on a real node ----

/**
 * Every (set, method) the front end answers itself, with its parameter table. (`dummy.dummy` is
 * reached only as API 0 of a session without the database API; called by name it is not found.)
 */
const FRONT_METHODS: { set: string; method: string; spec: MethodSpec }[] = Object.entries(API_SETS).flatMap(([set, s]) =>
  Object.entries(s.methods as Record<string, MethodSpec>)
    .filter(([, spec]) => runsIn(s, spec) !== 'pool')
    .map(([method, spec]) => ({ set, method, spec })),
);

/** Well-formed values for the front end's parameter names; the rest as for the pool's. */
function plausibleFront(name: string): fc.Arbitrary<unknown> {
  if (/^(cb|callback)$/.test(name)) return pick(1, 7, 0, -1, 1.5, 'cb', null, true, {});
  if (/^(notify_remove_create|enable)$/.test(name)) return pick(true, false, null, 0, 1, 'true', 'x');
  if (/^ep$/.test(name)) return pick('127.0.0.1:1776', 'localhost:1', '1.2.3.4:70000', 'x', '', ':', 5);
  if (/^(user|password)$/.test(name)) return pick('', 'alice', 'bytemaster', 'supersecret', '*', ':');
  if (/filename/.test(name)) return pick('', 'blocks.dat', '/dev/null');
  // Never the node's signing key here: debug_generate_blocks gets it with small counts only (below).
  if (/^debug_key$/.test(name)) return pick('x', DEV_PUB, '5K');
  if (/^block$/.test(name)) return pick({}, { previous: '00', timestamp: '2020-01-01T00:00:00', witness: '1.6.0', transactions: [] }, trx);
  if (/^update$/.test(name)) return pick({}, { id: '2.1.0' }, [{ id: '1.2.0', name: 'x' }]);
  return plausible(name);
}

/**
 * debug_generate_blocks with the node's signing key produces `count` blocks at once: counts that
 * convert to a few (uint32 wraps -1 to 4294967295, which would run for hours) with the key, anything
 * without it.
 */
const generateBlocksArguments: fc.Arbitrary<unknown[]> = fc.oneof(
  fc.tuple(fc.constant(DEV_WIF), pick(0, 1, 2, null, '1', true, false, 1.5, 2 ** 32, '4294967297')),
  argumentsFor(API_SETS.debug.methods.debug_generate_blocks as MethodSpec, plausibleFront),
);

/** A WebSocket that matches replies to calls by id; subscription notices (no id) are counted. */
async function caller(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  let closed: string | undefined;
  let notices = 0;
  let next = 0;
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    const reply = JSON.parse(data.toString()) as Record<string, unknown>;
    // A message the node cannot read as JSON (fc's parser refuses some numbers JSON allows, such as
    // -18446744073709552000) is answered with id null: the one call in flight is its sender.
    const id = reply.id === null && 'error' in reply && waiting.size === 1 ? [...waiting.keys()][0]! : reply.id;
    const answer = typeof id === 'number' ? waiting.get(id) : undefined;
    if (answer) {
      waiting.delete(id as number);
      answer(reply);
    } else notices++;
  });
  ws.on('close', (code, reason) => {
    closed = `${code} ${reason.toString()}`;
    for (const answer of waiting.values()) answer({ closed });
    waiting.clear();
  });
  return {
    /** One call at a time: the next is sent after this one's reply. */
    call(set: string, method: string, params: unknown[]): Promise<Record<string, unknown>> {
      if (closed) return Promise.resolve({ closed });
      const id = ++next;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'call', params: [set, method, params] }));
      });
    },
    get notices() {
      return notices;
    },
    close: () => ws.close(),
  };
}

/** Why a front-end reply breaks the property, or undefined when it holds. */
function replyViolation(reply: Record<string, unknown>): string | undefined {
  if ('closed' in reply) return `the connection was closed (${String(reply.closed)})`;
  if ('result' in reply) return undefined;
  const e = reply.error as { code: number; message: string; data?: { code?: number; stack?: unknown } } | undefined;
  if (!isWireError(e)) return `neither a result nor a wire error: ${JSON.stringify(reply).slice(0, 200)}`;
  if (e.code === RPC.INTERNAL.code) return `-32603: ${e.message}`;
  if (e.code >= 0 && (!e.message.startsWith('Execution error: ') || e.data?.code !== e.code || !Array.isArray(e.data.stack))) return `an fc error of the wrong shape: ${JSON.stringify(e).slice(0, 300)}`;
  return undefined;
}

for (const variant of ['current', 'legacy'] as const) {
  test(`every front-end method (broadcasts, validate_transaction, subscriptions, login, network_node, debug; login API ${variant}), any JSON at every argument position, on a live node: a result or an error of Core's kinds, never -32603, never a closed connection`, async (t) => {
    t.timeout(170_000);
    // Every API set for everyone, debug_api included, so that every call gets past the access check.
    const access = path.join(tempDir(t), 'api-access.json');
    const apis = ['database_api', 'network_broadcast_api', 'history_api', 'network_node_api', 'crypto_api', 'asset_api', 'orders_api', 'debug_api', 'custom_operations_api', 'block_api'];
    writeFileSync(access, JSON.stringify({ permission_map: [['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: apis }]] }));
    const { log, lines } = captureLogs('error');
    const node = await startTestNode(t, { 'api-access': access, 'login-api-variant': variant }, log);
    // The legacy login set is served under the name `login` on a legacy node; `login` is the other one there.
    const served = FRONT_METHODS.filter(({ set }) => set !== (variant === 'legacy' ? 'login' : 'login_legacy'));
    const failures: string[] = [];
    let total = 0;
    let results = 0;
    const codes = new Map<number, number>();
    const runs = Number(process.env.FRONT_ARGUMENT_RUNS ?? 100);
    const c = await caller(node.wsUrl);
    t.teardown(() => c.close());
    for (const [i, { set, method, spec }] of served.entries()) {
      const wire = set === 'login_legacy' ? 'login' : set;
      const args = method === 'debug_generate_blocks' ? generateBlocksArguments : argumentsFor(spec, plausibleFront);
      total += await checkAsyncProperty(t, runs, [args], async (params) => {
        const before = lines.length;
        const reply = await c.call(wire, method, params);
        const why = replyViolation(reply);
        const error = reply.error as { code: number } | undefined;
        if (error) codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
        else if ('result' in reply) results++;
        if (why !== undefined || lines.some((l, j) => j >= before && l.msg === 'call failed')) {
          const logged = lines.slice(before).map((l) => (l.err as { stack?: string } | undefined)?.stack ?? l.msg);
          failures.push(`${set}.${method}(${fc.stringify(params).slice(0, 300)}): ${why ?? 'logged'} ${logged.join(' | ')}`);
        }
      }, { seedOffset: 1000 + i, quiet: true });
      if (failures.some((f) => f.includes('the connection was closed'))) break;
    }
    // The node serves on: this connection is answered (what it may call depends on where the random
    // logins and logouts left its session), and a new one is served.
    const after = await c.call('database', 'get_chain_id', []);
    t.is(replyViolation(after), undefined, JSON.stringify(after).slice(0, 300));
    const fresh = await caller(node.wsUrl);
    t.teardown(() => fresh.close());
    t.regex(JSON.stringify(await fresh.call('database', 'get_chain_id', [])), /"result":"[0-9a-f]{64}"/);
    t.log(`${served.length} methods, ${total} distinct argument lists: ${results} results, errors by code ${fc.stringify(Object.fromEntries(codes))}, ${c.notices} notices`);
    t.deepEqual(failures.slice(0, 20), [], `${failures.length} calls broke the property`);
  });
}

// Followers (`serve --follow ws://HOST:PORT`) against real upstream nodes: catch-up of an existing
// chain, live following, reads and notices served from the follower's own store, broadcasts
// forwarded upstream (all three variants, an upstream error passed through), /ready and metrics while
// it lags or cannot reach its upstream, reconnects after an upstream restart, a chain id mismatch
// refused, and a broken upstream that stops following instead of making it diverge. Every node is a
// real node with its own store in a temp directory; the relay of helpers/ws-proxy.ts stands for the
// network where a test needs it to hold back or alter what the upstream says.
import test, { type ExecutionContext } from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devnet } from './helpers/devnet-ops.js';
import { DEV_PUB, DEV_WIF, op } from './helpers/chain.js';
import { basic, connectWs, rpc, type WsClient } from './helpers/clients.js';
import { fixture, startTestNode, type TestNode } from './helpers/node.js';
import { captureLogs } from './helpers/logs.js';
import { parsePromText, valueOf } from '../bench/prom-text.js';
import { tempDir } from './helpers/temp.js';
import { freePort } from './helpers/ports.js';
import { wsProxy } from './helpers/ws-proxy.js';
import { serveChild, type ChildNode } from './helpers/child-node.js';
import { signedTx } from './helpers/tx.js';
import { checkStore } from './helpers/store-check.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { BUNDLED_GENESIS } from '../src/chain/node/genesis.js';
import { blockId, numFromId, transactionId } from '../src/chain/protocol/serializer.js';

const NATHAN_KEY = privateKeyFromWif(DEV_WIF);
const ANY = { authorization: basic('anypass', 'x') };
type Upstream = Awaited<ReturnType<typeof devnet>>;

/** Each follower's log lines, so that a follower that does not catch up can be shown with what it said. */
const logsOf = new WeakMap<object, Record<string, unknown>[]>();

/**
 * A follower of `url` in this process, with the devnet's access file (so debug_api can be asked, and
 * refuse). Its log goes to `logs` when the test reads it, else to a capture of its own.
 */
async function follow(t: ExecutionContext, url: string, options: Record<string, string> = {}, logs: ReturnType<typeof captureLogs> = captureLogs('debug')): Promise<TestNode> {
  const node = await startTestNode(t, { follow: url, 'api-access': fixture('api-access.json'), 'follow-retry-max-ms': '200', ...options }, logs.log);
  logsOf.set(node, logs.lines);
  return node;
}

const dgpOf = async (url: string) => (await rpc(url, 'database', 'get_dynamic_global_properties', [])).result as { head_block_number: number; head_block_id: string; last_irreversible_block_num: number };

/** Waits (polling, bounded) until `check` holds; fails naming `what`. */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Waits until the follower's head is the upstream's (same number, same id). When it does not, the
 * failure says where each head was and why the follower's /ready said it was not ready.
 */
async function caughtUp(f: { httpUrl: string; port: number }, up: { httpUrl: string }): Promise<number> {
  let head = 0;
  let ours = 0;
  try {
    await until('the follower reaches the upstream head', async () => {
      const [a, b] = await Promise.all([dgpOf(f.httpUrl), dgpOf(up.httpUrl)]);
      head = b.head_block_number;
      ours = a.head_block_number;
      return a.head_block_number === b.head_block_number && a.head_block_id === b.head_block_id;
    });
  } catch (err) {
    const r = await ready(f.port);
    const said = (logsOf.get(f) ?? []).slice(-40).map((l) => JSON.stringify(l)).join('\n');
    throw new Error(`${(err as Error).message} (follower at ${ours}, upstream at ${head}; /ready ${r.status} ${r.body.reason ?? ''}); its last log lines:\n${said}`);
  }
  return head;
}

const ready = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/ready`);
  return { status: res.status, body: (await res.json()) as { reason?: string } };
};

const metrics = async (port: number) => parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());

/** Some transfers and an account in blocks of their own, so a chain has history to compare. */
async function makeHistory(up: Upstream, tag: string, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) {
    await up.broadcast([op.transfer('1.2.6', '1.2.0', 1000 + i)], [NATHAN_KEY]);
    if (i % 3 === 0) await up.broadcast([op.accountCreate(`${tag}-${i}`)], [NATHAN_KEY]);
    await up.generate(1 + (i % 2));
  }
}

/** Every block the same, byte for byte as served, on both nodes; and the reads a wallet makes. */
async function sameChain(t: ExecutionContext, f: { httpUrl: string }, up: { httpUrl: string }, head: number): Promise<void> {
  for (let n = 1; n <= head; n++) {
    const [a, b] = await Promise.all([rpc(f.httpUrl, 'database', 'get_block', [n]), rpc(up.httpUrl, 'database', 'get_block', [n])]);
    if (JSON.stringify(a.result) !== JSON.stringify(b.result)) return void t.fail(`block ${n} differs`);
  }
  for (const [set, method, params] of [
    ['database', 'get_objects', [['1.2.6', '2.6.6', '1.3.0', '2.3.0', '2.0.0']]],
    ['database', 'get_account_balances', ['1.2.0', []]],
    ['history', 'get_account_history', ['1.2.6', '1.11.0', 100, '1.11.0']],
    ['database', 'lookup_accounts', ['', 100]],
  ] as const) {
    const [a, b] = await Promise.all([rpc(f.httpUrl, set, method, [...params]), rpc(up.httpUrl, set, method, [...params])]);
    t.deepEqual(a.result, b.result, `${method} reads the same on the follower`);
  }
}

test('a follower catches up with an existing chain, then follows it live; reads on it see the upstream blocks', async (t) => {
  const up = await devnet(t);
  await makeHistory(up, 'catch', 12);
  const logs = captureLogs('info');
  const f = await follow(t, up.wsUrl, {}, logs);
  let head = await caughtUp(f, up);
  t.true(head >= 18);
  await sameChain(t, f, up, head);
  // Live: blocks produced now arrive through the block-applied notices.
  await makeHistory(up, 'live', 4);
  head = await caughtUp(f, up);
  await sameChain(t, f, up, head);
  t.is((await dgpOf(f.httpUrl)).last_irreversible_block_num, (await dgpOf(up.httpUrl)).last_irreversible_block_num, 'the last irreversible block is the upstream’s');
  t.is((await ready(f.port)).status, 200);
  const m = await metrics(f.port);
  t.is(valueOf(m, 'graphene_rpc_follow_upstream_connected'), 1);
  t.is(valueOf(m, 'graphene_rpc_follow_lag_blocks'), 0);
  t.is(valueOf(m, 'graphene_rpc_follow_reconnects_total'), 0);
  t.truthy(logs.lines.find((l) => l.msg === 'following the upstream: catching up'));
});

/** A WebSocket call's reply, keeping the notices that arrive before it. */
async function wsCall(ws: WsClient, notices: unknown[][], id: number, set: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  ws.send(JSON.stringify({ id, method: 'call', params: [set, method, params] }));
  for (;;) {
    const m = JSON.parse(await ws.next(30_000));
    if (m.method === 'notice') notices.push(m.params);
    else if (m.id === id) return m;
  }
}

/** Waits for a notice of callback `cb` among those kept and those still to come. */
async function noticeOf(ws: WsClient, notices: unknown[][], cb: number, match: (args: any[]) => boolean = () => true): Promise<any[]> {
  for (;;) {
    const found = notices.find((p) => p[0] === cb && match(p[1] as any[]));
    if (found) return found[1] as any[];
    const m = JSON.parse(await ws.next(30_000));
    if (m.method === 'notice') notices.push(m.params);
  }
}

test('broadcasts on a follower go upstream (plain, synchronous, with callback); confirmations, notices and reads come from its own store; refusals are the upstream’s', async (t) => {
  const up = await devnet(t);
  await up.generate(2);
  const f = await follow(t, up.wsUrl);
  await caughtUp(f, up);
  const ws = await connectWs(t, f.wsUrl);
  ws.ws.on('error', () => undefined);
  const notices: unknown[][] = [];
  t.is((await wsCall(ws, notices, 1, 'database', 'set_subscribe_callback', [7, false])).result, null);
  // committee-account's statistics change with every transfer to it
  t.is((await wsCall(ws, notices, 2, 'database', 'get_objects', [['2.6.0']])).result[0].id, '2.6.0');
  t.is((await wsCall(ws, notices, 3, 'database', 'set_block_applied_callback', [8])).result, null);

  const [trx1, trx2, trx3] = [await up.sign([op.transfer('1.2.6', '1.2.0', 11)], [NATHAN_KEY]), await up.sign([op.transfer('1.2.6', '1.2.0', 12)], [NATHAN_KEY]), await up.sign([op.transfer('1.2.6', '1.2.0', 13)], [NATHAN_KEY])];
  // validate_transaction is the upstream's answer
  t.deepEqual((await rpc(f.httpUrl, 'database', 'validate_transaction', [trx1])).result, (await rpc(up.httpUrl, 'database', 'validate_transaction', [trx1])).result);
  t.is((await wsCall(ws, notices, 4, 'network_broadcast', 'broadcast_transaction_with_callback', [9, trx1])).result, null);
  const sync = rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [trx2]);
  t.is((await rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx3])).result, null);
  // All three are in the upstream's pending state before it makes a block.
  await until('the synchronous broadcast reaches the upstream', async () => /already in the database/.test(JSON.stringify((await rpc(up.httpUrl, 'database', 'validate_transaction', [trx2])).error ?? '')));
  await up.generate(1);
  const upHead = await dgpOf(up.httpUrl);
  const block = (await rpc(up.httpUrl, 'database', 'get_block', [upHead.head_block_number])).result;
  t.is(block.transactions.length, 3);

  const confirmed = (await sync).result;
  t.is(confirmed.block_num, upHead.head_block_number);
  t.deepEqual(confirmed.trx, block.transactions[confirmed.trx_num], 'the synchronous answer is the transaction as the block holds it');
  // Answered by the follower once it has the block: a read right after it sees the transaction.
  t.not((await rpc(f.httpUrl, 'database', 'get_recent_transaction_by_id', [confirmed.id])).result, null);
  const [callback] = await noticeOf(ws, notices, 9);
  t.is(callback.block_num, upHead.head_block_number);
  t.deepEqual(callback.trx, block.transactions[callback.trx_num]);
  t.deepEqual(await noticeOf(ws, notices, 8), [upHead.head_block_id], 'block-applied notice with the upstream’s block id');
  const [changed] = await noticeOf(ws, notices, 7, (args) => (args[0] as any[]).some((o) => o.id === '2.6.0'));
  t.truthy(changed.find((o: any) => o.id === '2.6.0'));

  // A refusal is the upstream's error object, as it is, whichever variant is used.
  const tooMuch = await up.sign([op.transfer('1.2.6', '1.2.0', '999999999999999')], [NATHAN_KEY]);
  // (Each error's log context carries the second it was made: two calls may fall in two seconds.)
  const untimed = (e: any) => JSON.parse(JSON.stringify(e ?? null).replace(/"timestamp":"[^"]*"/g, '"timestamp":"T"'));
  const upstreamError = untimed((await rpc(up.httpUrl, 'network_broadcast', 'broadcast_transaction', [tooMuch])).error);
  t.regex(upstreamError.message, /Insufficient Balance/);
  t.deepEqual(untimed((await rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction', [tooMuch])).error), upstreamError);
  t.deepEqual(untimed((await rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [tooMuch])).error), upstreamError);
  t.deepEqual(untimed((await wsCall(ws, notices, 5, 'network_broadcast', 'broadcast_transaction_with_callback', [10, tooMuch])).error), upstreamError);
  t.deepEqual(untimed((await rpc(f.httpUrl, 'database', 'validate_transaction', [tooMuch])).error), untimed((await rpc(up.httpUrl, 'database', 'validate_transaction', [tooMuch])).error));

  // A follower does not produce; add_node is recorded locally.
  const refused = (await rpc(f.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1], ANY)).error;
  t.regex(refused.message, /follows another node/);
  t.is((await rpc(f.httpUrl, 'network_node', 'add_node', ['10.1.2.3:1776'], ANY)).result, null);
  t.true(JSON.stringify((await rpc(f.httpUrl, 'network_node', 'get_potential_peers', [], ANY)).result).includes('10.1.2.3:1776'));
});

test('/ready answers 503 while the follower is more than --follow-max-lag-blocks behind, and the metrics show the lag', async (t) => {
  const up = await devnet(t);
  const proxy = await wsProxy(t, up.wsUrl);
  const f = await follow(t, proxy.url, { 'follow-max-lag-blocks': '2' });
  await caughtUp(f, up);
  await until('ready', async () => (await ready(f.port)).status === 200);
  // The upstream's blocks are held back on the way; its notices and global properties are not.
  proxy.hold = (text) => text.includes('"witness_signature"');
  await up.generate(2);
  await until('the follower hears of two blocks', async () => valueOf(await metrics(f.port), 'graphene_rpc_follow_lag_blocks') === 2);
  t.is((await ready(f.port)).status, 200, 'two blocks behind is within the bound');
  await up.generate(3);
  await until('the follower hears of five blocks', async () => valueOf(await metrics(f.port), 'graphene_rpc_follow_lag_blocks') === 5);
  const behind = await ready(f.port);
  t.is(behind.status, 503);
  t.regex(behind.body.reason!, /5 blocks behind the upstream \(--follow-max-lag-blocks 2\)/);
  t.true(valueOf(await metrics(f.port), 'graphene_rpc_follow_lag_seconds')! >= 5, 'on-demand blocks are at least a second apart');
  proxy.release();
  await caughtUp(f, up);
  await until('ready again', async () => (await ready(f.port)).status === 200);
  t.is(valueOf(await metrics(f.port), 'graphene_rpc_follow_lag_seconds'), 0);
});

test('an upstream unreachable at start is retried (/ready 503 meanwhile); after an upstream restart the follower reconnects and catches up from its own head', async (t) => {
  const port = await freePort();
  const logs = captureLogs('info');
  const f = await follow(t, `ws://127.0.0.1:${port}/ws`, {}, logs);
  await logs.once('cannot reach the upstream; trying again (/ready says 503 meanwhile)');
  const down = await ready(f.port);
  t.is(down.status, 503);
  t.regex(down.body.reason!, /not connected to the upstream/);
  t.is(valueOf(await metrics(f.port), 'graphene_rpc_follow_upstream_connected'), 0);
  // A broadcast has nowhere to go.
  t.is((await rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction', [{}])).error.code, -32017);

  // The upstream is a child process, so that killing it ends its connections as a crash does.
  const dataDir = tempDir(t, 'graphene-rpc-upstream-');
  const startUpstream = async () => {
    const child = await serveChild(['--rpc-endpoint', `127.0.0.1:${port}`, '--data-dir', dataDir, '--block-interval', '0', '--workers', '1', '--api-access', fixture('api-access.json')]);
    t.teardown(() => void child.child.kill('SIGKILL'));
    return child;
  };
  const generate = async (node: ChildNode, n: number) => t.is((await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, n], ANY)).error, undefined);
  const first = await startUpstream();
  t.is(first.port, port);
  await generate(first, 3);
  await caughtUp(f, first);
  await until('ready', async () => (await ready(f.port)).status === 200);

  const exited = new Promise((r) => first.child.once('exit', r));
  first.child.kill('SIGKILL');
  await exited;
  await logs.once('lost the upstream; reconnecting, then catching up from our head');
  const gone = await ready(f.port);
  t.is(gone.status, 503);
  t.regex(gone.body.reason!, /not connected/);

  const again = await startUpstream();
  t.is((await rpc(again.httpUrl, 'network_broadcast', 'broadcast_transaction', [await signedTx(again.httpUrl, [op.transfer('1.2.6', '1.2.0', 5)], [DEV_WIF])])).result, null);
  await generate(again, 4);
  const head = await caughtUp(f, again);
  t.is(head, 7);
  await sameChain(t, f, again, head);
  await until('ready after the reconnect', async () => (await ready(f.port)).status === 200);
  t.true(valueOf(await metrics(f.port), 'graphene_rpc_follow_reconnects_total')! >= 1);
});

test('a follower refuses to start on an upstream of another chain, and says which', async (t) => {
  const genesis = JSON.parse(readFileSync(BUNDLED_GENESIS, 'utf8')) as { initial_timestamp: string };
  genesis.initial_timestamp = '2020-01-01T00:00:00';
  const file = path.join(tempDir(t, 'graphene-rpc-genesis-'), 'genesis.json');
  writeFileSync(file, JSON.stringify(genesis));
  const other = await devnet(t, { 'genesis-json': file });
  const otherId = (await rpc(other.httpUrl, 'database', 'get_chain_id', [])).result as string;
  const err = await t.throwsAsync(follow(t, other.wsUrl));
  t.true(err!.message.includes(`the upstream serves chain ${otherId}, but this node's genesis gives chain`), err!.message);
});

test('an upstream that serves a block which does not fit (other operation results), an oversized frame or garbage stops following: logged, /ready 503, reads still served, no block of it kept', async (t) => {
  const up = await devnet(t);
  await up.generate(2);
  for (const [what, rewrite, reason] of [
    [
      'an altered block',
      (text: string) => (text.includes('"witness_signature"') && text.includes('"amount":777') ? text.replace('"amount":777', '"amount":778') : text),
      /merkle root|signed by|does not apply/,
    ],
    ['an oversized frame', (text: string) => (text.includes('"witness_signature"') && text.includes('"amount":777') ? Buffer.from(JSON.stringify({ id: 1, result: 'x'.repeat(70 * 1024) })) : text), /--follow-max-frame-bytes/],
    ['garbage', (text: string) => (text.includes('"witness_signature"') && text.includes('"amount":777') ? '{"id": 12, "result": ' : text), /not JSON/],
  ] as const) {
    const proxy = await wsProxy(t, up.wsUrl);
    const logs = captureLogs('info');
    const f = await follow(t, proxy.url, { 'follow-max-frame-bytes': String(64 * 1024) }, logs);
    await caughtUp(f, up);
    proxy.rewrite = rewrite;
    await up.broadcast([op.transfer('1.2.6', '1.2.0', 777)], [NATHAN_KEY]);
    await up.generate(1);
    const stopped = await logs.once('following stopped: the upstream cannot be followed without diverging; the node serves what it has, /ready says 503, restart it once the cause is fixed', 30_000);
    t.regex(String(stopped.error), reason, what);
    const r = await ready(f.port);
    t.is(r.status, 503, what);
    t.regex(r.body.reason!, /stopped/, what);
    t.is(valueOf(await metrics(f.port), 'graphene_rpc_follow_stopped'), 1, what);
    const head = (await dgpOf(up.httpUrl)).head_block_number;
    t.is((await dgpOf(f.httpUrl)).head_block_number, head - 1, `${what}: nothing of the block is kept`);
    t.is((await rpc(f.httpUrl, 'database', 'get_block', [head])).result, null, what);
    await f.node.close();
    await up.generate(1);
  }
});

test('a follower killed with kill -9 while catching up and while following live resumes from its own store: no gap, no duplicate block', async (t) => {
  t.timeout(170_000);
  const up = await devnet(t);
  for (let i = 0; i < 20; i++) {
    await up.broadcast([op.transfer('1.2.6', '1.2.0', 100 + i)], [NATHAN_KEY]);
    await up.broadcast([op.accountCreate(`kill-${i}`)], [NATHAN_KEY]);
    await up.generate(20);
  }
  const dataDir = tempDir(t, 'graphene-rpc-follower-kill-');
  const start = async () => {
    const child = await serveChild(['--follow', up.wsUrl, '--data-dir', dataDir, '--workers', '1', '--follow-blocks-in-flight', '2', '--log-level', 'info']);
    t.teardown(() => void child.child.kill('SIGKILL'));
    return child;
  };
  const kill = async (c: ChildNode) => {
    const exited = new Promise((r) => c.child.once('exit', r));
    c.child.kill('SIGKILL');
    await exited;
  };
  const headOf = async (url: string) => (await dgpOf(url)).head_block_number;

  // 1. Killed in the middle of catching up (400 blocks, two requests in flight).
  let f = await start();
  await until('the follower has applied some blocks', async () => (await headOf(f.httpUrl)) >= 5);
  await kill(f);
  const upHead = await headOf(up.httpUrl);
  const killed = await checkStore(dataDir);
  t.deepEqual(killed.problems, [], 'whole blocks only after the kill');
  t.log(`killed at block ${killed.head} of ${upHead}`);
  t.true(killed.head >= 5 && killed.head < upHead, `killed while catching up (at ${killed.head} of ${upHead})`);

  // 2. Restarted: it resumes from its head, catches up, then is killed while following live.
  f = await start();
  const resumedAt = f.lines.find((l) => l.msg === 'following the upstream: catching up' || l.msg === 'following the upstream');
  t.truthy(resumedAt);
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      await up.broadcast([op.transfer('1.2.6', '1.2.0', 500 + i)], [NATHAN_KEY]);
      await up.generate(3);
    }
  })();
  await until('caught up and following live', async () => (await headOf(f.httpUrl)) > upHead + 6);
  await kill(f);
  f = await start();
  await until('following again', async () => (await headOf(f.httpUrl)) > upHead + 12);
  writing = false;
  await writer;
  const head = await caughtUp(f, up);
  await sameChain(t, f, up, head);
  t.deepEqual((await rpc(f.httpUrl, 'database', 'get_objects', [['2.6.6', '2.6.0']])).result, (await rpc(up.httpUrl, 'database', 'get_objects', [['2.6.6', '2.6.0']])).result, 'operation counts equal: no operation applied twice');
  await kill(f);
  const check = await checkStore(dataDir);
  t.deepEqual(check.problems, []);
  t.is(check.head, head);
});

test('a transaction forwarded by a follower that expires upstream without a block ends its synchronous broadcast with the reason', async (t) => {
  const up = await devnet(t);
  await up.generate(1);
  const f = await follow(t, up.wsUrl);
  await caughtUp(f, up);
  const dgp = (await rpc(up.httpUrl, 'database', 'get_dynamic_global_properties', [])).result;
  const trx = await signedTx(up.httpUrl, [op.transfer('1.2.6', '1.2.0', 31)], [DEV_WIF], { expiresIn: 5 });
  const sync = rpc(f.httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [trx]);
  await until('the transaction reaches the upstream', async () => /already in the database/.test(JSON.stringify((await rpc(up.httpUrl, 'database', 'validate_transaction', [trx])).error ?? '')));
  // The upstream's next block is dated after the expiration: it drops the transaction, and so does the follower.
  up.node.producer!.produce(Date.parse(`${dgp.time}Z`) / 1000 + 60);
  const answer = await sync;
  t.regex(answer.error.message, /expired at .* before block time/);
  t.is((await dgpOf(f.httpUrl)).head_block_number, (await dgpOf(up.httpUrl)).head_block_number);
});

test('a block in Core’s get_block shape (block_id, signing_key, transaction_ids added) is followed; a block_id its header does not give stops following', async (t) => {
  const up = await devnet(t);
  const proxy = await wsProxy(t, up.wsUrl);
  let lie = false;
  // As Core 6+ answers get_block: the block with its id, its signer's key and its transactions' ids.
  proxy.rewrite = (text) => {
    const m = JSON.parse(text);
    if (!m.result || typeof m.result !== 'object' || !('witness_signature' in m.result)) return text;
    const b = m.result;
    const num = numFromId(b.previous) + 1;
    const id = blockId(b, num);
    m.result = { ...b, block_id: lie ? `${id.slice(0, 39)}${id[39] === '0' ? '1' : '0'}` : id, signing_key: DEV_PUB, transaction_ids: b.transactions.map((x: unknown) => transactionId(x)) };
    return JSON.stringify(m);
  };
  const logs = captureLogs('info');
  const f = await follow(t, proxy.url, {}, logs);
  await up.broadcast([op.transfer('1.2.6', '1.2.0', 41)], [NATHAN_KEY]);
  await up.generate(3);
  const head = await caughtUp(f, up);
  await sameChain(t, f, up, head);
  lie = true;
  await up.generate(1);
  const stopped = await logs.once('following stopped: the upstream cannot be followed without diverging; the node serves what it has, /ready says 503, restart it once the cause is fixed', 30_000);
  t.regex(String(stopped.error), /the upstream gives block_id .* but its header gives/);
  t.is((await dgpOf(f.httpUrl)).head_block_number, head);
});

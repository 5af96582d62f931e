// Every limit is a named setting with a behaviour test (STYLE.md point 5). Over-limit calls get an
// error reply and the connection stays up, except where the limit is about the connection itself.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, startTestNode } from './helpers/node.js';
import { WsClient, basic, httpPost } from './helpers/clients.js';
import { buildConfig } from '../src/config.js';
import { openPool } from '../src/pool/pool.js';
import { openChainStore } from '../src/chain/store.js';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/genesis.js';
import { initChain } from '../src/chain/writer.js';
import { Session, type Reply } from '../src/session/session.js';
import { defaultAccessPolicy } from '../src/access.js';
import { buildRegistry, API_SETS } from '../src/api/registry.js';
import { createLogger } from '../src/log.js';
import { resultPrefix } from '../src/protocol/jsonrpc.js';
import type { BlockProducer } from '../src/chain/producer.js';
import { Confirmations } from '../src/session/confirmations.js';
import { SubscriptionHub } from '../src/session/subscriptions.js';

const call = (id: number, method: string, params: unknown[]) => JSON.stringify({ id, method, params });

/** Session dependencies these unit tests never reach: no front-end sets, no producer. */
const frontEndOnly = { localHandlers: new Map(), producer: undefined as unknown as BlockProducer, confirmations: new Confirmations(), subscriptions: new SubscriptionHub() };

test('max-request-bytes: a larger HTTP body gets 413 and error -32007', async (t) => {
  const { httpUrl } = await startTestNode(t, { 'max-request-bytes': '1024' });
  const big = call(1, 'get_accounts', [['x'.repeat(2000)]]);
  const reply = await httpPost(httpUrl, big);
  t.is(reply.status, 413);
  t.is(reply.text, '{"id":null,"jsonrpc":"2.0","error":{"code":-32007,"message":"Request is too big"}}');
  // The limit is on size only: a request just under it is served.
  const ok = await httpPost(httpUrl, call(2, 'get_accounts', [['1.2.0']]));
  t.is(ok.status, 200);
});

test('max-request-bytes: a larger WebSocket message gets -32007 and the connection stays open', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-request-bytes': '1024' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  ws.send(call(1, 'get_accounts', [['x'.repeat(1500)]]));
  t.is(await ws.next(), '{"id":null,"jsonrpc":"2.0","error":{"code":-32007,"message":"Request is too big"}}');
  const reply = await ws.call({ id: 2, method: 'get_chain_id', params: [] });
  t.is(reply.id, 2);
  t.is(typeof reply.result, 'string');
});

test('max-request-bytes: a WebSocket frame above twice the limit closes the connection', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-request-bytes': '1024' });
  const ws = await WsClient.connect(wsUrl);
  ws.send(call(1, 'get_accounts', [['x'.repeat(5000)]]));
  await t.throwsAsync(() => ws.next(3000), { message: /connection closed/ });
});

test('max-json-depth: a request nested deeper gets a parse error and the connection stays open', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-json-depth': '10' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  const deep = `{"id":1,"method":"get_objects","params":[${'['.repeat(12)}${']'.repeat(12)}]}`;
  ws.send(deep);
  t.is(await ws.next(), '{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Invalid JSON message: nesting too deep"}}');
  const shallow = `{"id":2,"method":"get_objects","params":[${'['.repeat(3)}${']'.repeat(3)}]}`;
  ws.send(shallow);
  t.regex(await ws.next(), /^\{"id":2,/);
});

/** A session over a pool that never answers, so calls stay in flight as long as the test wants. */
function stalledSession(maxPending: number) {
  const config = buildConfig({ 'max-pending-calls-per-connection': String(maxPending), 'log-level': 'silent' });
  const replies: Reply[] = [];
  const pool = { run: () => new Promise<never>(() => {}), queued: 0, ready: async () => {}, storeChanged: () => {}, close: async () => {} };
  const session = new Session(
    { config, policy: defaultAccessPolicy(), pool, poolSets: buildRegistry(API_SETS), ...frontEndOnly, log: createLogger('silent') },
    'ws',
    undefined,
    (r) => replies.push(r),
  );
  return { session, replies };
}

test('max-pending-calls-per-connection: calls beyond the limit get -32009 in order, once earlier replies are out', (t) => {
  const { session, replies } = stalledSession(2);
  session.receive(call(1, 'get_chain_id', []));
  session.receive(call(2, 'get_chain_id', []));
  session.receive(call(3, 'get_chain_id', []));
  t.is(session.pending, 3);
  // The busy reply waits behind the two calls in flight: replies keep arrival order.
  t.is(replies.length, 0);
});

test('max-pending-calls-per-connection: the busy reply is sent as soon as the calls before it finish', async (t) => {
  const config = buildConfig({ 'max-pending-calls-per-connection': '1', 'log-level': 'silent' });
  const replies: Reply[] = [];
  let release: (v: Uint8Array) => void = () => {};
  const pool = { run: () => new Promise<Uint8Array>((r) => (release = r)), queued: 0, ready: async () => {}, storeChanged: () => {}, close: async () => {} };
  const session = new Session({ config, policy: defaultAccessPolicy(), pool, poolSets: buildRegistry(API_SETS), ...frontEndOnly, log: createLogger('silent') }, 'ws', undefined, (r) => replies.push(r));
  session.receive(call(1, 'get_chain_id', []));
  session.receive(call(2, 'get_chain_id', []));
  release(new TextEncoder().encode(`${resultPrefix({ id: 1, jsonrpc: false })}"abc"}`));
  await new Promise((r) => setTimeout(r, 10));
  t.deepEqual(
    replies.map((r) => (typeof r!.body === 'string' ? r!.body : new TextDecoder().decode(r!.body))),
    ['{"id":1,"result":"abc"}', '{"id":null,"jsonrpc":"2.0","error":{"code":-32009,"message":"Server is busy: too many calls in flight on this connection"}}'],
  );
});

test('max-queued-calls: calls beyond the pool queue get -32009 instead of waiting', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-pool-'));
  const store = openChainStore(dataDir);
  const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
  initChain(store, genesis, chainId);
  await store.close();
  const config = buildConfig({ 'data-dir': dataDir, workers: '1', 'log-level': 'silent' });
  const pool = openPool(config, { maxQueue: 1 });
  await pool.ready();
  t.teardown(async () => {
    await pool.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const task = { set: 'database', method: 'get_chain_id', params: [], head: '{"id":1,"result":' };
  const answers = await Promise.all(Array.from({ length: 6 }, () => pool.run(task)));
  const busy = answers.filter((a) => !(a instanceof Uint8Array) && 'error' in a && a.error.code === -32009);
  const served = answers.filter((a) => a instanceof Uint8Array);
  t.true(busy.length >= 1, 'some calls were refused');
  t.true(served.length >= 1, 'some calls were served');
});

test('ws-max-buffered-bytes: a client that does not read is disconnected', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'ws-max-buffered-bytes': '1024', 'max-pending-calls-per-connection': '100000' });
  const ws = await WsClient.connect(wsUrl);
  // Stop reading from the socket: the server's replies pile up in its send buffer.
  (ws.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  const ids = Array.from({ length: 6 }, (_, i) => `1.2.${i}`);
  for (let i = 0; i < 3000; i++) ws.send(call(i, 'get_accounts', [ids]));
  await new Promise((r) => setTimeout(r, 1500));
  (ws.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  const deadline = Date.now() + 10_000;
  while (!ws.closed && Date.now() < deadline) await ws.next(500).catch(() => undefined);
  t.truthy(ws.closed, 'the server closed the connection');
});

test('ws-idle-timeout: a connection that neither sends nor answers pings is closed', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'ws-idle-timeout': '8' });
  const WebSocket = (await import('ws')).default;
  const ws = new WebSocket(wsUrl, { autoPong: false });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((r) => ws.once('open', r));
  const started = Date.now();
  await closed;
  t.true(Date.now() - started >= 4000, 'not closed before the idle timeout');
});

test('max-get-blocks-range: a get_blocks range beyond it is refused with an execution error', async (t) => {
  // block_api is not in the default policy: user2 of the access fixture has it.
  const { httpUrl } = await startTestNode(t, { 'max-get-blocks-range': '5', 'api-access': fixture('api-access.json') });
  const get = async (from: number, to: number) =>
    JSON.parse((await httpPost(httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['block', 'get_blocks', [from, to]] }), { authorization: basic('user2', 'superpassword2') })).text);
  t.is((await get(1, 5)).result.length, 5);
  t.is((await get(1, 6)).error.message, 'Execution error: Assert Exception: block_num_to - block_num_from < max_blocks: get_blocks returns at most 5 blocks per call');
});

// What operators and load balancers see: the health and readiness probes, against a real server.
import test from 'ava';
import { startTestNode } from './helpers/node.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../src/access.js';
import { basic, httpPost } from './helpers/clients.js';
import { tempDir } from './helpers/temp.js';

const get = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

test('GET /health answers 200 while the process serves', async (t) => {
  const { port } = await startTestNode(t);
  t.deepEqual(await get(`http://127.0.0.1:${port}/health`), { status: 200, body: { status: 'ok' } });
});

test('GET /ready is 200 on a node producing blocks, with the head block number and age', async (t) => {
  const { port } = await startTestNode(t, { 'block-interval': '1', 'ready-max-head-age': '30' });
  // A new chain's head is its genesis block, dated at the genesis time, until the first block.
  const deadline = Date.now() + 10_000;
  let r = await get(`http://127.0.0.1:${port}/ready`);
  while (r.status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    r = await get(`http://127.0.0.1:${port}/ready`);
  }
  t.is(r.status, 200);
  t.true(r.body.ready);
  t.true((r.body.headBlockNumber as number) >= 1);
  t.true((r.body.headAgeSeconds as number) <= 30);
});

test('GET /ready is 503 with the reason while the head block is older than --ready-max-head-age', async (t) => {
  // 30 s, the longest interval Core allows: the head is older than 5 s for most of each interval (and
  // the genesis is older still before the first block), so /ready is 503 then; asked again only if it
  // was asked within 5 s of a block.
  const { port } = await startTestNode(t, { 'block-interval': '30', 'ready-max-head-age': '5' });
  let r = await get(`http://127.0.0.1:${port}/ready`);
  for (let tries = 0; r.status === 200 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    r = await get(`http://127.0.0.1:${port}/ready`);
  }
  t.is(r.status, 503);
  t.false(r.body.ready);
  t.regex(r.body.reason as string, /^head block is \d+ s old \(--ready-max-head-age 5\)$/);
});

test('GET /ready does not watch the head age of a chain that makes blocks only on demand', async (t) => {
  const { port } = await startTestNode(t, { 'block-interval': '0', 'ready-max-head-age': '5' });
  t.is((await get(`http://127.0.0.1:${port}/ready`)).status, 200);
});

test('other GETs still get 405 with a JSON-RPC error', async (t) => {
  const { port } = await startTestNode(t);
  t.is((await fetch(`http://127.0.0.1:${port}/rpc`)).status, 405);
});


/** An access file where `u` has the database API with `password`, and nobody else has anything. */
const accessWith = (password: string) => JSON.stringify({ permission_map: [['u', { ...hashPassword(password), allowed_apis: ['database_api'] }]] });

/** Whether u/password may read over HTTP Basic. */
async function canRead(httpUrl: string, password: string): Promise<boolean> {
  const r = await httpPost(httpUrl, JSON.stringify({ id: 1, method: 'get_chain_id', params: [] }), { authorization: basic('u', password) });
  return JSON.parse(r.text).result !== undefined;
}

test('reloading the access file: a valid one replaces the rules for new logins; an invalid one is refused and the rules stay', async (t) => {
  const file = path.join(tempDir(t), 'api-access.json');
  writeFileSync(file, accessWith('one'));
  const { node, httpUrl } = await startTestNode(t, { 'api-access': file });
  t.true(await canRead(httpUrl, 'one'));
  writeFileSync(file, accessWith('two'));
  t.deepEqual(node.reloadAccess(), { ok: true, users: 1 });
  t.false(await canRead(httpUrl, 'one'));
  t.true(await canRead(httpUrl, 'two'));
  writeFileSync(file, '{"permission_map": [["u", "not an entry"]]}');
  const refused = node.reloadAccess();
  t.false(refused.ok);
  t.regex((refused as { error: string }).error, /permission_map\[0\]/);
  t.true(await canRead(httpUrl, 'two'), 'the rules in force stay');
});

test('an access file changed on disk is picked up without a signal', async (t) => {
  const file = path.join(tempDir(t), 'api-access.json');
  writeFileSync(file, accessWith('one'));
  const { httpUrl } = await startTestNode(t, { 'api-access': file });
  t.true(await canRead(httpUrl, 'one'));
  // A different size, so the change shows whatever the file system's time resolution.
  writeFileSync(file, accessWith('a-longer-password'));
  const deadline = Date.now() + 10_000;
  while (!(await canRead(httpUrl, 'a-longer-password')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  t.true(await canRead(httpUrl, 'a-longer-password'));
});

test('shutdown answers the calls in flight before closing WebSockets with 1001', async (t) => {
  const { node, wsUrl } = await startTestNode(t, { 'shutdown-drain-ms': '10000', 'max-calls-per-second': '0', 'max-pending-calls-per-connection': '1000' });
  const { WsClient } = await import('./helpers/clients.js');
  const ws = await WsClient.connect(wsUrl);
  for (let i = 0; i < 100; i++) ws.send(JSON.stringify({ id: i, method: 'get_full_accounts', params: [['nathan'], false] }));
  // Once the first reply is back the node has read the calls; stop it with the others in flight.
  const replies: unknown[] = [JSON.parse(await ws.next())];
  const stopped = node.close();
  while (!ws.closed) {
    const m = await ws.next(10_000).catch(() => undefined);
    if (m !== undefined) replies.push(JSON.parse(m));
  }
  await stopped;
  t.is(ws.closed?.code, 1001);
  t.is(replies.length, 100, 'every call in flight was answered before the close');
});

test('a second node on the same data directory refuses to start, naming the holder; a stale lock is taken over', async (t) => {
  const { buildConfig } = await import('../src/config.js');
  const { startNode } = await import('../src/main.js');
  const { createLogger } = await import('../src/log.js');
  const dataDir = tempDir(t);
  await startTestNode(t, { 'data-dir': dataDir });
  const second = buildConfig({ 'rpc-endpoint': '127.0.0.1:0', 'data-dir': dataDir, workers: '1', 'block-interval': '0' });
  await t.throwsAsync(startNode(second, createLogger('silent')), { message: new RegExp(`data directory .* is already in use by a node in this process`) });
  // A lock left by a process that is gone does not keep a node out.
  const stale = tempDir(t);
  writeFileSync(path.join(stale, 'node.lock'), '999999999');
  await t.notThrowsAsync(startTestNode(t, { 'data-dir': stale }));
});

test('a second node on a port in use refuses to start instead of sharing it', async (t) => {
  const { port } = await startTestNode(t);
  await t.throwsAsync(startTestNode(t, { 'rpc-endpoint': `127.0.0.1:${port}` }), { message: `cannot listen on 127.0.0.1:${port}: the port is in use by another process` });
});

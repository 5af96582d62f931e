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

test('GET /ready is 503 while the data directory\'s disk has less free than --min-free-disk-bytes, as block production sees it, and 200 once it has', async (t) => {
  // 4 PiB: more than this disk has. On-demand blocks, so no block is tried: /ready tells before one is refused.
  const { node, port, config } = await startTestNode(t, { 'min-free-disk-bytes': String(2 ** 52) });
  const r = await get(`http://127.0.0.1:${port}/ready`);
  t.is(r.status, 503);
  t.regex(r.body.reason as string, /^data directory does not accept writes: ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\)$/);
  t.is(node.producer!.blockWriteFailure, undefined, 'no block was refused: the probe looked at the disk itself');
  const { buildConfig } = await import('../src/config.js');
  node.reloadOptions(buildConfig({ 'rpc-endpoint': '127.0.0.1:0', workers: '1', 'log-level': 'silent', 'block-interval': '0', 'shutdown-drain-ms': '300', 'data-dir': config.dataDir }));
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

/**
 * An access file for the reload tests, with users u (password "one") and v ("vee"); `write` replaces
 * its entries. The password fields are made once: an entry whose password is unchanged keeps them.
 */
function reloadableAccessFile(t: import('ava').ExecutionContext) {
  const file = path.join(tempDir(t), 'api-access.json');
  const u = hashPassword('one');
  const v = hashPassword('vee');
  const write = (entries: [string, object, string[]][]) =>
    writeFileSync(file, JSON.stringify({ permission_map: entries.map(([name, password, apis]) => [name, { ...password, allowed_apis: apis }]) }));
  return { file, u, v, write };
}

test('after a reload, an open session\'s next accessor call follows the new rules for its user; the IDs it holds stay usable', async (t) => {
  const { connectWs } = await import('./helpers/clients.js');
  const { file, u, v, write } = reloadableAccessFile(t);
  write([
    ['u', u, ['database_api', 'history_api']],
    ['v', v, ['database_api', 'history_api']],
  ]);
  const { node, wsUrl } = await startTestNode(t, { 'api-access': file });
  const byLogin = await connectWs(t, wsUrl);
  t.true((await byLogin.call({ id: 1, method: 'call', params: [1, 'login', ['u', 'one']] })).result);
  t.is((await byLogin.call({ id: 2, method: 'call', params: [1, 'history', []] })).result, 2);
  const history = { id: 3, method: 'call', params: [2, 'get_account_history', ['committee-account', '1.11.0', 1, '1.11.0']] };
  t.deepEqual((await byLogin.call(history)).result, []);
  // Logged in at connect, with Basic credentials.
  const byBasic = await connectWs(t, wsUrl, { authorization: basic('v', 'vee') });
  t.deepEqual((await byBasic.call({ id: 1, method: 'call', params: [1, 'get_available_api_sets', []] })).result, ['database_api', 'history_api']);
  t.is((await byBasic.call({ id: 2, method: 'call', params: [1, 'history', []] })).result, 2);

  // u's list changes; v's password changes.
  write([
    ['u', u, ['asset_api', 'database_api', 'history_api']],
    ['v', hashPassword('vee-2'), ['database_api', 'history_api']],
  ]);
  t.deepEqual(node.reloadAccess(), { ok: true, users: 2 });
  t.deepEqual((await byLogin.call({ id: 4, method: 'call', params: [1, 'get_available_api_sets', []] })).result, ['asset_api', 'database_api', 'history_api']);
  t.is((await byLogin.call({ id: 5, method: 'call', params: [1, 'asset', []] })).result, 3, 'a set the new list adds');
  t.is((await byLogin.call({ id: 6, method: 'call', params: [1, 'history', []] })).result, 2, 'the same ID for a set still allowed');
  t.deepEqual((await byLogin.call(history)).result, []);
  // The password v logged in with is not the one the file holds now: refused until it logs in again.
  t.regex((await byBasic.call({ id: 3, method: 'call', params: [1, 'history', []] })).error.message, /Access denied/);
  t.deepEqual((await byBasic.call({ id: 4, method: 'call', params: [1, 'get_available_api_sets', []] })).result, []);
  t.true((await byBasic.call({ id: 5, method: 'call', params: [1, 'login', ['v', 'vee-2']] })).result);
  t.is((await byBasic.call({ id: 6, method: 'call', params: [1, 'history', []] })).result, 2);

  // u is removed: its accessor calls are refused; an ID it holds stays usable, as after a logout.
  write([['v', v, ['database_api']]]);
  t.deepEqual(node.reloadAccess(), { ok: true, users: 1 });
  t.regex((await byLogin.call({ id: 7, method: 'call', params: [1, 'history', []] })).error.message, /Access denied/);
  t.regex((await byLogin.call({ id: 8, method: 'call', params: [1, 'get_config', []] })).error.message, /Access denied, please login/);
  t.deepEqual((await byLogin.call({ id: 9, method: 'call', params: [1, 'get_available_api_sets', []] })).result, []);
  t.deepEqual((await byLogin.call(history)).result, [], 'an ID already handed out stays usable');
});

test('after a reload, the legacy login API re-checks each login a session made: a removed user\'s sets go, the others stay', async (t) => {
  const { connectWs } = await import('./helpers/clients.js');
  const { file, u, v, write } = reloadableAccessFile(t);
  write([
    ['u', u, ['history_api']],
    ['v', v, ['asset_api']],
  ]);
  const { node, wsUrl } = await startTestNode(t, { 'api-access': file, 'login-api-variant': 'legacy' });
  const ws = await connectWs(t, wsUrl);
  // Legacy logins add up: the session may use both users' sets.
  t.true((await ws.call({ id: 1, method: 'call', params: [1, 'login', ['u', 'one']] })).result);
  t.true((await ws.call({ id: 2, method: 'call', params: [1, 'login', ['v', 'vee']] })).result);
  const historyId = (await ws.call({ id: 3, method: 'call', params: [1, 'history', []] })).result as number;
  t.is(typeof historyId, 'number');
  t.is(typeof (await ws.call({ id: 4, method: 'call', params: [1, 'asset', []] })).result, 'number');
  write([['v', v, ['asset_api']]]);
  t.deepEqual(node.reloadAccess(), { ok: true, users: 1 });
  t.is((await ws.call({ id: 5, method: 'call', params: [1, 'history', []] })).error.message, 'Execution error: Assert Exception: _history_api: ');
  t.is(typeof (await ws.call({ id: 6, method: 'call', params: [1, 'asset', []] })).result, 'number');
  t.deepEqual((await ws.call({ id: 7, method: 'call', params: [historyId, 'get_account_history', ['committee-account', '1.11.0', 1, '1.11.0']] })).result, []);
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

test('shutdown past its drain bound answers every call still in flight with -32016 before closing WebSockets with 1001', async (t) => {
  // No slices: on a loaded machine a light call now and then uses up its slice and runs again later
  // as heavy, so an early call may still be in flight at the bound while later ones were answered.
  const { node, wsUrl } = await startTestNode(t, { 'shutdown-drain-ms': '0', 'max-calls-per-second': '0', 'max-pending-calls-per-connection': '5000', 'light-slice-ms': '0' });
  const { WsClient } = await import('./helpers/clients.js');
  const ws = await WsClient.connect(wsUrl);
  const sent = 3000;
  for (let i = 0; i < sent; i++) ws.send(JSON.stringify({ id: i, method: 'get_full_accounts', params: [['nathan'], false] }));
  const replies: { id: number; result?: unknown; error?: { code: number; message: string } }[] = [JSON.parse(await ws.next(60_000))];
  const stopped = node.close();
  while (!ws.closed) {
    const m = await ws.next(60_000).catch(() => undefined);
    if (m !== undefined) replies.push(JSON.parse(m));
  }
  await stopped;
  t.is(ws.closed?.code, 1001);
  t.deepEqual(
    replies.map((r) => r.id),
    [...Array(sent).keys()],
    'one reply per call, in order',
  );
  const failed = replies.filter((r) => r.error);
  t.true(failed.length > 0, 'some calls were still in flight at the bound');
  for (const r of failed) t.deepEqual(r.error, { code: -32016, message: 'Server is shutting down (not answered within --shutdown-drain-ms, 0 ms)' });
  t.true(replies.slice(0, replies.length - failed.length).every((r) => r.result !== undefined), 'the answered ones come first');
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

// What keeps one client from starving or bloating the node for the others, against a real server:
// each limit answers with its own error, names the limit, and leaves the connection up.
import test from 'ava';
import { startTestNode } from './helpers/node.js';
import { WsClient, callText, collectMessages, httpPost } from './helpers/clients.js';
import { captureLogs } from './helpers/logs.js';
import { DEV_PUB, makeChain, op } from './helpers/chain.js';
import { READ_IN_POOL_FROM_BYTES } from '../src/tuning.js';

test('max-reply-bytes: a reply that would be larger is refused with -32008 naming the limit; the connection stays up', async (t) => {
  const { wsUrl, httpUrl } = await startTestNode(t, { 'max-reply-bytes': '2048' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  const ids = Array.from({ length: 6 }, (_, i) => `1.2.${i}`);
  const big = await ws.call({ id: 1, method: 'get_accounts', params: [ids] });
  t.deepEqual(big, { id: 1, error: { code: -32008, message: 'Response is too big (over 2048 bytes: --max-reply-bytes)' } });
  const small = await ws.call({ id: 2, method: 'get_accounts', params: [['1.2.0']] });
  t.is(small.result[0].id, '1.2.0');
  const overHttp = await httpPost(httpUrl, callText(3, 'get_accounts', [ids]));
  t.is(overHttp.status, 500);
  t.regex(overHttp.text, /"code":-32008/);
});

test('max-ids-per-call: a longer id list is refused before it runs, with an error shaped as Core\'s list limits', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-ids-per-call': '3' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  const refused = await ws.call({ id: 1, method: 'get_objects', params: [['1.2.0', '1.2.1', '1.2.2', '1.2.3']] });
  t.is(refused.error.code, 10);
  t.is(refused.error.message, 'Execution error: Assert Exception: ids.size() <= max_ids_per_call: Number of ids in one call can not be greater than 3 (--max-ids-per-call)');
  const names = await ws.call({ id: 2, method: 'lookup_account_names', params: [['a', 'b', 'c', 'd']] });
  t.regex(names.error.message, /Number of account_names in one call can not be greater than 3/);
  const fine = await ws.call({ id: 3, method: 'get_objects', params: [['1.2.0', '1.2.1', '1.2.2']] });
  t.is(fine.result.length, 3);
  // A list Core bounds keeps Core's check and message.
  const full = await ws.call({ id: 4, method: 'get_full_accounts', params: [Array.from({ length: 60 }, () => 'nathan'), false] });
  t.regex(full.error.message, /Number of querying accounts can not be greater than 50/);
});

test('call-budget-ms: calls that cannot be answered within the budget get -32012 naming it; the others and the connection go on', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'call-budget-ms': '50', 'max-pending-calls-per-connection': '100000', 'max-calls-per-second': '0' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  // A lone call is served within its budget (on a loaded machine a cold worker may need a few tries).
  let first = await ws.call({ id: 'first', method: 'get_full_accounts', params: [['nathan'], false] });
  for (let tries = 0; first.error && tries < 20; tries++) first = await ws.call({ id: 'first', method: 'get_full_accounts', params: [['nathan'], false] });
  t.is(first.result[0][0], 'nathan', 'a lone call is served within its budget');
  // Heavy calls run one at a time: 3,000 of them take far longer than 50 ms in all.
  const n = 3000;
  for (let i = 0; i < n; i++) ws.send(callText(i, 'get_full_accounts', [['nathan'], false]));
  let over = 0;
  let served = 0;
  for (let i = 0; i < n; i++) {
    const reply = JSON.parse(await ws.next(20_000));
    if (reply.error) {
      t.deepEqual(reply.error, { code: -32012, message: 'Call exceeded its time budget (50 ms: --call-budget-ms)' });
      over++;
    } else served++;
  }
  t.true(over > 0, 'some calls ran out of budget');
  t.is(over + served, n);
  // The connection goes on (each try has the same 50 ms budget, which a loaded machine may miss).
  let after = await ws.call({ id: 'after', method: 'get_chain_id', params: [] });
  for (let tries = 0; after.error?.code === -32012 && tries < 20; tries++) after = await ws.call({ id: 'after', method: 'get_chain_id', params: [] });
  t.is(typeof after.result, 'string');
});

/**
 * The connection limits are counted by each serving process (README "Scaling out": a node of N
 * processes holds up to N times them), so the tests of their counts run on a node of one process
 * whatever TEST_PROCESSES says; a second connection may reach a second process.
 */
const ONE_PROCESS = { processes: '1' };

/** Opens a WebSocket, resolving with it when open or with the refusal's status and body. */
async function tryConnect(url: string, headers: Record<string, string> = {}): Promise<{ ws?: import('ws').WebSocket; status?: number; body?: string }> {
  const WebSocket = (await import('ws')).default;
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    ws.once('error', () => undefined);
  });
}

test('max-connections-per-ip: one address beyond its share is refused with 503 and -32014; a freed place is given again', async (t) => {
  const { wsUrl, httpUrl } = await startTestNode(t, { ...ONE_PROCESS, 'max-connections-per-ip': '2' });
  const a = await tryConnect(wsUrl);
  const b = await tryConnect(wsUrl);
  t.teardown(() => {
    a.ws?.close();
    b.ws?.close();
  });
  t.truthy(a.ws && b.ws);
  const c = await tryConnect(wsUrl);
  t.is(c.status, 503);
  t.is(c.body, '{"id":null,"jsonrpc":"2.0","error":{"code":-32014,"message":"Too many connections (2 from this address: --max-connections-per-ip)"}}');
  // HTTP requests count too while they are in progress.
  const overHttp = await httpPost(httpUrl, callText(1, 'get_chain_id', []));
  t.is(overHttp.status, 503);
  a.ws!.close();
  await new Promise((r) => a.ws!.once('close', r));
  // The server frees the place when it sees the close; allow it a moment by retrying a few times.
  let d = await tryConnect(wsUrl);
  for (let i = 0; i < 20 && !d.ws; i++) d = await tryConnect(wsUrl);
  t.truthy(d.ws, 'the freed place is given to the next connection');
  d.ws?.close();
});

test('max-connections: the node-wide bound refuses further connections whatever their address', async (t) => {
  const { wsUrl } = await startTestNode(t, { ...ONE_PROCESS, 'max-connections': '1' });
  const a = await tryConnect(wsUrl);
  t.teardown(() => a.ws?.close());
  const b = await tryConnect(wsUrl);
  t.is(b.status, 503);
  t.regex(b.body!, /Too many connections \(1 in all: --max-connections\)/);
});

test('trusted-proxies: behind a trusted proxy each client address from X-Forwarded-For has its own share', async (t) => {
  const { wsUrl } = await startTestNode(t, { ...ONE_PROCESS, 'max-connections-per-ip': '1', 'trusted-proxies': '127.0.0.1' });
  const alice = await tryConnect(wsUrl, { 'x-forwarded-for': '203.0.113.7' });
  const bob = await tryConnect(wsUrl, { 'x-forwarded-for': '198.51.100.1, 203.0.113.8' });
  t.teardown(() => {
    alice.ws?.close();
    bob.ws?.close();
  });
  t.truthy(alice.ws && bob.ws, 'two clients behind the proxy');
  const alice2 = await tryConnect(wsUrl, { 'x-forwarded-for': '203.0.113.7' });
  t.is(alice2.status, 503, 'the same client address is limited');
});

test('X-Forwarded-For from an untrusted peer is ignored: it cannot buy a client more connections', async (t) => {
  const { wsUrl } = await startTestNode(t, { ...ONE_PROCESS, 'max-connections-per-ip': '1' });
  const a = await tryConnect(wsUrl, { 'x-forwarded-for': '203.0.113.7' });
  t.teardown(() => a.ws?.close());
  const b = await tryConnect(wsUrl, { 'x-forwarded-for': '203.0.113.8' });
  t.is(b.status, 503);
});

test('max-buffered-bytes: WebSocket clients that never read are closed once the node is over its budget; a reading client is unaffected', async (t) => {
  const budget = 1024 * 1024;
  const { wsUrl, node, port } = await startTestNode(t, {
    'max-buffered-bytes': String(budget),
    'ws-max-buffered-bytes': String(256 * 1024 * 1024),
    'max-pending-calls-per-connection': '100000',
    'max-ids-per-call': '100000',
    'max-calls-per-second': '0',
  });
  const WebSocket = (await import('ws')).default;
  // Each reply is ~1 MB (the same accounts many times): a few unread ones fill any socket buffer.
  const big = callText(1, 'get_objects', [Array.from({ length: 1000 }, (_, i) => `1.2.${i % 6}`)]);
  const readers: import('ws').WebSocket[] = [];
  const closed: Promise<number>[] = [];
  for (let i = 0; i < 4; i++) {
    const ws = new WebSocket(wsUrl);
    await new Promise((r) => ws.once('open', r));
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    closed.push(new Promise((r) => ws.once('close', (code: number) => r(code))));
    for (let j = 0; j < 40; j++) ws.send(big);
    readers.push(ws);
  }
  const polite = await WsClient.connect(wsUrl);
  t.teardown(() => {
    polite.close();
    for (const ws of readers) ws.terminate();
  });
  // The node closes each non-reader as it goes over its share (it counts them in its metrics; their
  // paused sockets cannot see the close yet); the reading client is served meanwhile.
  const deadline = Date.now() + 20_000;
  let probes = 0;
  for (;;) {
    const r = await polite.call({ id: 'probe', method: 'get_chain_id', params: [] });
    t.is(typeof r.result, 'string');
    probes++;
    if ((await metrics(port))('graphene_rpc_backpressure_closes_total', { limit: 'max-buffered-bytes' }) >= readers.length) break;
    if (Date.now() > deadline) return t.fail('the node did not close the clients that do not read within 20 s');
  }
  t.true(probes > 0, 'the reading client was served while the others were dropped');
  for (const ws of readers) (ws as unknown as { _socket: { resume(): void } })._socket.resume();
  // Closed by the server (1013, or 1006 when its close frame could not get past the unread data).
  const codes = await Promise.all(closed);
  t.true(codes.every((c) => c === 1013 || c === 1006), `close codes ${codes.join(',')}`);
  t.true(node.bufferedBytes() <= budget, 'what they held is freed');
  const after = await polite.call({ id: 'after', method: 'get_chain_id', params: [] });
  t.is(typeof after.result, 'string', 'the reading client was served throughout');
});

test('max-buffered-bytes: while the node is over its budget heavy calls get -32010 naming it, light calls are served', async (t) => {
  const { fakeNode, settle } = await import('./helpers/pipeline.js');
  let over = true;
  const { conn, replies } = fakeNode({ answer: (task) => new TextEncoder().encode(`${task.head}0}`), memoryOver: () => over });
  conn.receive(callText(1, 'get_objects', [Array.from({ length: 200 }, () => '1.2.0')]));
  conn.receive(callText(2, 'get_chain_id', []));
  await settle();
  t.deepEqual(replies, ['{"id":1,"error":{"code":-32010,"message":"Server is busy: too many calls in flight on this node (replies held for slow readers are over --max-buffered-bytes)"}}', '{"id":2,"result":0}']);
  over = false;
  conn.receive(callText(3, 'get_objects', [Array.from({ length: 200 }, () => '1.2.0')]));
  await settle();
  t.is(replies[2], '{"id":3,"result":0}');
});

test('max-buffered-bytes: HTTP clients that never read their replies are closed once the node is over its budget', async (t) => {
  const budget = 1024 * 1024;
  const logs = captureLogs('info');
  const { port, node, httpUrl } = await startTestNode(t, { ...ONE_PROCESS, 'max-buffered-bytes': String(budget), 'max-ids-per-call': '100000' }, logs.log);
  const net = await import('node:net');
  // ~8 MB replies: more than the kernel's socket buffers take, so the node holds the rest.
  const body = callText(1, 'get_objects', [Array.from({ length: 8000 }, (_, i) => `1.2.${i % 6}`)]);
  // The whole reply's size, from six accounts' size (asking for it whole would itself go over the budget).
  const six = (await httpPost(httpUrl, callText(0, 'get_objects', [Array.from({ length: 6 }, (_, i) => `1.2.${i}`)]))).text.length;
  t.true((six * 8000) / 6 > 4 * 1024 * 1024);
  const sockets: import('node:net').Socket[] = [];
  const closed: Promise<void>[] = [];
  for (let i = 0; i < 4; i++) {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    socket.on('error', () => undefined);
    closed.push(new Promise((r) => socket.once('close', () => r())));
    socket.write(`POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    sockets.push(socket);
  }
  t.teardown(() => {
    for (const s of sockets) s.destroy();
  });
  // The node goes over its budget at once and drops the slow readers, well before uWebSockets.js'
  // own 10 s timeout for connections that do not read; a reading client is served meanwhile.
  const sent = Date.now();
  await logs.once('HTTP client does not read and the node is over --max-buffered-bytes; closing');
  while (node.bufferedBytes() > budget && Date.now() - sent < 5000) {
    const ok = await httpPost(httpUrl, callText(2, 'get_chain_id', []));
    t.is(ok.status, 200);
  }
  t.true(node.bufferedBytes() <= budget, `within 5 s the node holds ${node.bufferedBytes()} bytes, within its budget`);
  for (const s of sockets) s.resume();
  await Promise.all(closed);
});

test('max-unread-bytes-per-connection: the calls of a client that does not read wait until it reads, so the node holds little for it; then every one is answered', async (t) => {
  const logs = captureLogs('info');
  const { wsUrl, node } = await startTestNode(
    t,
    {
      'max-unread-bytes-per-connection': String(64 * 1024),
      'max-buffered-bytes': String(1024 * 1024 * 1024),
      'ws-max-buffered-bytes': String(1024 * 1024 * 1024),
      'max-pending-calls-per-connection': '100000',
      'max-ids-per-call': '100000',
      'max-calls-per-second': '0',
      'call-budget-ms': '120000',
    },
    logs.log,
  );
  const WebSocket = (await import('ws')).default;
  // ~1 MB replies: 100 of them unread would make the node hold ~100 MB without the pause.
  const n = 100;
  const big = (id: number) => callText(id, 'get_objects', [Array.from({ length: 1000 }, (_, i) => `1.2.${i % 6}`)]);
  const ws = new WebSocket(wsUrl);
  ws.on('error', () => undefined);
  t.teardown(() => ws.terminate());
  await new Promise((r) => ws.once('open', r));
  const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  const replies = collectMessages(ws, n);
  for (let i = 0; i < n; i++) ws.send(big(i));
  await logs.once('client does not read its replies; its calls wait');
  // Another client is served meanwhile, and each of its calls passes the scheduler: by then every
  // call the non-reader had in a worker when it was paused has come back.
  const polite = await WsClient.connect(wsUrl);
  t.teardown(() => polite.close());
  for (let i = 0; i < 20; i++) t.is(typeof (await polite.call({ id: i, method: 'get_objects', params: [['1.2.0']] })).result, 'object');
  const held = node.bufferedBytes();
  t.true(held < 30 * 1024 * 1024, `the node holds ${held} bytes for it, far less than its ${n} replies`);
  // Once it reads, its calls run and every one is answered.
  socket.resume();
  const all = await replies.all;
  t.true(all.every((r) => r.startsWith('{"id":') && r.includes('"result":[')));
});

test('max-unread-bytes-per-connection counts replies in flight: clients that ask for many large replies and never read get about one each, and a neighbour is served over WebSocket and HTTP meanwhile', async (t) => {
  const { wsUrl, httpUrl, port, node } = await startTestNode(t, {
    ...ONE_PROCESS,
    'max-ids-per-call': '100000',
    'max-calls-per-second': '0',
    'call-budget-ms': '120000',
  });
  const WebSocket = (await import('ws')).default;
  // ~6 MB replies, heavy by their id list; the node's defaults otherwise (1 MiB unread per connection).
  const clients = 4;
  const asks = 20;
  const big = (id: number) => callText(id, 'get_objects', [Array.from({ length: 6000 }, (_, i) => `1.2.${i % 6}`)]);
  const replySize = Buffer.byteLength((await httpPost(httpUrl, big(0))).text);
  t.true(replySize > 4 * 1024 * 1024, `replies of ${replySize} bytes`);
  const sockets: { ws: import('ws').WebSocket; socket: { pause(): void; resume(): void }; replies: ReturnType<typeof collectMessages> }[] = [];
  for (let c = 0; c < clients; c++) {
    const ws = new WebSocket(wsUrl, { maxPayload: 256 * 1024 * 1024 });
    const replies = collectMessages(ws, asks);
    ws.on('error', () => undefined);
    await new Promise((r) => ws.once('open', r));
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < asks; i++) ws.send(big(i));
    sockets.push({ ws, socket, replies });
  }
  t.teardown(() => {
    for (const s of sockets) s.ws.terminate();
  });
  // Their calls wait once each has about its limit outstanding (unread, or on its way).
  const held = await metricsUntil(port, (m) => m('graphene_rpc_pool_held_calls') >= clients * (asks - 3) && m('graphene_rpc_pool_running_calls') === 0);
  // (One more was the HTTP call that measured a reply.)
  const served = held('graphene_rpc_calls_total', { api: 'database', method: 'get_objects', outcome: 'ok' }) - 1;
  t.true(served <= clients * 3, `${served} of their ${clients * asks} calls ran`);
  t.true(held('graphene_rpc_reply_sizes_kept') >= 1, 'the shape of their calls is known to answer large replies');
  const outstanding = held('graphene_rpc_reply_bytes_outstanding');
  t.true(outstanding <= clients * 3 * replySize, `${outstanding} bytes outstanding for ${clients} clients that do not read`);
  t.true(node.bufferedBytes() <= outstanding);
  // A neighbour is served meanwhile, over both transports.
  const neighbour = await WsClient.connect(wsUrl);
  t.teardown(() => neighbour.close());
  for (let i = 0; i < 10; i++) {
    t.is((await neighbour.call({ id: i, method: 'get_objects', params: [['1.2.0']] })).result[0].id, '1.2.0');
    const overHttp = await httpPost(httpUrl, callText(i, 'get_objects', [['1.2.1']]));
    t.is(overHttp.status, 200);
  }
  // Once they read, every call of theirs is answered, in order.
  for (const s of sockets) s.socket.resume();
  for (const s of sockets) {
    const all = await s.replies.all;
    t.deepEqual(
      all.map((r) => JSON.parse(r.slice(0, 20).replace(/,.*$/, '}')).id),
      Array.from({ length: asks }, (_, i) => i),
    );
    t.true(all.every((r) => r.includes('"result":[')));
  }
});

/** The node's metrics, parsed as Prometheus parses them. */
async function metrics(port: number) {
  const { parsePromText, valueOf } = await import('../bench/prom-text.js');
  const families = parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
  return (name: string, labels: Record<string, string> = {}) => valueOf(families, name, labels) ?? 0;
}

/** Resolves once `ok` holds of the node's metrics, looking again every 20 ms; an error after `ms`. */
async function metricsUntil(port: number, ok: (m: Awaited<ReturnType<typeof metrics>>) => boolean, ms = 30_000): Promise<Awaited<ReturnType<typeof metrics>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = await metrics(port);
    if (ok(m)) return m;
    if (Date.now() > deadline) throw new Error(`the metrics did not reach the condition within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Heavy calls with big replies: 20,000 ids each (~18 MB), many times what a worker writes in the
// moment a close takes to reach it.
const HEAVY_CLOSE_OPTIONS = { 'max-ids-per-call': '100000', 'max-request-bytes': String(4 * 1024 * 1024), 'max-reply-bytes': String(256 * 1024 * 1024), 'call-budget-ms': '600000', 'max-calls-per-second': '0' };
// 100,000 ids: a call of about a second, long against the time between seeing one running and the
// close (a shorter call could end, and the next one start, in that window on a loaded machine).
const heavyIds = Array.from({ length: 100_000 }, (_, i) => `1.2.${i % 6}`);
const CALLS = 10;
const getObjects = (m: Awaited<ReturnType<typeof metrics>>, outcome: string) => m('graphene_rpc_calls_total', { api: 'database', method: 'get_objects', outcome });

/**
 * After a client that had CALLS heavy calls in flight is gone: every one of them is answered
 * -32011 inside the node (its waiting calls never ran, its running ones stopped), but for at most
 * two a worker may have finished before the close reached it. Before calls in the pool were
 * cancelled, every call the pool held (8 here: two tasks of four) ran to its end.
 */
async function everyCallDropped(t: import('ava').ExecutionContext, port: number) {
  // Requests of 800 KB wait their turn to be read (src/transport/ingress.ts): those still waiting
  // when the client went are dropped unread, never run.
  const unread = (x: Awaited<ReturnType<typeof metrics>>) => x('graphene_rpc_requests_dropped_unread_total');
  const m = await metricsUntil(port, (x) => getObjects(x, 'cancelled') + getObjects(x, 'ok') + unread(x) >= CALLS && x('graphene_rpc_pool_running_calls') === 0);
  // A heavy task carries up to HEAVY_CALLS_PER_TASK calls, run in turn: besides the one running when
  // the close reaches the node, one more may end between the scrape that saw them running and the
  // close (on a loaded machine it did, 2 of 8 full runs).
  t.true(getObjects(m, 'ok') <= 2, `${getObjects(m, 'ok')} calls ran to their end after their client had gone`);
  t.is(getObjects(m, 'cancelled') + getObjects(m, 'ok') + unread(m), CALLS);
}

test('a closed WebSocket: its waiting calls never run and its running ones stop (answered -32011 inside the node, never sent)', async (t) => {
  const { wsUrl, port } = await startTestNode(t, HEAVY_CLOSE_OPTIONS);
  const ws = await WsClient.connect(wsUrl);
  ws.ws.on('error', () => undefined);
  for (let i = 0; i < CALLS; i++) ws.send(callText(i, 'get_objects', [heavyIds]));
  // Close once the pool holds some of them (the others wait in the scheduler).
  await metricsUntil(port, (m) => m('graphene_rpc_pool_running_calls') > 0);
  await ws.close();
  await everyCallDropped(t, port);
  // The worker is free: a new client is served.
  const next = await WsClient.connect(wsUrl);
  t.teardown(() => next.close());
  t.is((await next.call({ id: 1, method: 'get_objects', params: [['1.2.0']] })).result[0].id, '1.2.0');
});

test('an HTTP client that goes away: its call never runs if it waits, and stops if it runs', async (t) => {
  const { port, httpUrl } = await startTestNode(t, HEAVY_CLOSE_OPTIONS);
  const net = await import('node:net');
  const body = callText(1, 'get_objects', [heavyIds]);
  const sockets: import('node:net').Socket[] = [];
  t.teardown(() => {
    for (const s of sockets) s.destroy();
  });
  for (let i = 0; i < CALLS; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    sockets.push(socket);
  }
  // Every request in the node, not only the first running: with several front ends (processes,
  // threads) one may still be reading a body when another runs its first call, and a request whose
  // body never arrived whole is no call at all.
  await metricsUntil(port, (m) => m('graphene_rpc_pool_running_calls') > 0 && m('graphene_rpc_pool_running_calls') + m('graphene_rpc_pool_queued_calls') + getObjects(m, 'ok') >= CALLS);
  for (const s of sockets) s.destroy();
  await everyCallDropped(t, port);
  const after = await httpPost(httpUrl, callText(2, 'get_objects', [['1.2.0']]));
  t.is(after.status, 200);
});

test('fair scheduling: a prober\'s cheap calls are all served while a connection pipelining many heavy calls still waits for most of its own', async (t) => {
  const { wsUrl } = await startTestNode(t, { workers: '2', 'max-pending-calls-per-connection': '1000', 'max-calls-per-second': '0', 'call-budget-ms': '600000' });
  const attacker = await WsClient.connect(wsUrl);
  const prober = await WsClient.connect(wsUrl);
  t.teardown(async () => {
    await attacker.close();
    await prober.close();
  });
  // 1,000 ids: a heavy call (src/pipeline/cost.ts), ~1 MB of reply each.
  const n = 300;
  const heavy = Array.from({ length: 1000 }, (_, i) => `1.2.${i % 6}`);
  let attackerReplies = 0;
  attacker.ws.on('message', () => attackerReplies++);
  for (let i = 0; i < n; i++) attacker.send(callText(i, 'get_objects', [heavy]));
  const probes = 20;
  for (let i = 0; i < probes; i++) t.is((await prober.call({ id: i, method: 'get_objects', params: [['1.2.0']] })).result[0].id, '1.2.0');
  // Not timing: the order of completions. Served in one FIFO, each probe would wait behind every heavy call sent before it.
  t.true(attackerReplies < n / 2, `the prober's ${probes} calls were served while the attacker had ${n - attackerReplies} of its ${n} calls unanswered`);
});

test('light-slice-ms: a call guessed light that uses up its slice runs again as heavy with the right answer, and its shape is heavy from the start after 3 strikes', async (t) => {
  // 5,000 accounts on the development key: get_key_references of that one key is light by its
  // arguments (one key, a small request), and walks 5,000 references, longer than a 1 ms slice.
  const c = makeChain(t);
  for (let b = 0; b < 5; b++) c.block(...Array.from({ length: 10 }, (_, x) => Array.from({ length: 100 }, (_, i) => op.accountCreate(`slice-${b}-${x}-${i}`))));
  const { httpUrl, port } = await c.serve({ 'light-slice-ms': '1', 'max-calls-per-second': '0' });
  const body = callText(1, 'get_key_references', [[DEV_PUB]]);
  t.true(body.length < READ_IN_POOL_FROM_BYTES, 'a small request, read on the front end');
  // Calls one after another until the shape is learnt: a call whose thread waited for a CPU keeps
  // its slice (workers/reply-writer.ts waitedForCpu), so on a loaded machine not every call strikes.
  const replies: string[] = [];
  let m = await metrics(port);
  for (let i = 0; i < 30 && (i < 5 || m('graphene_rpc_learnt_heavy_shapes') === 0); i++) {
    replies.push((await httpPost(httpUrl, body)).text);
    m = await metrics(port);
  }
  for (const r of replies) t.regex(r, /^\{"id":1,"result":\[\["1\.2\./, 'answered in full, never with the slice as an error');
  t.true(new Set(replies).size === 1, 'the same answer whether it ran as light, again as heavy, or heavy from the start');
  t.true(JSON.parse(replies[0]!).result[0].length >= 5000);
  t.true(m('graphene_rpc_calls_requeued_heavy_total') + m('graphene_rpc_light_calls_ran_long_total') >= 3, 'its light runs used up their slice');
  t.is(m('graphene_rpc_learnt_heavy_shapes'), 1, 'learnt: get_key_references of one key is heavy');
  // A small call is still light, and answered.
  const small = await httpPost(httpUrl, callText(2, 'get_chain_id', []));
  t.regex(small.text, /"result":"[0-9a-f]{64}"/);
});

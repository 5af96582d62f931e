// --serving-threads N > 1: the writer in the main thread and N front ends as worker threads of the
// same process, on one port. Which thread holds a connection is read from the node's own log: every
// line a serving thread writes carries `"thread": I`, and at debug level each call has its served line.
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fixture, startTestNode, type TestNode } from './helpers/node.js';
import { connectWs, httpPost, type WsClient } from './helpers/clients.js';
import { captureLogs, type CapturedLogs } from './helpers/logs.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';
import { generateBlocks } from './helpers/devnet.js';
import { broadcastsReadAcross, callIn as call, keepCalling, noticesOnEach } from './helpers/front-ends.js';
import { until } from './helpers/until.js';
import { parsePromText, valueOf } from '../bench/prom-text.js';
import { serveChild } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';
import { readerSlots } from '../src/startup/writable-store.js';

const TWO = { 'serving-threads': '2', processes: '1', 'api-access': fixture('api-access.json') };


let asked = 0;
/** The serving thread that answers `ws`: the `thread` of the served line of a call made on it. */
async function threadOf(ws: WsClient, logs: CapturedLogs): Promise<number> {
  const id = `which-thread-${++asked}`;
  await call(ws, id, 'database', 'get_chain_id', []);
  let line: Record<string, unknown> | undefined;
  // The log line crosses to the main thread as a message of its own: it may come after the reply.
  await until(() => (line = logs.lines.find((l) => l.msg === 'served' && l.reqId === id)) !== undefined, `the served line of ${id}`);
  return line!.thread as number;
}

/** WebSocket connections until at least `each` sit on every serving thread, by thread; the others are closed. */
async function connectionsOnEach(t: ExecutionContext, node: TestNode, logs: CapturedLogs, each = 1): Promise<Map<number, WsClient[]>> {
  const by = new Map<number, WsClient[]>([
    [0, []],
    [1, []],
  ]);
  for (let tries = 0; [...by.values()].some((l) => l.length < each); tries++) {
    if (tries > 200) throw new Error(`after 200 connections, not ${each} on every serving thread`);
    const ws = await connectWs(t, node.wsUrl);
    const list = by.get(await threadOf(ws, logs))!;
    if (list.length < each) list.push(ws);
    else await ws.close();
  }
  return by;
}

async function scrape(node: TestNode) {
  return parsePromText(await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text());
}

test('the LMDB reader table counts serving threads as it counts serving processes', (t) => {
  t.is(readerSlots({ processes: 1, servingThreads: 32, workers: 8 }), readerSlots({ processes: 32, workers: 8 }));
});

test('serving threads share the port: connections land on each, each answers from the same chain, and no process is forked', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, TWO, logs.log);
  t.is(node.node.servingThreads!.ids().length, 2);
  t.is(node.node.servingProcesses, undefined);
  const by = await connectionsOnEach(t, node, logs);
  const ids = new Set<string>();
  for (const [thread, [ws]] of by) ids.add((await call(ws!, thread, 'database', 'get_chain_id', [])).result);
  t.deepEqual([...ids], [node.node.chainId]);
  const m = await scrape(node);
  t.is(valueOf(m, 'graphene_rpc_serving_threads'), 2);
  t.is(valueOf(m, 'graphene_rpc_serving_threads_configured'), 2);
  t.is(valueOf(m, 'graphene_rpc_pool_workers'), 2, 'one worker per thread, summed');
  // Every thread reads the process' memory: it is counted once, not once per thread.
  const rss = valueOf(m, 'process_resident_memory_bytes')!;
  t.true(rss < process.memoryUsage().rss * 1.5, `resident memory ${rss} reported, ${process.memoryUsage().rss} in this process`);
});

test('a transaction broadcast through one serving thread is read at once through the other, both ways, and so is a block made through one', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, TWO, logs.log);
  await generateBlocks(node.httpUrl, 1);
  const [a, b] = [...(await connectionsOnEach(t, node, logs)).values()].map((l) => l[0]!);
  await broadcastsReadAcross(t, node, a!, b!, 'THRD', 'thread');
});

test('notices come from every serving thread: block-applied and pending-transaction callbacks on each', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, TWO, logs.log);
  const clients = [...(await connectionsOnEach(t, node, logs)).values()].map((l) => l[0]!);
  await noticesOnEach(t, node, clients, 'TNOTICE');
});

test('a serving thread that fails under load closes its own connections only: the other answers every call throughout, the process stays, and the failed one is restarted, counted and serves again', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, { ...TWO, 'max-calls-per-second': '0' }, logs.log);
  const by = await connectionsOnEach(t, node, logs, 2);
  const victims = by.get(0)!;
  const survivors = by.get(1)!;
  const { stats, okOf, stop } = keepCalling([...victims, ...survivors]);
  await until(() => okOf([...survivors, ...victims]).every((n) => n >= 20), 'every client answered 20 times before the failure');
  const before = okOf(survivors);
  const threadBefore = node.node.servingThreads!.ids()[0];
  node.node.servingThreads!.drill(0, 'throw');
  await Promise.all(victims.map((ws) => ws.whenClosed(30_000)));
  const failed = await logs.once('serving thread failed: it closes its connections and ends');
  t.is(failed.thread, 0);
  t.regex(String((failed.err as { message?: string }).message), /a drill/);
  await until(() => node.node.servingThreads!.listening === 2 && node.node.servingThreads!.ids()[0] !== threadBefore, 'the failed thread restarted and listening');
  await until(() => okOf(survivors).every((n, i) => n >= before[i]! + 50), 'the survivors answered 50 more calls each');
  await stop();
  for (const ws of survivors) t.deepEqual(stats.get(ws)!.failed, [], 'no call failed on the thread that did not fail');
  for (const ws of victims) t.is(stats.get(ws)!.failed.length, 1, 'a closed connection ends its loop');
  const ended = await logs.once('serving thread ended; restarting it');
  t.is(ended.thread, 0);
  t.is(ended.exitCode, 1);
  t.is(node.node.servingThreads!.restarts, 1);
  t.is(valueOf(await scrape(node), 'graphene_rpc_serving_thread_restarts_total'), 1);
  // The new thread serves.
  const again = await connectionsOnEach(t, node, logs);
  for (const [thread, [ws]] of again) t.is((await call(ws!, thread, 'database', 'get_chain_id', [])).result, node.node.chainId);
});

test('a serving thread that hangs does not hold broadcasts: past the acknowledgement bound it is asked to stop, and restarted once it does', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, TWO, logs.log);
  const by = await connectionsOnEach(t, node, logs);
  const signed = await signedTx(node.httpUrl, [op.assetCreate('THANG')], [DEV_WIF]);
  // Held past ACK_WAIT_MS (10 s) and a turn of the watch, then it reads its messages again.
  node.node.servingThreads!.drill(0, 'hang', 13_000);
  const ws = by.get(1)![0]!;
  ws.send(JSON.stringify({ id: 'hang', method: 'call', params: ['network_broadcast', 'broadcast_transaction', [signed]] }));
  const sent = JSON.parse(await ws.next(60_000));
  t.is(sent.error, undefined, JSON.stringify(sent.error));
  const asked = await logs.once('serving thread did not acknowledge a change of the store in time; asking it to stop', 30_000);
  t.is(asked.thread, 0);
  await until(() => node.node.servingThreads!.restarts === 1 && node.node.servingThreads!.listening === 2, 'the hung thread replaced', 60_000);
  t.is((await call(ws, 'after', 'database', 'get_chain_id', [])).result, node.node.chainId);
});

test('graceful shutdown reaches every serving thread: each closes its WebSockets with 1001, and its idle keep-alive HTTP connections, and ends', async (t) => {
  const logs = captureLogs('debug');
  const node = await startTestNode(t, TWO, logs.log);
  const clients = [...(await connectionsOnEach(t, node, logs)).values()].map((l) => l[0]!);
  // An HTTP connection kept alive and idle: the thread must close it to end.
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  t.teardown(() => agent.destroy());
  const idle = await new Promise<import('node:net').Socket>((resolve, reject) => {
    const req = http.request(node.httpUrl, { method: 'POST', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(req.socket!));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ id: 1, method: 'call', params: ['database', 'get_chain_id', []] }));
  });
  const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
  const closed = clients.map((ws) => ws.whenClosed(30_000));
  const started = Date.now();
  await node.node.close();
  t.deepEqual(await Promise.all(closed), [1001, 1001]);
  await idleClosed;
  t.true(Date.now() - started < 8000, `stopped in ${Date.now() - started} ms: not held by the keep-alive connection`);
  t.is(node.node.servingThreads!.listening, 0);
  t.is((await logs.times('serving thread stopped', 2)).length, 2);
});

test('CLI: SIGHUP reloads options in each serving thread; SIGTERM stops them all gracefully and the process exits 0', async (t) => {
  const dir = tempDir(t);
  const ini = path.join(dir, 'node.ini');
  writeFileSync(ini, 'max-calls-per-second = 100\n');
  const node = await serveChild(['--serving-threads', '2', '--workers', '1', '--data-dir', path.join(dir, 'data'), '--config', ini]);
  t.teardown(() => void node.child.kill('SIGKILL'));
  await Promise.all([0, 1].map((i) => node.line((l) => l.msg === 'serving thread listening' && l.thread === i, `thread ${i} listening`)));
  writeFileSync(ini, 'max-calls-per-second = 200\n');
  node.child.kill('SIGHUP');
  for (const i of [0, 1]) await node.line((l) => l.msg === 'options reloaded' && l.thread === i, `options reloaded in thread ${i}`);
  node.child.kill('SIGTERM');
  t.deepEqual(await node.ended, { code: 0, signal: null });
  for (const i of [0, 1]) t.truthy(node.lines.find((l) => l.msg === 'serving thread stopped' && l.thread === i));
  t.notRegex(node.stderr(), /Assertion failed|open handles/);
});

test('CLI: a second signal stops at once: the serving threads close their sockets first, so the process exits 1 rather than aborting', async (t) => {
  const dir = tempDir(t);
  const node = await serveChild(['--serving-threads', '2', '--workers', '1', '--data-dir', path.join(dir, 'data')]);
  t.teardown(() => void node.child.kill('SIGKILL'));
  await Promise.all([0, 1].map((i) => node.line((l) => l.msg === 'serving thread listening' && l.thread === i, `thread ${i} listening`)));
  const ws = await connectWs(t, `ws://127.0.0.1:${node.port}/ws`);
  t.is((await call(ws, 1, 'database', 'get_chain_id', [])).error, undefined);
  // Both at once (two signals of one kind sent together may arrive as one): the first one's shutdown
  // takes turns of the event loop (messages to the threads), so the second finds it under way.
  node.child.kill('SIGTERM');
  node.child.kill('SIGINT');
  t.deepEqual(await node.ended, { code: 1, signal: null });
  t.truthy(node.lines.find((l) => l.msg === 'second signal: stopping at once'));
  t.notRegex(node.stderr(), /Assertion failed|open handles/);
});

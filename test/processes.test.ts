// --processes N > 1: one writer process and N serving processes on one port. Connections are put on
// a chosen process by asking the kernel which process holds them (helpers/processes.ts).
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, startTestNode, type TestNode } from './helpers/node.js';
import { connectWs, httpPost, type WsClient } from './helpers/clients.js';
import { captureLogs } from './helpers/logs.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';
import { generateBlocks } from './helpers/devnet.js';
import { broadcastsReadAcross, callIn as call, keepCalling, noticesOnEach } from './helpers/front-ends.js';
import { alive, processOf } from './helpers/processes.js';
import { until } from './helpers/until.js';
import { parsePromText, valueOf } from '../bench/prom-text.js';
import { serveChild } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';
import { readerSlots } from '../src/startup/writable-store.js';

const TWO = { processes: '2', 'api-access': fixture('api-access.json') };

const pidsOf = (node: TestNode): (number | undefined)[] => node.node.servingProcesses!.ids();

/**
 * WebSocket connections until at least `each` sit on every serving process (the kernel spreads them
 * by a hash of their addresses, so a few tries do), grouped by pid; the others are closed.
 */
async function connectionsOnEach(t: ExecutionContext, node: TestNode, each = 1): Promise<Map<number, WsClient[]>> {
  const pids = pidsOf(node);
  const by = new Map<number, WsClient[]>(pids.map((p) => [p!, []]));
  for (let tries = 0; [...by.values()].some((l) => l.length < each); tries++) {
    if (tries > 200) throw new Error(`after 200 connections, not ${each} on every serving process`);
    const ws = await connectWs(t, node.wsUrl);
    const pid = processOf(ws, node.port, pids);
    if (pid === undefined) throw new Error('no serving process holds the connection');
    const list = by.get(pid)!;
    if (list.length < each) list.push(ws);
    else await ws.close();
  }
  return by;
}


/** Every call the node has counted (graphene_rpc_calls_total over all its series). */
async function callsCounted(node: TestNode): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text();
  return parsePromText(text).get('graphene_rpc_calls_total')!.samples.reduce((n, s) => n + s.value, 0);
}

async function metric(node: TestNode, name: string): Promise<number | undefined> {
  const text = (await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text());
  return valueOf(parsePromText(text), name);
}

test('the LMDB reader table is sized for every process: workers, front end and a spare each, twice over, never below 512', (t) => {
  t.is(readerSlots({ processes: 1, workers: 4 }), 512);
  t.is(readerSlots({ processes: 32, workers: 8 }), 2 * (32 * 10 + 2));
});

test('serving processes share the port: connections land on each, and each answers from the same chain', async (t) => {
  const node = await startTestNode(t, TWO);
  t.is(pidsOf(node).length, 2);
  const by = await connectionsOnEach(t, node);
  const ids = new Set<string>();
  for (const [pid, [ws]] of by) {
    const r = await call(ws!, pid, 'database', 'get_chain_id', []);
    ids.add(r.result);
  }
  t.deepEqual([...ids], [node.node.chainId]);
  t.is(await metric(node, 'graphene_rpc_serving_processes'), 2);
});

test('a transaction broadcast through one serving process is read at once through the other, both ways, and so is a block made through one', async (t) => {
  const node = await startTestNode(t, TWO);
  await generateBlocks(node.httpUrl, 1);
  const [a, b] = [...(await connectionsOnEach(t, node)).values()].map((l) => l[0]!);
  await broadcastsReadAcross(t, node, a!, b!, 'PROC', 'process');
});

test('notices come from every serving process: block-applied and pending-transaction callbacks on each', async (t) => {
  const node = await startTestNode(t, TWO);
  const clients = [...(await connectionsOnEach(t, node)).values()].map((l) => l[0]!);
  await noticesOnEach(t, node, clients, 'NOTICE');
});

test('kill -9 of one serving process under load: the other answers every call throughout, the killed one is restarted and counted, and serves again', async (t) => {
  const logs = captureLogs('info');
  const node = await startTestNode(t, { ...TWO, 'max-calls-per-second': '0' }, logs.log);
  const by = await connectionsOnEach(t, node, 3);
  const [victim, survivor] = [...by.keys()];
  const { stats, okOf, stop } = keepCalling([...by.values()].flat());
  const survivors = by.get(survivor!)!;
  const victims = by.get(victim!)!;
  await until(() => okOf([...survivors, ...victims]).every((n) => n >= 20), 'every client answered 20 times before the kill');
  const before = okOf(survivors);
  // What the node has counted so far, the victim's calls included: its total must not fall back.
  const countedBefore = await callsCounted(node);
  const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
  const survivorsAtScrape = sum(okOf(survivors));
  process.kill(victim!, 'SIGKILL');
  // The killed process' connections end; the others go on being answered meanwhile and after.
  await Promise.all(victims.map((ws) => ws.whenClosed(30_000)));
  await until(() => pidsOf(node)[0] !== victim && pidsOf(node)[1] !== victim && node.node.servingProcesses!.listening === 2, 'the killed process restarted and listening');
  await until(() => okOf(survivors).every((n, i) => n >= before[i]! + 50), 'the survivors answered 50 more calls each');
  await stop();
  for (const ws of survivors) t.deepEqual(stats.get(ws)!.failed, [], 'no call failed on the process that was not killed');
  for (const ws of victims) t.is(stats.get(ws)!.failed.length, 1, 'a killed connection ends its loop');
  const ended = await logs.once('serving process ended; restarting it');
  t.is(ended.signal, 'SIGKILL');
  t.is(ended.pid, victim);
  t.is(node.node.servingProcesses!.restarts, 1);
  t.is(await metric(node, 'graphene_rpc_serving_process_restarts_total'), 1);
  // The survivors' calls since that scrape add to it (less the one each may have had in flight,
  // counted by the node before the scrape and by the client after it); the victim's, as scraped, stay.
  const since = sum(okOf(survivors)) - survivorsAtScrape;
  const countedAfter = await callsCounted(node);
  t.true(countedAfter >= countedBefore + since - survivors.length, `the killed process' calls stay counted: ${countedAfter} after, ${countedBefore} before, ${since} since`);
  // The new process serves: connections reach it and are answered.
  const again = await connectionsOnEach(t, node);
  for (const [pid, [ws]] of again) t.is((await call(ws!, pid, 'database', 'get_chain_id', [])).result, node.node.chainId);
  t.false(alive(victim!));
});

test('a serving process that hangs does not hold broadcasts: past the acknowledgement bound it is killed and restarted', async (t) => {
  const logs = captureLogs('info');
  const node = await startTestNode(t, TWO, logs.log);
  const by = await connectionsOnEach(t, node);
  const [stuck, running] = [...by.keys()];
  // Signed first: signedTx reads over HTTP, which may reach either process.
  const signed = await signedTx(node.httpUrl, [op.assetCreate('HANG')], [DEV_WIF]);
  process.kill(stuck!, 'SIGSTOP');
  t.teardown(() => void (alive(stuck!) && process.kill(stuck!, 'SIGCONT')));
  const ws = by.get(running!)![0]!;
  // Answered once the stopped process is out of the way (ACK_WAIT_MS), not never.
  ws.send(JSON.stringify({ id: 'hang', method: 'call', params: ['network_broadcast', 'broadcast_transaction', [signed]] }));
  const sent = JSON.parse(await ws.next(60_000));
  t.is(sent.error, undefined, JSON.stringify(sent.error));
  const killed = await logs.once('serving process did not acknowledge a change of the store in time; killing it', 30_000);
  t.is(killed.pid, stuck);
  await until(() => node.node.servingProcesses!.listening === 2 && !pidsOf(node).includes(stuck), 'the hung process replaced');
  t.is(node.node.servingProcesses!.restarts, 1);
});

test('graceful shutdown reaches every serving process: each closes its WebSockets with 1001 and ends', async (t) => {
  const node = await startTestNode(t, TWO);
  const clients = [...(await connectionsOnEach(t, node)).values()].map((l) => l[0]!);
  const pids = pidsOf(node) as number[];
  const closed = clients.map((ws) => ws.whenClosed(30_000));
  await node.node.close();
  t.deepEqual(await Promise.all(closed), [1001, 1001]);
  for (const pid of pids) t.false(alive(pid), `serving process ${pid} ended`);
});

test('CLI: SIGTERM stops every serving process gracefully; SIGHUP reloads options in each', async (t) => {
  const dir = tempDir(t);
  const ini = path.join(dir, 'node.ini');
  writeFileSync(ini, 'max-calls-per-second = 100\n');
  const node = await serveChild(['--processes', '2', '--workers', '1', '--data-dir', path.join(dir, 'data'), '--config', ini]);
  t.teardown(() => void node.child.kill('SIGKILL'));
  const listening = await Promise.all([0, 1].map((i) => node.line((l) => l.msg === 'serving process listening' && l.process === i, `process ${i} listening`)));
  const pids = listening.map((l) => l.pid as number);
  writeFileSync(ini, 'max-calls-per-second = 200\n');
  node.child.kill('SIGHUP');
  for (const i of [0, 1]) await node.line((l) => l.msg === 'options reloaded' && l.process === i, `options reloaded in process ${i}`);
  node.child.kill('SIGTERM');
  t.deepEqual(await node.ended, { code: 0, signal: null });
  // What the node said of its serving processes, should one not say it stopped.
  const said = JSON.stringify(node.lines.filter((l) => /serving process|stopp/.test(String(l.msg))).map((l) => [l.process, l.msg]));
  for (const i of [0, 1]) t.truthy(node.lines.find((l) => l.msg === 'serving process stopped' && l.process === i), said);
  for (const pid of pids) await until(() => !alive(pid), `serving process ${pid} gone`);
  t.pass();
});

test('CLI: serving processes stop when the writer process is killed: a store nobody writes is not served', async (t) => {
  const dir = tempDir(t);
  const node = await serveChild(['--processes', '2', '--workers', '1', '--data-dir', path.join(dir, 'data')]);
  t.teardown(() => void node.child.kill('SIGKILL'));
  const listening = await Promise.all([0, 1].map((i) => node.line((l) => l.msg === 'serving process listening' && l.process === i, `process ${i} listening`)));
  const pids = listening.map((l) => l.pid as number);
  node.child.kill('SIGKILL');
  for (const pid of pids) await until(() => !alive(pid), `serving process ${pid} gone after the writer`);
  t.pass();
});

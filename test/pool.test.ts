// The worker pool's own rule: shutdown does not hang on a stuck worker. (Calls through real workers
// are tested everywhere else; how calls are grouped into tasks, in scheduler.test.ts.)
import test, { type ExecutionContext } from 'ava';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { buildConfig } from '../src/config.js';
import { openPool } from '../src/pool/pool.js';
import { fairScheduler } from '../src/pool/scheduler.js';
import { captureLogs } from './helpers/logs.js';
import { tempDir } from './helpers/temp.js';
import { makeChain } from './helpers/chain.js';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WORKER_CLOSE_TIMEOUT_MS, HARD_BOUND_GRACE_MS } from '../src/tuning.js';

test('close() terminates a worker stuck in a call after the close timeout, and the stuck call gets -32603, logged', async (t) => {
  t.is(WORKER_CLOSE_TIMEOUT_MS, 5000, 'the default the README documents');
  const { log, lines } = captureLogs('error');
  const config = buildConfig({ workers: '1', 'log-level': 'silent' });
  const pool = openPool(config, log, { workerFile: new URL('./fixtures/stuck-worker.js', import.meta.url).href, closeTimeoutMs: 200 });
  await pool.ready();
  const answer = pool.runTask([{ set: 'database', method: 'hang', params: [], head: '{"id":1,"result":' }]);
  await new Promise((r) => setImmediate(r));
  const started = Date.now();
  await pool.close();
  t.true(Date.now() - started < 4000, `close took ${Date.now() - started} ms`);
  t.deepEqual(await answer, [{ error: { code: -32603, message: 'Internal error' } }]);
  t.true(lines.some((l) => l.msg === 'worker task failed; its calls get -32603'), 'the failure is logged with its calls');
});

test('a task past its hard time bound is aborted: its worker is replaced, its calls get -32012, and the pool keeps its capacity', async (t) => {
  const { log } = captureLogs('warn');
  const config = buildConfig({ workers: '1', 'log-level': 'silent' });
  const pool = openPool(config, log, { workerFile: new URL('./fixtures/stuck-worker.js', import.meta.url).href, closeTimeoutMs: 200 });
  t.teardown(() => pool.close());
  await pool.ready();
  const scheduler = fairScheduler(pool, { maxQueued: 100 });
  // Its deadline is already past: the hard bound falls HARD_BOUND_GRACE_MS later.
  const started = Date.now();
  const stuck = await scheduler.submit({ isClosed: false, isPaused: false }, 'heavy', { set: 'database', method: 'hang', params: [], deadline: Date.now(), budgetMs: 7 });
  t.deepEqual(stuck, { error: { code: -32012, message: 'Call exceeded its time budget (7 ms: --call-budget-ms)' } });
  t.true(Date.now() - started >= HARD_BOUND_GRACE_MS, 'not before the grace');
  // The one worker was replaced: the next call is served.
  const next = await scheduler.submit({ isClosed: false, isPaused: false }, 'light', { set: 'database', method: 'get_chain_id', params: [] });
  t.is(new TextDecoder().decode(next as Uint8Array), 'get_chain_id');
});

test('workersUp counts the threads that are up: a worker being replaced is not one until its replacement has started', async (t) => {
  const dataDir = tempDir(t);
  const config = buildConfig({ workers: '2', 'log-level': 'silent', 'data-dir': dataDir });
  const pool = openPool(config, captureLogs('warn').log, { workerFile: new URL('./fixtures/stuck-worker.js', import.meta.url).href, closeTimeoutMs: 200 });
  t.teardown(() => pool.close());
  await pool.ready();
  const upBy = async (n: number) => {
    const deadline = Date.now() + 60_000;
    while (pool.workersUp !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return pool.workersUp;
  };
  // The 'up' messages come on the event loop, after the counter ready() waits for.
  t.is(await upBy(2), 2);
  // Threads started from now on wait before they come up (the fixture looks for this file).
  const hold = path.join(dataDir, 'hold-worker-start');
  writeFileSync(hold, '');
  const scheduler = fairScheduler(pool, { maxQueued: 100 });
  const stuck = await scheduler.submit({ isClosed: false, isPaused: false }, 'heavy', { set: 'database', method: 'hang', params: [], deadline: Date.now(), budgetMs: 7 });
  t.is((stuck as { error: { code: number } }).error.code, -32012);
  // The stuck thread is gone and its replacement has not come up.
  t.is(pool.workersUp, 1);
  rmSync(hold);
  t.is(await upBy(2), 2, 'the replacement counts once it is up');
});

test('a worker entry that fails to load fails its thread with the cause, not with "no handler"', async (t) => {
  // The loader alone, in a plain thread (piscina would replace the failed thread, over and over).
  const worker = new Worker(new URL('../workers/load.cjs', import.meta.url), {
    workerData: { entry: new URL('./fixtures/broken-worker.js', import.meta.url).href },
  });
  const err = await new Promise<Error>((resolve) => worker.once('error', resolve));
  t.is(err.message, 'this worker cannot open its store');
});

test("the worker loader hands piscina the entry's default export", async (t) => {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const loaded = require(process.argv[2]);
     loaded.default.then((f) => parentPort.postMessage(typeof f + ' ' + f.name));`,
    { eval: true, argv: [fileURLToPath(new URL('../workers/load.cjs', import.meta.url))], workerData: { entry: new URL('./fixtures/echo-worker.js', import.meta.url).href } },
  );
  t.is(await new Promise((resolve) => worker.once('message', resolve)), 'function echo');
  await worker.terminate();
});

test("a worker's first call reads the store as it is then, not as it was when the worker opened it", async (t) => {
  // A follower applies blocks while the pool starts, before anything listens for them to call
  // storeChanged(); the workers' snapshot from opening the store must not outlive their first call.
  const chain = makeChain(t);
  chain.block();
  const config = buildConfig({ workers: '2', 'log-level': 'silent', 'data-dir': chain.dataDir });
  const pool = openPool(config, captureLogs('warn').log);
  t.teardown(() => pool.close());
  await pool.ready();
  const head = async () => {
    const [answer] = await pool.runTask([{ set: 'database', method: 'get_dynamic_global_properties', params: [] }]);
    return (JSON.parse(new TextDecoder().decode(answer as Uint8Array)) as { head_block_number: number }).head_block_number;
  };
  chain.block();
  chain.block();
  // Both workers, each at its first call.
  t.deepEqual(await Promise.all([head(), head()]), [3, 3]);
  // After that, a block is seen once the pool is told of it.
  chain.block();
  pool.storeChanged();
  t.deepEqual(await Promise.all([head(), head()]), [4, 4]);
});

/** A pool of two gated workers (fixtures/gated-worker.ts) and a way to open a gate. */
async function gatedPool(t: ExecutionContext) {
  const dataDir = tempDir(t);
  const config = buildConfig({ workers: '2', 'log-level': 'silent', 'data-dir': dataDir });
  const pool = openPool(config, captureLogs('warn').log, { workerFile: new URL('./fixtures/gated-worker.js', import.meta.url).href });
  t.teardown(() => pool.close());
  await pool.ready();
  const order: string[] = [];
  // With an abort signal, as every task of the node has (its hard time bound).
  const run = (name: string, method: string) =>
    pool.runTask([{ set: 'database', method, params: [name] }], new AbortController().signal).then(([a]) => {
      order.push(name);
      return new TextDecoder().decode(a as Uint8Array).split(' on ')[1]!;
    });
  const open = (name: string) => writeFileSync(path.join(dataDir, `open-${name}`), '');
  return { run, open, order };
}

test('a task for busy workers waits outside them and goes to the first worker free, not behind a running task', async (t) => {
  // A task placed in a busy worker's port would be lost with that worker if the task ahead of it
  // ran past its hard bound, and would wait behind a heavy task; so tasks wait in the pool's queue.
  const { run, open, order } = await gatedPool(t);
  const a = run('a', 'gate');
  const h = run('h', 'gate');
  const c = run('c', 'get_chain_id');
  open('h');
  const threadOfH = await h;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<string>((r) => (timer = setTimeout(() => r('c still waiting'), 5000)));
  t.is(await Promise.race([c, waited]), threadOfH, 'c ran on the worker that came free');
  clearTimeout(timer);
  t.deepEqual(order, ['h', 'c'], 'while a still holds its worker');
  open('a');
  await a;
});

// Faults in the worker pool (issue 14): a worker that throws, exits, crashes or hangs. The failing
// call gets an error within its budget, the failure is logged with its calls, the pool replaces the
// worker (its capacity comes back), and calls of other connections are answered as before. The pool
// and the scheduler are the node's own (src/pool/); the misbehaving worker is a fixture
// (test/fixtures/faulty-worker.ts). A handler that throws inside the real worker code is tested
// against a real store.
import test from 'ava';
import { buildConfig } from '../src/config.js';
import { openPool } from '../src/pool/pool.js';
import { fairScheduler, type Owner } from '../src/pool/scheduler.js';
import type { PoolAnswer, PoolTask } from '../src/protocol/thread-messages.js';
import { runCall } from '../workers/run-call.js';
import type { WorkerContext } from '../workers/context.js';
import { makeChain } from './helpers/chain.js';
import { captureLogs } from './helpers/logs.js';
import { HARD_BOUND_GRACE_MS } from '../src/tuning.js';

const FAULTY = new URL('./fixtures/faulty-worker.js', import.meta.url).href;
const text = (a: PoolAnswer): string => (a instanceof Uint8Array ? new TextDecoder().decode(a) : JSON.stringify(a));
const call = (method: string, extra: Partial<PoolTask> = {}): PoolTask => ({ set: 'database', method, params: [], ...extra });

function faultyNode(t: import('ava').ExecutionContext, workers: number) {
  const logs = captureLogs('warn');
  const config = buildConfig({ workers: String(workers), 'log-level': 'silent' });
  // What the node's graphene_rpc_workers_replaced_total counts (src/main.ts passes the same hook).
  const replaced = { n: 0 };
  const pool = openPool(config, logs.log, { workerFile: FAULTY, closeTimeoutMs: 200, onWorkerReplaced: () => void replaced.n++ });
  t.teardown(() => pool.close());
  const scheduler = fairScheduler(pool, { maxQueued: 1000 });
  return { pool, scheduler, logs, replaced };
}

/** Every worker of a pool of `workers` serves: as many concurrent calls as workers, each answered. */
async function capacityIsBack(scheduler: ReturnType<typeof fairScheduler>, workers: number): Promise<string[]> {
  const owners: Owner[] = Array.from({ length: workers * 3 }, () => ({ isClosed: false, isPaused: false }));
  return (await Promise.all(owners.map((o, i) => scheduler.submit(o, 'light', call(`ok${i}`))))).map(text);
}

for (const fault of ['throw', 'exit', 'crash'] as const) {
  const lost = fault !== 'throw';
  test(`a worker that fails (${fault}): its call gets -32603 at once, logged with its calls; ${lost ? 'the worker is replaced and counted' : 'the worker lives on, no replacement counted'}; other connections' calls are answered`, async (t) => {
    const { pool, scheduler, logs, replaced } = faultyNode(t, 2);
    await pool.ready();
    const a: Owner = { isClosed: false, isPaused: false };
    const b: Owner = { isClosed: false, isPaused: false };
    // Another connection's calls, before, with and after the failing one.
    const before = scheduler.submit(b, 'light', call('before'));
    await before;
    const failing = scheduler.submit(a, 'heavy', call(fault, { deadline: Date.now() + 60_000, budgetMs: 60_000 }));
    const others = Array.from({ length: 5 }, (_, i) => scheduler.submit(b, 'light', call(`other${i}`)));
    t.deepEqual(await failing, { error: { code: -32603, message: 'Internal error' } });
    t.deepEqual((await Promise.all(others)).map(text), ['other0', 'other1', 'other2', 'other3', 'other4']);
    const line = await logs.once('worker task failed; its calls get -32603');
    t.deepEqual(line.calls, [`database.${fault}`]);
    // The counter moves before the failing call is answered (piscina removes the thread first).
    // A task that throws leaves its thread serving: no replacement.
    t.is(replaced.n, lost ? 1 : 0, 'graphene_rpc_workers_replaced_total');
    if (lost) t.truthy(await logs.once('a worker thread ended; piscina starts another'));
    // Every worker is back (a failed one replaced): repeated rounds of as many calls as workers are all served.
    for (let round = 0; round < 3; round++) t.deepEqual(await capacityIsBack(scheduler, 2), ['ok0', 'ok1', 'ok2', 'ok3', 'ok4', 'ok5']);
    t.is(replaced.n, lost ? 1 : 0, 'no other thread was lost');
  });
}

test('a worker that hangs: its call gets -32012 after its budget, the worker is replaced, and the other worker serves other connections meanwhile', async (t) => {
  const { pool, scheduler, logs, replaced } = faultyNode(t, 2);
  await pool.ready();
  const a: Owner = { isClosed: false, isPaused: false };
  const b: Owner = { isClosed: false, isPaused: false };
  const budgetMs = 300;
  const started = Date.now();
  const hung = scheduler.submit(a, 'heavy', call('hang', { deadline: started + budgetMs, budgetMs }));
  // While it hangs, light calls of another connection are served by the other worker, many times over.
  for (let i = 0; i < 20; i++) t.is(text(await scheduler.submit(b, 'light', call(`meanwhile${i}`))), `meanwhile${i}`);
  t.deepEqual(await hung, { error: { code: -32012, message: `Call exceeded its time budget (${budgetMs} ms: --call-budget-ms)` } });
  t.true(Date.now() - started >= budgetMs, 'not before its budget');
  t.truthy(await logs.once('a task ran past its hard time bound; its worker thread was replaced'));
  t.is(replaced.n, 1, 'graphene_rpc_workers_replaced_total');
  t.true(HARD_BOUND_GRACE_MS > 0);
  for (let round = 0; round < 3; round++) t.deepEqual(await capacityIsBack(scheduler, 2), ['ok0', 'ok1', 'ok2', 'ok3', 'ok4', 'ok5']);
  t.is(replaced.n, 1);
});

test('faults one after another: each failing call gets its error and the pool keeps serving', async (t) => {
  const { pool, scheduler, replaced } = faultyNode(t, 1);
  await pool.ready();
  const o: Owner = { isClosed: false, isPaused: false };
  let injected = 0;
  let lost = 0;
  for (const fault of ['exit', 'throw', 'crash', 'exit', 'hang', 'crash', 'throw', 'exit']) {
    const deadline = Date.now() + (fault === 'hang' ? 100 : 60_000);
    const answer = await scheduler.submit(o, 'heavy', call(fault, { deadline, budgetMs: fault === 'hang' ? 100 : 60_000 }));
    t.true('error' in answer && [-32603, -32012].includes(answer.error.code), `${fault}: ${text(answer)}`);
    injected++;
    if (fault !== 'throw') lost++;
    t.is(replaced.n, lost, `replacements counted after ${fault}`);
    t.is(text(await scheduler.submit(o, 'light', call('after'))), 'after', `served after ${fault}`);
  }
  t.log(`${injected} faults injected in a row on a one-worker pool`);
});

test('a handler that throws inside the real worker code: that call gets -32603 and a log line with the cause; the next call is answered', async (t) => {
  const chain = makeChain(t);
  const { log, lines } = captureLogs('error');
  const config = buildConfig({ 'data-dir': chain.dataDir, 'log-level': 'silent' });
  // A store whose object table fails as a broken disk or a bug in the store would: get() throws.
  const objects = new Proxy(chain.store.objects, {
    get(target, prop, receiver) {
      if (prop === 'get' || prop === 'getBinaryFast') return () => { throw new Error('EIO: the store failed'); };
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const broken: WorkerContext = { store: { ...chain.store, objects } as WorkerContext['store'], config };
  const task: PoolTask = { set: 'database', method: 'get_objects', params: [['2.1.0']], head: '{"id":1,"result":' };
  t.deepEqual(await runCall(broken, log, task), { error: { code: -32603, message: 'Internal error' } });
  const line = lines.find((l) => l.msg === 'call failed');
  t.truthy(line, 'logged');
  t.is(line?.method, 'get_objects');
  t.regex(String((line?.err as { message?: string })?.message), /EIO: the store failed/);
  // The same worker code on a healthy store answers.
  const ok = await runCall({ store: chain.store, config }, log, task);
  t.regex(text(ok), /^\{"id":1,"result":\[\{"id":"2\.1\.0"/);
});

test('a light call that fails takes nothing with it: the other calls of its task are answered', async (t) => {
  const { pool, scheduler, replaced } = faultyNode(t, 1);
  await pool.ready();
  for (const fault of ['throw', 'exit', 'crash'] as const) {
    const before = replaced.n;
    const owners: Owner[] = Array.from({ length: 6 }, () => ({ isClosed: false, isPaused: false }));
    // Submitted in one turn, light: they travel in one task.
    const answers = await Promise.all(owners.map((o, i) => scheduler.submit(o, 'light', call(i === 2 ? fault : `mate${i}`))));
    t.deepEqual(answers.map(text), ['mate0', 'mate1', JSON.stringify({ error: { code: -32603, message: 'Internal error' } }), 'mate3', 'mate4', 'mate5'], fault);
    // A failing call costs its thread twice: in the task it travelled in, and when it runs alone.
    t.is(replaced.n - before, fault === 'throw' ? 0 : 2, `${fault}: replacements counted`);
  }
});

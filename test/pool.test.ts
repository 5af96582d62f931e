// The worker pool's own rule: shutdown does not hang on a stuck worker. (Calls through real workers
// are tested everywhere else; how calls are grouped into tasks, in scheduler.test.ts.)
import test from 'ava';
import { buildConfig } from '../src/config.js';
import { WORKER_CLOSE_TIMEOUT_MS, openPool } from '../src/pool/pool.js';
import { HARD_BOUND_GRACE_MS, fairScheduler } from '../src/pool/scheduler.js';
import { captureLogs } from './helpers/logs.js';

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

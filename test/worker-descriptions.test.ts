// piscina's worker descriptions, kept one per worker (src/pool/worker-descriptions.ts): piscina
// builds one afresh for every worker each time it places a task, and each such object literal of
// getters costs the front end's collector far more than its size.
import test from 'ava';
import { Piscina } from 'piscina';
import { describedWorker, keepWorkerDescriptions } from '../src/pool/worker-descriptions.js';
import { buildConfig } from '../src/config.js';
import { openPool } from '../src/pool/pool.js';
import { captureLogs } from './helpers/logs.js';
import { makeChain } from './helpers/chain.js';

type Described = { readonly currentUsage: number; readonly id: number };

/** The WorkerInfo a description names, whose `interface` getter piscina calls per task. */
function workerInfoOf(description: object): { readonly interface: Described } {
  const info = describedWorker(description);
  if (info === undefined) throw new Error('piscina changed: its worker description names no WorkerInfo');
  return info as { readonly interface: Described };
}

test.serial('each worker keeps one description, which still reads the worker live; piscina built one per look before', async (t) => {
  const piscina = new Piscina({ filename: new URL('./fixtures/sleep-worker.js', import.meta.url).href, minThreads: 1, maxThreads: 1 });
  t.teardown(() => piscina.close({ force: true }));
  const description = await new Promise<object>((resolve) => piscina.once('workerCreate', resolve));
  const info = workerInfoOf(description);
  t.not(info.interface, info.interface, 'piscina as shipped: a new description at every look');
  t.true(keepWorkerDescriptions(description));
  const kept = info.interface;
  t.is(info.interface, kept, 'one description per worker');
  t.true(keepWorkerDescriptions(description), 'a second pool in the process finds it done');
  t.is(info.interface, kept, 'and does not wrap the getter again');
  // What the balancer reads is the worker's state now, not when the description was made.
  t.is(kept.currentUsage, 0);
  const running = piscina.run(200);
  await new Promise((r) => setTimeout(r, 50));
  t.is(kept.currentUsage, 1, 'a task running on it');
  t.is(await running, 200);
  t.is(kept.currentUsage, 0);
  t.is(kept.id, piscina.threads[0]!.threadId);
});

test.serial('a description of another shape is left alone: the pool works as before, without the saving', (t) => {
  t.false(keepWorkerDescriptions({}));
  t.false(keepWorkerDescriptions({ [Symbol('Piscina.kWorkerData')]: 42 }));
});

test.serial('the node\'s pool keeps its workers\' descriptions: it warns of none it could not keep', async (t) => {
  const chain = makeChain(t);
  const logs = captureLogs('warn');
  const pool = openPool(buildConfig({ workers: '2', 'log-level': 'silent', 'data-dir': chain.dataDir }), logs.log);
  t.teardown(() => pool.close());
  await pool.ready();
  t.false(logs.lines.some((l) => /worker descriptions/.test(String(l.msg))), 'piscina is the version the pool was written for');
});

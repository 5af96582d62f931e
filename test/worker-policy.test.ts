// Worker threads under SCHED_BATCH (--batch-worker-threads, src/thread-priority.ts runAsBatch): each
// worker thread puts itself under the policy before its first task, and only when asked to; a
// machine without chrt (or not Linux) leaves the default policy and says why.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { runAsBatch } from '../src/thread-priority.js';
import { startTestNode } from './helpers/node.js';
import { WsClient } from './helpers/clients.js';

/** Linux's number for SCHED_BATCH (sched.h). */
const SCHED_BATCH = 3;

/** The scheduling policy of each of this process's threads (field 41 of /proc/…/stat). */
const threadPolicies = (): number[] =>
  readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38])];
    } catch {
      return []; // a thread that ended while listed
    }
  });
const batchThreads = () => threadPolicies().filter((p) => p === SCHED_BATCH).length;

const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
})();

test('runAsBatch asks chrt for the batch policy of the thread, and says why when it cannot', (t) => {
  const ran: string[][] = [];
  t.is(runAsBatch(4242, (file, args) => void ran.push([file, ...args])), process.platform === 'linux' ? undefined : 'not Linux');
  if (process.platform === 'linux') t.deepEqual(ran, [['chrt', '--batch', '--pid', '0', '4242']]);
  const failing = runAsBatch(4242, () => {
    throw new Error('spawnSync chrt ENOENT');
  });
  t.is(failing, process.platform === 'linux' ? 'spawnSync chrt ENOENT' : 'not Linux');
  t.truthy(runAsBatch(undefined, () => {}), 'no thread id: nothing to set');
});

test.serial('a node puts each of its worker threads under SCHED_BATCH before they take calls, and none with --batch-worker-threads false', async (t) => {
  if (!hasChrt) return t.pass('no chrt here (util-linux): worker threads keep the default policy, as the node logs');
  const before = batchThreads();
  // One process: the test reads the policies of its own threads.
  const on = await startTestNode(t, { workers: '3', processes: '1', 'serving-threads': '1' });
  t.is(batchThreads() - before, 3, 'one per worker thread');
  // They answer as before.
  const ws = await WsClient.connect(on.wsUrl);
  t.teardown(() => ws.close());
  const reply = await ws.call({ id: 1, method: 'get_objects', params: [['1.2.0']] });
  t.is(reply.result[0].id, '1.2.0');
  await on.node.close();
  const after = batchThreads();
  t.is(after, before, 'the threads ended with the node');
  await startTestNode(t, { workers: '2', processes: '1', 'serving-threads': '1', 'batch-worker-threads': 'false' });
  t.is(batchThreads(), before, 'no worker thread under the batch policy');
});

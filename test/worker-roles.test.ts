// Heavy calls behind the rest (src/pool/worker-roles.ts, src/thread-priority.ts): the first worker
// thread up takes light calls first, the others heavy calls first; a task goes to an idle thread of
// its kind, else to any idle one; heavy tasks run at --heavy-worker-nice and light ones at the front
// end's priority, where a thread may raise its priority again.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { HEAVY_TASK, WorkerRoles } from '../src/pool/worker-roles.js';
import { ThreadPriority, canRaisePriority } from '../src/thread-priority.js';
import { startTestNode } from './helpers/node.js';
import { WsClient } from './helpers/clients.js';

const idle = (id: number) => ({ id, currentUsage: 0 });
const busy = (id: number) => ({ id, currentUsage: 1 });

test('the first worker up takes light calls first, the others heavy calls; when it ends, the next one up takes its place', (t) => {
  const roles = new WorkerRoles();
  roles.up(1);
  roles.up(2);
  roles.up(3);
  t.false(roles.isHeavy(1));
  t.true(roles.isHeavy(2) && roles.isHeavy(3));
  roles.gone(1);
  roles.up(4);
  t.false(roles.isHeavy(4));
});

test('a task goes to an idle thread of its kind, else to any idle thread, else waits; a heavy one never takes the light thread while light calls are about', (t) => {
  let now = 0;
  const roles = new WorkerRoles(() => now);
  roles.up(1);
  roles.up(2);
  roles.up(3);
  const light = { name: 'default' };
  const heavy = { name: HEAVY_TASK };
  t.is(roles.balance(heavy, [busy(2), busy(3), idle(1)])?.id, 1, 'no light call yet: heavy calls use the light thread when it alone is idle');
  t.is(roles.balance(light, [idle(2), idle(1), idle(3)])?.id, 1, 'light calls go to the light thread first');
  t.is(roles.balance(heavy, [idle(1), idle(2), idle(3)])?.id, 2, 'heavy calls to a heavy thread first');
  t.is(roles.balance(light, [busy(1), idle(3)])?.id, 3, 'light calls spill over to an idle heavy thread');
  t.is(roles.balance(heavy, [busy(2), { id: 3, currentUsage: 2 }, idle(1)])?.id, 2, 'light calls about: a heavy task waits behind the least busy heavy thread, not on the light one');
  now += 2500;
  t.is(roles.balance(heavy, [busy(2), busy(3), idle(1)])?.id, 1, 'no light call for a while: heavy calls use the light thread when it alone is idle');
  t.is(roles.balance(heavy, [busy(1), busy(2), busy(3)]), null);
});

test('a worker thread runs heavy tasks at the heavy nice value and light ones at 0, set only when the kind changes; a refusal turns it off', (t) => {
  const set: number[] = [];
  const p = new ThreadPriority(10, (n) => set.push(n));
  p.enter(false);
  p.enter(true);
  p.enter(true);
  p.enter(false);
  p.enter(false);
  t.deepEqual(set, [10, 0]);
  // The system refuses to raise the priority again: back to 0 if it can be, then no more changes.
  const tried: number[] = [];
  const refusing = new ThreadPriority(10, (n) => {
    tried.push(n);
    if (n === 0) throw new Error('EACCES');
  });
  t.true(refusing.enter(true));
  t.false(refusing.enter(false));
  t.false(refusing.enter(true));
  t.deepEqual(tried, [10, 0, 0]);
});

/** Nice values of this process's threads (Linux). */
const threadNices = (): number[] =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

test('on a node of two workers, the thread that ran a heavy call is at --heavy-worker-nice until its next light call', async (t) => {
  if (!canRaisePriority()) return t.pass('threads may not raise their priority again here: every call runs at the front end\'s');
  const before = threadNices().filter((n) => n === 7).length;
  // One process: the test reads the priorities of its own threads.
  const { wsUrl } = await startTestNode(t, { workers: '2', 'heavy-worker-nice': '7', processes: '1', 'serving-threads': '1' });
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  t.is(threadNices().filter((n) => n === 7).length - before, 0, 'no thread is reniced before a heavy call');
  // 500 ids: heavy (src/pipeline/cost.ts).
  const heavy = await ws.call({ id: 1, method: 'get_objects', params: [Array.from({ length: 500 }, (_, i) => `1.2.${i % 6}`)] });
  t.is(heavy.result.length, 500);
  t.is(threadNices().filter((n) => n === 7).length - before, 1, 'the thread that ran it');
  const light = await ws.call({ id: 2, method: 'get_objects', params: [['1.2.0']] });
  t.is(light.result[0].id, '1.2.0');
});

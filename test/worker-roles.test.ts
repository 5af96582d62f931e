// Heavy calls' worker threads at a lower CPU priority (src/pool/worker-roles.ts): the first thread
// up takes light calls first, the others heavy calls first and are reniced; a task goes to an idle
// thread of its kind, else to any idle one; a light thread that ends is replaced by the next one up.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { HEAVY_TASK, WorkerRoles } from '../src/pool/worker-roles.js';
import { createLogger } from '../src/log.js';
import { startTestNode } from './helpers/node.js';
import { WsClient } from './helpers/clients.js';

const silent = createLogger('silent');
const idle = (id: number) => ({ id, currentUsage: 0 });
const busy = (id: number) => ({ id, currentUsage: 1 });

test('the first worker up is the light calls\' thread; the others are reniced to --heavy-worker-nice', (t) => {
  const reniced: [number, number][] = [];
  const roles = new WorkerRoles(10, silent, (tid, nice) => reniced.push([tid, nice]));
  roles.up(1, 101);
  roles.up(2, 102);
  roles.up(3, 103);
  t.deepEqual(reniced, [[102, 10], [103, 10]]);
  t.false(roles.isHeavy(1));
  t.true(roles.isHeavy(2) && roles.isHeavy(3));
  // The light thread ends: its replacement, the next one up, takes its place at full priority.
  roles.gone(1);
  roles.up(4, 104);
  t.false(roles.isHeavy(4));
  t.deepEqual(reniced, [[102, 10], [103, 10]]);
  // --heavy-worker-nice 0: roles without renicing.
  const none: number[] = [];
  const plain = new WorkerRoles(0, silent, (tid) => none.push(tid));
  plain.up(1, 1);
  plain.up(2, 2);
  t.deepEqual(none, []);
  t.true(plain.isHeavy(2));
});

test('a task goes to an idle thread of its kind, else to any idle thread, else waits', (t) => {
  const roles = new WorkerRoles(10, silent, () => {});
  roles.up(1, 101);
  roles.up(2, 102);
  roles.up(3, 103);
  const light = { name: 'default' };
  const heavy = { name: HEAVY_TASK };
  t.is(roles.balance(light, [idle(2), idle(1), idle(3)])?.id, 1, 'light calls go to the light thread first');
  t.is(roles.balance(heavy, [idle(1), idle(2), idle(3)])?.id, 2, 'heavy calls to a heavy thread first');
  t.is(roles.balance(light, [busy(1), idle(3)])?.id, 3, 'light calls spill over to an idle heavy thread');
  t.is(roles.balance(heavy, [busy(2), busy(3), idle(1)])?.id, 1, 'heavy calls use the light thread when it alone is idle');
  t.is(roles.balance(heavy, [busy(1), busy(2), busy(3)]), null);
});

test('a renicing the system refuses is logged once; the roles hold', (t) => {
  const logged: string[] = [];
  const log = createLogger('warn');
  const roles = new WorkerRoles(10, Object.assign(Object.create(log) as typeof log, { warn: (_o: unknown, msg: string) => logged.push(msg) }), () => {
    throw new Error('EACCES');
  });
  roles.up(1, 101);
  roles.up(2, 102);
  roles.up(3, 103);
  t.is(logged.length, 1);
  t.true(roles.isHeavy(2) && roles.isHeavy(3));
});

/** Nice values of this process's threads (Linux). */
const threadNices = (): number[] =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

test('on a node of three workers, two worker threads run at --heavy-worker-nice, and calls are answered', async (t) => {
  if (process.platform !== 'linux') return t.pass('thread priorities are read from /proc (Linux)');
  const before = threadNices().filter((n) => n === 7).length;
  // One process: the test reads the priorities of its own threads.
  const { wsUrl } = await startTestNode(t, { workers: '3', 'heavy-worker-nice': '7', processes: '1', 'serving-threads': '1' });
  t.is(threadNices().filter((n) => n === 7).length - before, 2);
  const ws = await WsClient.connect(wsUrl);
  t.teardown(() => ws.close());
  const ids = Array.from({ length: 500 }, (_, i) => `1.2.${i % 6}`);
  const heavy = await ws.call({ id: 1, method: 'get_objects', params: [ids] });
  const light = await ws.call({ id: 2, method: 'get_objects', params: [['1.2.0']] });
  t.is(heavy.result.length, 500);
  t.is(light.result[0].id, '1.2.0');
});

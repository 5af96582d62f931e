// The fair scheduler: connections are served in turn, light calls never wait behind heavy ones in a
// task, one worker is kept for light calls, the node-wide bound answers at once, and a closed
// connection's waiting calls never run.
import test from 'ava';
import type { CallPool, TaskAnswers } from '../src/pool/pool.js';
import { LearntCosts } from '../src/pool/learnt-costs.js';
import { ReplySizes } from '../src/pool/reply-sizes.js';
import { fairScheduler, type CostClass } from '../src/pool/scheduler.js';
import type { PoolAnswer, PoolTask, SliceReport } from '../src/protocol/thread-messages.js';
import { costOf } from '../src/pipeline/cost.js';
import { route } from '../src/dispatch/route.js';
import { settle } from './helpers/pipeline.js';
import { MAX_CALLS_PER_TASK, HEAVY_CALLS_PER_TASK, HOLD_LIGHT_MS, QUANTUM, SPREAD_FROM_CALLS, EAGER_LIGHT_TASKS, LIGHT_LIMIT_MAX, LIGHT_LIST_MAX, HARD_BOUND_GRACE_MS, HEAVY_REPLY_BYTES } from '../src/tuning.js';

/** A pool of `workers` whose tasks wait until the test finishes them. */
function heldPool(workers: number) {
  const tasks: { calls: PoolTask[]; finish: () => void }[] = [];
  const pool: Pick<CallPool, 'runTask' | 'workers'> = {
    workers,
    runTask: (calls) =>
      new Promise<PoolAnswer[]>((resolve) => tasks.push({ calls: [...calls], finish: () => resolve(calls.map((c) => new TextEncoder().encode(c.method))) })),
  };
  return { pool, tasks };
}

/**
 * A pool of `workers` whose tasks wait until the test finishes them, each call's task as it was
 * sent (a copy: the scheduler clears fields once a task is back), and a worker's report of slices.
 * Each call is answered `answer(call)` (its method's name, unless the test says otherwise).
 */
function slicingPool(workers: number, answer: (c: PoolTask) => Uint8Array = (c) => new TextEncoder().encode(c.method)) {
  const tasks: { calls: PoolTask[]; finish: (slices?: SliceReport) => void }[] = [];
  const pool: Pick<CallPool, 'runTask' | 'workers'> = {
    workers,
    runTask: (calls) =>
      new Promise<TaskAnswers>((resolve) =>
        tasks.push({
          calls: calls.map((c) => ({ ...c })),
          finish: (slices) => {
            const out: TaskAnswers = calls.map(answer);
            if (slices) out.slices = slices;
            resolve(out);
          },
        }),
      ),
  };
  return { pool, tasks };
}

const task = (name: string): PoolTask => ({ set: 'database', method: name, params: [] });

test('connections are served in turn: a newcomer\'s call travels with the first calls of one that queued many', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const [greedy, polite] = [{ isClosed: false, isPaused: false }, { isClosed: false, isPaused: false }];
  for (let i = 0; i < 200; i++) void s.submit(greedy, 'light', task(`g${i}`));
  void s.submit(polite, 'light', task('p0'));
  await settle();
  // One worker: two tasks may be in the pool (one running, one ready).
  t.is(tasks.length, 2);
  const first = tasks[0]!.calls.map((c) => c.method);
  t.is(first.length, MAX_CALLS_PER_TASK);
  const q = QUANTUM.light;
  const greedyTurn = Array.from({ length: q }, (_, i) => `g${i}`);
  t.deepEqual(first.slice(0, q + 2), [...greedyTurn, 'p0', `g${q}`], `round robin: the polite call comes after one turn of ${q} greedy calls, not 201st`);
  t.is(s.queued, 200 + 1 - 2 * MAX_CALLS_PER_TASK);
});

test('heavy calls travel a few to a task, never with light calls; with only heavy calls about they may use every worker', async (t) => {
  const { pool, tasks } = heldPool(2);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  for (let i = 0; i < 6; i++) void s.submit({ isClosed: false, isPaused: false }, 'heavy', task(`h${i}`));
  await settle();
  t.true(tasks.length >= 2, 'more than one worker takes heavy calls when no light call is about');
  for (const x of tasks) t.true(x.calls.length <= HEAVY_CALLS_PER_TASK);
  t.deepEqual(tasks.flatMap((x) => x.calls.map((c) => c.method)).sort(), ['h0', 'h1', 'h2', 'h3', 'h4', 'h5']);
});

test('while light calls are about, heavy calls leave one worker to them, and a light call is sent at once, alone', async (t) => {
  const { pool, tasks } = heldPool(2);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const [attacker, prober] = [{ isClosed: false, isPaused: false }, { isClosed: false, isPaused: false }];
  void s.submit(prober, 'light', task('first light'));
  await settle();
  tasks[0]!.finish();
  await settle();
  for (let i = 0; i < 8; i++) void s.submit(attacker, 'heavy', task(`h${i}`));
  await settle();
  const heavyTasks = tasks.slice(1);
  t.is(heavyTasks.length, 1, 'with 2 workers and light calls about, one heavy task at a time');
  void s.submit(prober, 'light', task('light'));
  await settle();
  t.deepEqual(tasks[tasks.length - 1]!.calls.map((c) => c.method), ['light'], 'the light call is sent at once, alone');
  heavyTasks[0]!.finish();
  await settle();
  t.true(tasks[tasks.length - 1]!.calls.every((c) => c.method.startsWith('h')), 'the next heavy task follows when the first is back');
});

test('while light calls are about and no thread for heavy calls is up (one replacing a thread ended), heavy calls wait; they go once it is up', async (t) => {
  const held = heldPool(2);
  let heavyThreadsUp = 0;
  const pool = {
    ...held.pool,
    get heavyThreadsUp() {
      return heavyThreadsUp;
    },
  };
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const [attacker, prober] = [{ isClosed: false, isPaused: false }, { isClosed: false, isPaused: false }];
  void s.submit(prober, 'light', task('light'));
  await settle();
  held.tasks[0]!.finish();
  for (let i = 0; i < 4; i++) void s.submit(attacker, 'heavy', task(`h${i}`));
  await settle();
  t.is(held.tasks.length, 1, 'no heavy task while the light calls\' thread is the only one up');
  void s.submit(prober, 'light', task('light 2'));
  await settle();
  t.deepEqual(held.tasks[1]!.calls.map((c) => c.method), ['light 2'], 'light calls go on');
  heavyThreadsUp = 1;
  s.wake();
  await settle();
  t.true(held.tasks[2]!.calls.every((c) => c.method.startsWith('h')), 'the heavy thread is up: heavy calls go');
});

test('an idle pool gets a few light calls in one task, not one wake per worker; many are spread over the idle workers', async (t) => {
  const few = heldPool(2);
  const s = fairScheduler(few.pool, { maxQueued: 10_000 });
  const n = SPREAD_FROM_CALLS - 1;
  for (let i = 0; i < n; i++) void s.submit({ isClosed: false, isPaused: false }, 'light', task(`a${i}`));
  await settle();
  t.is(few.tasks.length, 1, 'one task: the second worker is not woken for a few light calls');
  t.is(few.tasks[0]!.calls.length, n);
  const many = heldPool(2);
  const m = fairScheduler(many.pool, { maxQueued: 10_000 });
  for (let i = 0; i < 2 * SPREAD_FROM_CALLS; i++) void m.submit({ isClosed: false, isPaused: false }, 'light', task(`c${i}`));
  await settle();
  t.deepEqual(
    many.tasks.map((x) => x.calls.length),
    [SPREAD_FROM_CALLS, SPREAD_FROM_CALLS],
    'enough light calls to keep two workers busy are spread over both',
  );
  const eight = heldPool(4);
  const e = fairScheduler(eight.pool, { maxQueued: 10_000 });
  for (let i = 0; i < SPREAD_FROM_CALLS + 2; i++) void e.submit({ isClosed: false, isPaused: false }, 'light', task(`d${i}`));
  await settle();
  t.deepEqual(eight.tasks.map((x) => x.calls.length), [SPREAD_FROM_CALLS + 2], 'a woken worker gets SPREAD_FROM_CALLS calls or more, never one or two');
});

test('while a light task runs, a few more light calls wait for it to come back (at most HOLD_LIGHT_MS) rather than wake another worker', async (t) => {
  const { pool, tasks } = heldPool(4);
  // Longer than HOLD_LIGHT_MS, so that the steps below do not race the hold on a loaded machine.
  const holdLightMs = 200;
  const s = fairScheduler(pool, { maxQueued: 10_000, holdLightMs });
  const owner = () => ({ isClosed: false, isPaused: false });
  void s.submit(owner(), 'light', task('a0'));
  await settle();
  t.is(tasks.length, 1);
  void s.submit(owner(), 'light', task('b0'));
  void s.submit(owner(), 'light', task('b1'));
  await settle();
  t.is(tasks.length, 1, 'no sleeping worker is woken for two calls while a light task is out');
  tasks[0]!.finish();
  await settle();
  t.deepEqual(tasks[1]!.calls.map((c) => c.method), ['b0', 'b1'], 'they go together once the task is back');
  // With one light task out, SPREAD_FROM_CALLS more go to a second worker at once: two workers in
  // turn keep the front end from waiting on one.
  for (let i = 0; i < SPREAD_FROM_CALLS - 1; i++) void s.submit(owner(), 'light', task(`s${i}`));
  await settle();
  t.is(tasks.length, 2, `${SPREAD_FROM_CALLS - 1} calls wait for the light task in the pool`);
  void s.submit(owner(), 'light', task('s-last'));
  await settle();
  t.is(tasks.length, 3, 'SPREAD_FROM_CALLS calls go to a second worker');
  t.is(tasks[2]!.calls.length, SPREAD_FROM_CALLS);
  t.is(EAGER_LIGHT_TASKS, 2);
  // With EAGER_LIGHT_TASKS out, less than a whole task's worth waits; a whole task's worth wakes a worker.
  const more = MAX_CALLS_PER_TASK - 1;
  for (let i = 0; i < more; i++) void s.submit(owner(), 'light', task(`m${i}`));
  await settle();
  t.is(tasks.length, 3, `${more} calls wait for a light task in the pool`);
  void s.submit(owner(), 'light', task('full'));
  await settle();
  t.is(tasks.length, 4, 'a whole task\'s worth goes to a sleeping worker at once');
  t.is(tasks[3]!.calls.length, MAX_CALLS_PER_TASK);
  tasks[3]!.finish();
  tasks[2]!.finish();
  await settle();
  // Two light tasks out again (the one with b0 and b1, which is slow, and one more): the next call
  // waits no longer than the hold for them.
  for (let i = 0; i < SPREAD_FROM_CALLS; i++) void s.submit(owner(), 'light', task(`e${i}`));
  await settle();
  t.is(tasks.length, 5);
  void s.submit(owner(), 'light', task('c0'));
  await settle();
  t.is(tasks.length, 5);
  const held = performance.now();
  while (tasks.length === 5 && performance.now() - held < 5000) await new Promise((r) => setTimeout(r, 1));
  t.deepEqual(tasks[5]?.calls.map((c) => c.method), ['c0'], 'past the hold the held call goes to an idle worker');
  t.true(performance.now() - held >= holdLightMs - 1);
  t.true(HOLD_LIGHT_MS <= 2, 'the node holds light calls for a millisecond or two at most');
  // With every worker busy with heavy calls, nothing is held: light tasks are never held behind heavy ones.
  const h = heldPool(2);
  const hs = fairScheduler(h.pool, { maxQueued: 10_000 });
  void hs.submit(owner(), 'heavy', task('h0'));
  await settle();
  void hs.submit(owner(), 'light', task('l0'));
  await settle();
  t.deepEqual(h.tasks[1]?.calls.map((c) => c.method), ['l0'], 'a light call beside a heavy task is sent at once');
});

test('past the hold, what waits goes in one task to one sleeping worker; the hold counts from the oldest call that may run, not from a paused client\'s', async (t) => {
  const { pool, tasks } = heldPool(8);
  const holdLightMs = 100;
  const s = fairScheduler(pool, { maxQueued: 10_000, holdLightMs });
  const owner = () => ({ isClosed: false, isPaused: false });
  const waitForTasks = async (n: number) => {
    const since = performance.now();
    while (tasks.length < n && performance.now() - since < 5000) await new Promise((r) => setTimeout(r, 1));
  };
  // A client whose calls wait because it does not read: they are not what the hold counts from.
  const paused = { isClosed: false, isPaused: true };
  void s.submit(paused, 'light', task('p0'));
  // Two light tasks out (EAGER_LIGHT_TASKS), one call each.
  void s.submit(owner(), 'light', task('a0'));
  await settle();
  for (let i = 0; i < SPREAD_FROM_CALLS; i++) void s.submit(owner(), 'light', task(`a${i + 1}`));
  await settle();
  t.deepEqual(tasks.map((x) => x.calls.length), [1, SPREAD_FROM_CALLS]);
  // Less than a whole task's worth with the paused client's call.
  const n = MAX_CALLS_PER_TASK - 2;
  for (let i = 0; i < n; i++) void s.submit(owner(), 'light', task(`b${i}`));
  await settle();
  t.is(tasks.length, 2, 'held while two light tasks are out');
  await waitForTasks(3);
  await settle();
  t.deepEqual(tasks.slice(2).map((x) => x.calls.length), [n], 'past the hold: one task of all that waited, one worker woken');
  // The paused client's call still waits; calls that come now wait a hold of their own.
  await new Promise((r) => setTimeout(r, holdLightMs / 5));
  void s.submit(owner(), 'light', task('c0'));
  await settle();
  t.is(tasks.length, 3, 'a new call is held: the hold counts from it, not from the paused client\'s older call');
  await waitForTasks(4);
  t.deepEqual(tasks[3]!.calls.map((c) => c.method), ['c0']);
});

test('the node-wide bound counts queued and running calls and answers -32010 at once', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 3 });
  const answers = [1, 2, 3, 4].map((i) => s.submit({ isClosed: false, isPaused: false }, 'light', task(`c${i}`)));
  t.deepEqual(await answers[3], { error: { code: -32010, message: 'Server is busy: too many calls in flight on this node' } });
  await settle();
  for (const x of tasks) x.finish();
  await settle();
  t.true((await answers[0]) instanceof Uint8Array);
  t.is(s.queued + s.running, 0);
});

test('cost classes: long lists, large limits and whole-account reads are heavy; small reads are light', (t) => {
  const cost = (method: string, params: unknown[]): CostClass => costOf(route({ id: 1, wantsReply: true, jsonrpc: false, method, params }, ['database', 'login', 'history'], undefined, { loginVariant: 'current', callLogin: () => 0 }));
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `1.2.${i}`);
  t.is(cost('get_objects', [ids(LIGHT_LIST_MAX)]), 'light');
  t.is(cost('get_objects', [ids(LIGHT_LIST_MAX + 1)]), 'heavy');
  t.is(cost('get_chain_id', []), 'light');
  t.is(cost('lookup_accounts', ['', LIGHT_LIMIT_MAX]), 'light');
  t.is(cost('lookup_accounts', ['', 1000]), 'heavy');
  t.is(cost('lookup_accounts', ['', '1000']), 'heavy', 'numeric strings count as numbers, as fc reads them');
  t.is(cost('get_full_accounts', [['nathan'], false]), 'light');
  t.is(cost('get_full_accounts', [Array.from({ length: 4 }, () => 'nathan'), false]), 'light', 'a wallet\'s few accounts');
  t.is(cost('get_full_accounts', [Array.from({ length: 5 }, () => 'nathan'), false]), 'heavy', 'each name weighs as 25 plain reads');
  t.is(cost('get_required_signatures', [{}, []]), 'heavy', 'authority searches are heavy whatever their size');
  t.is(cost('call', [2, 'get_account_history', ['nathan', '1.11.0', 100, '1.11.0']]), 'light', 'a usual page is light');
  t.is(cost('call', [2, 'get_relative_account_history', ['nathan', 0, 1000, 0]]), 'heavy');
});

test('a closed owner\'s waiting calls never reach a worker: they are answered as cancelled when their turn comes', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const owner = { isClosed: false, isPaused: false };
  const other = { isClosed: false, isPaused: false };
  const answers: Promise<PoolAnswer>[] = [];
  for (let i = 0; i < 3 * MAX_CALLS_PER_TASK; i++) answers.push(s.submit(owner, 'light', task(`c${i}`)));
  await settle();
  t.is(tasks.length, 2);
  owner.isClosed = true;
  void s.submit(other, 'light', task('other'));
  for (const x of tasks) x.finish();
  await settle();
  t.deepEqual(tasks.slice(2).flatMap((x) => x.calls.map((c) => c.method)), ['other'], 'only the open owner\'s call was sent');
  t.deepEqual(await answers[answers.length - 1], { error: { code: -32011, message: 'Call cancelled: its connection closed' } });
  t.true((await answers[0]) instanceof Uint8Array, 'calls already in a worker still finish');
  t.is(s.queued, 0);
});

test('a paused owner\'s calls wait in place while others are served, and run once it is woken', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const reader = { isClosed: false, isPaused: false };
  const nonReader = { isClosed: false, isPaused: true };
  const waiting = [s.submit(nonReader, 'heavy', task('n0')), s.submit(nonReader, 'light', task('n1'))];
  void s.submit(reader, 'light', task('r0'));
  await settle();
  t.deepEqual(tasks.flatMap((x) => x.calls.map((c) => c.method)), ['r0'], 'only the reader\'s call was sent');
  t.is(s.queued, 2, 'the paused owner\'s calls are still queued');
  for (const x of tasks) x.finish();
  await settle();
  t.is(tasks.length, 1, 'nothing more is sent while it stays paused');
  nonReader.isPaused = false;
  s.wake();
  await settle();
  t.deepEqual(tasks.slice(1).flatMap((x) => x.calls.map((c) => c.method)).sort(), ['n0', 'n1']);
  for (const x of tasks) x.finish();
  t.true((await waiting[0]) instanceof Uint8Array);
  t.true((await waiting[1]) instanceof Uint8Array);
});

test('owners of one share (HTTP requests from one address) are served as one: many requests in flight get one turn per round', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  // 100 HTTP requests of one client, each its own owner, and one of another client.
  for (let i = 0; i < 100; i++) void s.submit({ isClosed: false, isPaused: false, share: 'http 203.0.113.7' }, 'light', task(`a${i}`));
  void s.submit({ isClosed: false, isPaused: false, share: 'http 198.51.100.1' }, 'light', task('b0'));
  await settle();
  const q = QUANTUM.light;
  t.deepEqual(tasks[0]!.calls.map((c) => c.method).slice(0, q + 2), [...Array.from({ length: q }, (_, i) => `a${i}`), 'b0', `a${q}`], 'the other client\'s call comes after one turn, not 101st');
});

test('a connection\'s pipelined light calls travel together, a turn of a few at a time, so their replies leave in one write; heavy calls one per turn', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const owners = [0, 1, 2].map(() => ({ isClosed: false, isPaused: false }));
  // Three connections with six light calls each in flight, queued in the order they arrived.
  for (let i = 0; i < 6; i++) owners.forEach((o, k) => void s.submit(o, 'light', task(`c${k}-${i}`)));
  await settle();
  const q = QUANTUM.light;
  t.true(q > 1 && q < 6);
  const order = tasks.flatMap((x) => x.calls.map((c) => c.method));
  const turn = (k: number, from: number, n: number) => Array.from({ length: n }, (_, i) => `c${k}-${from + i}`);
  t.deepEqual(order, [...turn(0, 0, q), ...turn(1, 0, q), ...turn(2, 0, q), ...turn(0, q, 6 - q), ...turn(1, q, 6 - q), ...turn(2, q, 6 - q)]);
  // Heavy calls: one per connection per turn.
  const h = heldPool(4);
  const hs = fairScheduler(h.pool, { maxQueued: 10_000 });
  for (let i = 0; i < 2; i++) owners.forEach((o, k) => void hs.submit(o, 'heavy', task(`h${k}-${i}`)));
  await settle();
  t.deepEqual(h.tasks.flatMap((x) => x.calls.map((c) => c.method)), ['h0-0', 'h1-0', 'h2-0', 'h0-1', 'h1-1', 'h2-1']);
});

test('a light call that used up its slice runs again as heavy, first among its owner\'s heavy calls; its shape gets a strike, and calls that ran long stand', async (t) => {
  const { pool, tasks } = slicingPool(2);
  const learnt = new LearntCosts();
  const s = fairScheduler(pool, { maxQueued: 10_000, lightSliceMs: 5, learnt });
  const owner = { isClosed: false, isPaused: false };
  const answers: string[] = [];
  const submit = (name: string, cost: CostClass) =>
    s.queue(owner, cost, task(name), (a) => answers.push(a instanceof Uint8Array ? new TextDecoder().decode(a) : JSON.stringify(a)));
  submit('blocks', 'light');
  submit('hex', 'light');
  submit('small', 'light');
  await settle();
  t.is(tasks.length, 1);
  t.deepEqual(tasks[0]!.calls.map((c) => c.sliceMs), [5, 5, 5], 'light calls carry the slice');
  tasks[0]!.finish({ sliced: [0], slow: [1] });
  await settle();
  t.deepEqual(answers, ['hex', 'small'], 'the call that ran long stands; the sliced one is not answered yet');
  t.is(learnt.requeued, 1);
  t.is(learnt.ranLong, 1);
  t.is(learnt.kept, 2, 'both shapes got a strike');
  const heavy = tasks[1]!;
  t.deepEqual(heavy.calls.map((c) => c.method), ['blocks'], 'it runs again, as heavy');
  t.is(heavy.calls[0]!.sliceMs, undefined, 'with no slice');
  heavy.finish();
  await settle();
  t.deepEqual(answers, ['hex', 'small', 'blocks']);
  t.is(s.queued + s.running, 0);
});

test('a call among its worker thread\'s first of its method that used up its slice still runs again as heavy, but its shape gets no strike', async (t) => {
  const { pool, tasks } = slicingPool(2);
  const learnt = new LearntCosts();
  const s = fairScheduler(pool, { maxQueued: 10_000, lightSliceMs: 5, learnt });
  const owner = { isClosed: false, isPaused: false };
  const answers: string[] = [];
  for (const name of ['history', 'history', 'history', 'accounts']) s.queue(owner, 'light', task(name), (a) => answers.push(new TextDecoder().decode(a as Uint8Array)));
  await settle();
  t.is(tasks.length, 1);
  // A fresh thread: its first three history calls were slow compiling (two stopped, one ran long).
  tasks[0]!.finish({ sliced: [0, 1], slow: [2], cold: [0, 1, 2] });
  await settle();
  t.is(learnt.kept, 0, 'no shape struck');
  t.is(learnt.requeued, 2);
  t.is(learnt.ranLong, 1);
  // The stopped ones run again, as heavy (one at a time here: a worker is kept for light calls).
  for (let done = 1; done < tasks.length; done++) {
    t.deepEqual(tasks[done]!.calls.map((c) => [c.method, c.sliceMs]), [['history', undefined]]);
    tasks[done]!.finish();
    await settle();
  }
  t.is(tasks.length, 3);
  t.deepEqual([...answers].sort(), ['accounts', 'history', 'history', 'history']);
  // The same slices from a warm thread strike, and three strikes of one shape with nothing else
  // counted make it heavy.
  for (let i = 0; i < 3; i++) s.queue(owner, 'light', task('history'), () => {});
  await settle();
  const warm = tasks[tasks.length - 1]!;
  t.is(warm.calls.length, 3);
  warm.finish({ sliced: [0, 1], slow: [2] });
  await settle();
  t.is(learnt.learnt, 1, 'learnt heavy');
});

test('calls left unrun behind one that used up its slice are sent again at once, light, ahead of later calls', async (t) => {
  const { pool, tasks } = slicingPool(3);
  const s = fairScheduler(pool, { maxQueued: 10_000, lightSliceMs: 5, learnt: new LearntCosts() });
  const answers: string[] = [];
  const submit = (owner: object, name: string) =>
    s.queue(owner as { isClosed: boolean; isPaused: boolean }, 'light', task(name), (a) => answers.push(new TextDecoder().decode(a as Uint8Array)));
  const attacker = { isClosed: false, isPaused: false };
  const neighbour = { isClosed: false, isPaused: false };
  submit(attacker, 'slow');
  submit(neighbour, 'n1');
  submit(neighbour, 'n2');
  await settle();
  t.deepEqual(tasks[0]!.calls.map((c) => c.method), ['slow', 'n1', 'n2']);
  tasks[0]!.finish({ sliced: [0], slow: [], unrun: [1, 2] });
  await settle();
  t.deepEqual(answers, [], 'nothing answered from the stopped task');
  const again = tasks.slice(1).map((x) => x.calls.map((c) => c.method));
  t.true(again.some((m) => m.join() === 'n1,n2'), `the neighbour's calls go again at once, light: ${JSON.stringify(again)}`);
  t.true(again.some((m) => m.join() === 'slow'), 'the stopped call runs again as heavy');
  for (const x of tasks.slice(1)) x.finish();
  await settle();
  t.deepEqual([...answers].sort(), ['n1', 'n2', 'slow']);
});

test('light calls queued before their shape was learnt heavy go to the heavy calls when their turn comes, not each through a slice first', async (t) => {
  const { pool, tasks } = heldPool(2);
  const learnt = new LearntCosts();
  const s = fairScheduler(pool, { maxQueued: 10_000, lightSliceMs: 5, learnt });
  const owner = { isClosed: false, isPaused: false };
  // A light task holds the pool's attention while the others queue.
  void s.queue(owner, 'light', task('first'), () => undefined);
  await settle();
  // A range of 99 blocks: the shape database.get_blocks:7.
  for (let i = 0; i < 3; i++) void s.queue({ isClosed: false, isPaused: false }, 'light', { set: 'database', method: 'get_blocks', params: [1, 100] }, () => undefined);
  void s.queue({ isClosed: false, isPaused: false }, 'light', task('small'), () => undefined);
  // Meanwhile the shape is learnt (another call's strikes).
  for (let i = 0; i < 3; i++) learnt.strike('database.get_blocks:7', true);
  t.true(learnt.learntHeavy('database.get_blocks:7'));
  tasks[0]!.finish();
  await settle();
  const sent = tasks.slice(1).map((x) => x.calls.map((c) => `${c.method}${c.sliceMs === undefined ? '' : '/sliced'}`));
  t.true(sent.some((m) => m.join() === 'small/sliced'), `the small call goes light: ${JSON.stringify(sent)}`);
  t.true(sent.some((m) => m.length > 0 && m.every((x) => x === 'get_blocks')), `the learnt shape's calls go heavy, without a slice: ${JSON.stringify(sent)}`);
});

/** A pool as slicingPool's, each call answered with `bytes(call)` bytes. */
const sizedPool = (workers: number, bytes: (c: PoolTask) => number) => slicingPool(workers, (c) => new Uint8Array(bytes(c)));

/** An owner paused as a session is: its replies outstanding (unread, waiting, expected of its calls in the pool) over `limit`. */
function readerOf(limit: number) {
  return {
    isClosed: false,
    unread: 0,
    waiting: 0,
    inPool: { calls: 0, expectedBytes: 0 },
    get isPaused() {
      return this.unread + this.waiting + this.inPool.expectedBytes > limit;
    },
    get replyWaits() {
      return this.waiting > 0 && this.unread <= limit;
    },
  };
}

const MIB = 1024 * 1024;
const blocks = (id: string): PoolTask => ({ set: 'block', method: 'get_blocks', params: [1, 49], head: id });

test('calls of a shape known to answer large replies count what they will answer against their owner: a client gets one in a worker at a time, and none while it leaves its replies unread', async (t) => {
  const { pool, tasks } = sizedPool(2, (c) => (c.method === 'get_blocks' ? 10 * MIB : 100));
  const replySizes = new ReplySizes();
  const s = fairScheduler(pool, { maxQueued: 10_000, replySizes });
  const nonReader = readerOf(MIB);
  const other = readerOf(MIB);
  // The first call of the shape runs before anything is known of it; its answer teaches its size.
  void s.submit(other, 'heavy', blocks('o0'));
  await settle();
  tasks[0]!.finish();
  await settle();
  t.is(replySizes.expected(blocks('x')), 10 * MIB);
  for (let i = 0; i < 3; i++) void s.submit(nonReader, 'heavy', blocks(`n${i}`));
  void s.submit(other, 'heavy', blocks('o1'));
  await settle();
  const sent = () => tasks.slice(1).flatMap((x) => x.calls.map((c) => c.head));
  t.deepEqual(sent().sort(), ['n0', 'o1'], 'one call each: what it will answer is over the limit already');
  t.deepEqual(nonReader.inPool, { calls: 1, expectedBytes: 10 * MIB });
  t.is(s.heldCalls, 2);
  // n0's answer arrives and is left unread (the transport says so as it writes it): its next call still waits.
  for (const x of tasks.slice(1)) x.finish();
  nonReader.unread = 6 * MIB;
  await settle();
  t.deepEqual(nonReader.inPool, { calls: 0, expectedBytes: 0 });
  t.deepEqual(sent().sort(), ['n0', 'o1']);
  // It reads: its next call runs.
  nonReader.unread = 0;
  s.wake();
  await settle();
  t.deepEqual(sent().sort(), ['n0', 'n1', 'o1']);
});

test('a paused owner whose replies wait for an earlier call of it, with nothing in the pool, gets its oldest call run: else they would wait for each other', async (t) => {
  // Its calls are light and heavy: the oldest of both goes, and only it.
  const s2 = sizedPool(2, () => 100);
  const sched = fairScheduler(s2.pool, { maxQueued: 10_000, replySizes: new ReplySizes() });
  const o2 = readerOf(MIB);
  o2.waiting = 2 * MIB;
  void sched.submit(o2, 'heavy', task('first'));
  void sched.submit(o2, 'light', task('second'));
  void sched.submit(o2, 'light', task('third'));
  await settle();
  t.deepEqual(s2.tasks.flatMap((x) => x.calls.map((c) => c.method)), ['first']);
  // With a call in the pool, nothing more until it is back.
  s2.tasks[0]!.finish();
  await settle();
  t.deepEqual(s2.tasks.flatMap((x) => x.calls.map((c) => c.method)), ['first', 'second']);
  // A client that leaves its limit unread gets nothing more, waiting replies or not.
  o2.unread = 2 * MIB;
  s2.tasks[1]!.finish();
  await settle();
  t.is(s2.tasks.length, 2);
});

test('a call past its deadline and the grace after it when its turn comes is answered over budget without reaching a worker', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const owner = { isClosed: false, isPaused: true };
  const answer = s.submit(owner, 'heavy', { ...task('late'), deadline: Date.now() - HARD_BOUND_GRACE_MS - 1, budgetMs: 5000 });
  await settle();
  owner.isPaused = false;
  s.wake();
  t.deepEqual(await answer, { error: { code: -32012, message: 'Call exceeded its time budget (5000 ms: --call-budget-ms)' } });
  t.is(tasks.length, 0);
  t.is(s.queued, 0);
});

test('light calls of a shape known to answer more than HEAVY_REPLY_BYTES go to the heavy calls when their turn comes', async (t) => {
  const { pool, tasks } = sizedPool(2, () => 100);
  const replySizes = new ReplySizes();
  replySizes.note({ set: 'block', method: 'get_blocks', params: [1, 49] }, HEAVY_REPLY_BYTES);
  const s = fairScheduler(pool, { maxQueued: 10_000, lightSliceMs: 5, replySizes });
  void s.submit({ isClosed: false, isPaused: false }, 'light', blocks('b'));
  void s.submit({ isClosed: false, isPaused: false }, 'light', task('small'));
  await settle();
  const sent = tasks.map((x) => x.calls.map((c) => `${c.head ?? c.method}${c.sliceMs === undefined ? '' : '/sliced'}`));
  t.true(sent.some((m) => m.join() === 'small/sliced'), JSON.stringify(sent));
  t.true(sent.some((m) => m.join() === 'b'), JSON.stringify(sent));
});

test('a call queued with an earlier place in its owner\'s order (its request was read in the pool meanwhile) goes before the calls that arrived behind it', async (t) => {
  const { pool, tasks } = heldPool(1);
  const s = fairScheduler(pool, { maxQueued: 10_000 });
  const owner = { isClosed: false, isPaused: false };
  const arrived = performance.now();
  // Something else holds the worker, so that the owner's calls wait and their order can be seen.
  void s.submit({ isClosed: false, isPaused: false }, 'heavy', task('other'));
  await settle();
  for (let i = 0; i < 3; i++) s.queue(owner, 'heavy', task(`later${i}`), () => {}, arrived + 1 + i);
  // The first request's call, back from being read: it arrived before the other three.
  s.queue(owner, 'heavy', task('first'), () => {}, arrived);
  await settle();
  tasks[0]!.finish();
  await settle();
  const sent = tasks.slice(1).flatMap((x) => x.calls.map((c) => c.method));
  t.deepEqual(sent.slice(0, 4), ['first', 'later0', 'later1', 'later2']);
});

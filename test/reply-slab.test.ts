// The reply slab (src/protocol/reply-slab.ts): workers write replies into shared slots and the front
// end reads them in place. A slot may be written again only once every reply in it has been
// written to its socket, or dropped; and a reply must read exactly as its call wrote it, however
// replies, tasks and clients come and go.
import test from 'ava';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { ReplyArena, ReplyWriter } from '../workers/reply-writer.js';
import { SlabSlots } from '../workers/slab-slots.js';
import { SlabLeases } from '../src/pool/slab-leases.js';
import { HELD_BY_FRONT_END, LeasedBytes, createReplySlab, releaseReply, slabRef, type ReplySlabInit } from '../src/protocol/reply-slab.js';
import { callText, httpPost } from './helpers/clients.js';
import { startDevnet } from './helpers/devnet.js';
import { SLOT_BYTES } from '../src/tuning.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const LIMITS = { maxBytes: 1 << 30, deadline: Number.POSITIVE_INFINITY, budgetMs: 0 };
const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const holders = (init: ReplySlabInit) => [...new Int32Array(init.holders)];
/** A worker thread's id as the slab marks it (any id above 0 no other holder uses). */
const WORKER = 7;

/** One task's replies, written as a worker writes them, handed over as the pool hands them over. */
function task(slots: SlabSlots, leases: SlabLeases, replies: string[]): Uint8Array[] {
  const arena = new ReplyArena(slots);
  const written = replies.map((r) => new ReplyWriter(LIMITS, arena).text(r).finish());
  arena.settle();
  return written.map((b) => (slots.holds(b) ? leases.view(slabRef(b.byteOffset, b.byteLength)) : b));
}

test('a task’s replies are written into slab slots and read in place by the front end, byte for byte', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const replies = ['{"id":1,"result":"é"}', `{"id":2,"result":"${'x'.repeat(20_000)}"}`, '{"id":3,"result":null}'];
  const got = task(slots, leases, replies);
  t.true(got.every((b) => b instanceof LeasedBytes), 'every reply crossed as a place in the slab');
  t.deepEqual(got.map(text), replies);
  t.is(holders(init)[0], HELD_BY_FRONT_END, 'the slot is the front end’s until its replies are written');
  t.is(leases.slotsInUse, 1, 'three replies, one slot');
});

test('a slot is free again only once every reply in it has been released, and releasing twice frees nothing twice', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const [a, b] = task(slots, leases, ['"a"', '"b"']);
  releaseReply(a!);
  releaseReply(a!);
  t.is(holders(init)[0], HELD_BY_FRONT_END, 'b is not written yet');
  const [c] = task(slots, leases, ['"c"']);
  t.not((c as LeasedBytes).lease.slot, 0, 'a held slot is not written again');
  releaseReply(b!);
  t.is(holders(init)[0], 0);
  t.is(text(c!), '"c"');
});

test('a slot no reply was finished in goes back when its task ends', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const arena = new ReplyArena(slots);
  const failed = new ReplyWriter({ ...LIMITS, maxBytes: 10 }, arena);
  t.throws(() => failed.text('"').text('y'.repeat(40)), { message: /max-reply-bytes/ });
  arena.settle();
  t.true(holders(init).every((h) => h === 0), 'the failed call’s slot is free');
});

test('a reply that outgrows its slot’s room moves to a fresh slot; one larger than a slot takes a run of the large part', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const first = `"${'a'.repeat(SLOT_BYTES - 10_000)}"`;
  const second = `"${'b'.repeat(30_000)}"`;
  const huge = `"${'c'.repeat(SLOT_BYTES * 2)}"`;
  const got = task(slots, leases, [first, second, huge, '"after"']);
  t.deepEqual(got.map(text), [first, second, huge, '"after"']);
  const [g1, g2, g3, g4] = got as [LeasedBytes, LeasedBytes, LeasedBytes, LeasedBytes];
  t.not(g2.lease.slot, g1.lease.slot, 'the second reply moved to a slot of its own');
  t.true(g3 instanceof LeasedBytes, 'larger than a slot: a place in the slab all the same');
  t.true(g3.lease.slot >= init.slots, 'in the large part, after the slots');
  t.is(g3.lease.pages, 3, 'a run of as many pages as it needs');
  t.is(g3.byteOffset % SLOT_BYTES, 0, 'a run starts at a page');
  t.is(g4.lease.slot, g2.lease.slot, 'the task goes on in the slot it moved to');
  t.is(leases.largePagesInUse, 3);
  for (const b of got) releaseReply(b);
  t.true(holders(init).every((h) => h === 0), `every slot and page free: ${holders(init).filter((h) => h !== 0).length} held`);
});

test('large replies take runs of free pages, skip held ones, and get a buffer of their own when no run is free', (t) => {
  // A large part of 8 pages.
  const init = createReplySlab(1, 8 * SLOT_BYTES);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const reply = (c: string, pages: number) => `"${c.repeat(pages * SLOT_BYTES - 100)}"`;
  const [a, b] = task(slots, leases, [reply('a', 3), reply('b', 3)]) as [LeasedBytes, LeasedBytes];
  t.deepEqual([a.lease.pages, b.lease.pages], [3, 3]);
  t.is(b.lease.slot, a.lease.slot + 3, 'runs side by side');
  // Two pages are left at the end: a reply of three goes round to the start, which is held.
  const [c] = task(slots, leases, [reply('c', 3)]);
  t.false(c instanceof LeasedBytes, 'no run of three is free: a buffer of its own');
  t.is(text(c!), reply('c', 3));
  releaseReply(a);
  const [d] = task(slots, leases, [reply('d', 2)]) as [LeasedBytes];
  t.is(text(d), reply('d', 2));
  const [e] = task(slots, leases, [reply('e', 3)]) as [LeasedBytes];
  t.true(e instanceof LeasedBytes, 'the run a gave back is taken again');
  t.is(e.lease.slot, a.lease.slot);
  t.is(text(e), reply('e', 3));
  t.is(text(b), reply('b', 3), 'a held reply is never written over');
  const tooLarge = `"${'f'.repeat(9 * SLOT_BYTES)}"`;
  const [f] = task(slots, leases, [tooLarge]);
  t.false(f instanceof LeasedBytes, 'larger than the large part: a buffer of its own');
  for (const x of [b, d, e]) releaseReply(x);
  t.is(leases.largePagesInUse, 0);
});

test('a failed task gives back the runs its replies took; the sweep frees a gone thread\'s', (t) => {
  const init = createReplySlab(1, 8 * SLOT_BYTES);
  const slots = new SlabSlots(init, WORKER);
  const arena = new ReplyArena(slots);
  new ReplyWriter(LIMITS, arena).text(`"${'x'.repeat(2 * SLOT_BYTES)}"`).finish();
  t.is(new SlabLeases(init).largePagesInUse, 3, 'the worker holds the run while it writes');
  arena.settle(true);
  t.true(holders(init).every((h) => h === 0), 'given back with the failed task');
  const dead = new SlabSlots(init, 9);
  const arena2 = new ReplyArena(dead);
  new ReplyWriter(LIMITS, arena2).text(`"${'y'.repeat(2 * SLOT_BYTES)}"`).finish();
  const leases = new SlabLeases(init);
  t.is(leases.sweep(new Set([WORKER])), 3);
  t.true(holders(init).every((h) => h === 0));
});

test('with every slot held, replies go into buffers of their own and are whole', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const held: Uint8Array[] = [];
  // Two replies of 40 KB cannot share a 64 KiB slot: each takes one, until none is left.
  const big = (i: number) => `"${String(i).padStart(40_000, '0')}"`;
  for (let i = 0; slots.claim() >= 0 || i === 0; i++) held.push(...task(slots, leases, [big(i)]));
  // (the probe above claimed the last free slot itself, as a worker writing would)
  const replies = Array.from({ length: 5 }, (_, i) => big(1000 + i));
  const got = task(slots, leases, replies);
  t.deepEqual(got.map(text), replies);
  t.true(got.every((b) => !(b instanceof LeasedBytes)));
});

test('a reply dropped without being written lets its slot go once it is collected', async (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  task(slots, leases, ['"nobody writes me"']);
  t.is(leases.slotsInUse, 1);
  const deadline = Date.now() + 10_000;
  while (leases.slotsInUse > 0 && Date.now() < deadline) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  t.is(leases.slotsInUse, 0);
  t.is(leases.collected, 1);
});

test('a reply written in the turn it arrives never goes on the safety net; one still held at the turn\'s end does, and leaves it when written', async (t) => {
  // Each registration leaves a record in the old generation, so the front end registers only what
  // it still holds when the turn is over. And V8's scavenger keeps every object registered in a
  // FinalizationRegistry alive, so a view left on the net after its write would be copied and
  // promoted by each scavenge until a full collection.
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const registered = new Map<object, object>();
  const fake = {
    register(target: object, _held: unknown, token?: object) {
      t.truthy(token, 'registered with an unregister token');
      registered.set(token!, target);
    },
    unregister(token: object) {
      return registered.delete(token);
    },
  };
  const leases = new SlabLeases(init, () => fake);
  const [written, dropped, late] = task(slots, leases, ['"written"', '"dropped"', '"late"']) as LeasedBytes[];
  t.is(registered.size, 0, 'nothing is registered within the turn');
  releaseReply(written!);
  await new Promise((r) => setImmediate(r));
  t.deepEqual([...registered.values()], [dropped, late], 'the replies still held at the turn\'s end are on the net');
  releaseReply(late!);
  t.deepEqual([...registered.values()], [dropped], 'a reply written later is taken off at once');
  releaseReply(late!);
  t.is(registered.size, 1, 'releasing twice takes nothing else off');
  t.is(leases.slotsInUse, 1, 'the slot waits for the dropped reply');
});

test('the sweep frees the slots of a worker thread that is gone, and only those', (t) => {
  const init = createReplySlab(1);
  const alive = new SlabSlots(init, 3);
  const dead = new SlabSlots(init, 4);
  const leases = new SlabLeases(init);
  const writing = alive.claim();
  const lost = [dead.claim(), dead.claim()];
  const [handed] = task(dead, leases, ['"handed over before the thread died"']);
  t.is(leases.sweep(new Set([3])), 2);
  const h = holders(init);
  t.is(h[writing], 3, 'a live thread keeps its slot');
  for (const s of lost) t.is(h[s], 0);
  t.is(h[(handed as LeasedBytes).lease.slot], HELD_BY_FRONT_END, 'replies the front end holds keep theirs');
  t.is(text(handed!), '"handed over before the thread died"');
});

test('replies read from the slab under load are each their own call’s, over WebSocket and HTTP, and every slot comes back', async (t) => {
  const node = await startDevnet(t, { workers: '2' }, { blocks: 30 });
  // Calls of many sizes: blocks, single objects, long id lists.
  const calls: [string, unknown[]][] = [];
  for (let n = 1; n <= 30; n++) calls.push(['get_block', [n]]);
  for (let n = 0; n < 20; n++) calls.push(['get_objects', [[`1.2.${n}`, `2.1.0`, `1.3.0`]]]);
  for (let n = 1; n <= 10; n++) calls.push(['get_objects', [Array.from({ length: 100 }, (_, i) => `1.2.${(i * n) % 40}`)]]);
  // Replies larger than a slot, placed in the large part.
  for (let n = 1; n <= 4; n++) calls.push(['get_objects', [Array.from({ length: 900 }, (_, i) => `1.2.${(i * n) % 40}`)]]);
  // What each call answers, asked one at a time.
  const expected: string[] = [];
  for (const [i, [method, params]] of calls.entries()) {
    const reply = await httpPost(node.httpUrl, callText(i, method, params));
    expected.push(reply.text);
  }
  t.true(expected.every((e) => JSON.parse(e).result !== undefined), 'every call answers a result');
  t.true(expected.some((e) => Buffer.byteLength(e) > SLOT_BYTES), 'some replies are larger than a slot');

  // Now all at once, many times over, from several WebSockets and HTTP clients.
  const sockets = await Promise.all(Array.from({ length: 6 }, () => open(node.wsUrl)));
  const rounds = 8;
  const seen = await Promise.all([
    ...sockets.map(async (ws) => {
      // A round at a time: more calls in flight than --max-pending-calls-per-connection would close it.
      const replies: string[] = [];
      let wanted = 0;
      let wake = () => {};
      ws.on('message', (m) => {
        replies.push(m.toString());
        if (replies.length === wanted) wake();
      });
      for (let r = 0; r < rounds; r++) {
        wanted += calls.length;
        const round = new Promise<void>((resolve, reject) => {
          wake = resolve;
          ws.once('close', () => reject(new Error('closed')));
          setTimeout(() => reject(new Error(`${replies.length} of ${wanted} replies`)), 60_000).unref();
        });
        for (const [i, [method, params]] of calls.entries()) ws.send(callText(i, method, params));
        await round;
      }
      return replies;
    }),
    (async () => {
      const replies: string[] = [];
      for (let r = 0; r < 2; r++) replies.push(...(await Promise.all(calls.map(([method, params], i) => httpPost(node.httpUrl, callText(i, method, params))))).map((x) => x.text));
      return replies;
    })(),
  ]);
  let wrong = 0;
  for (const replies of seen) replies.forEach((r, k) => (r === expected[k % calls.length] ? 0 : wrong++));
  t.is(wrong, 0, 'every reply is its own call’s, byte for byte');

  // A client that sends and goes away: its replies are dropped unwritten.
  for (let k = 0; k < 3; k++) {
    const ws = await open(node.wsUrl);
    for (const [i, [method, params]] of calls.entries()) ws.send(callText(i, method, params));
    ws.terminate();
  }
  for (const ws of sockets) ws.close();
  const deadline = Date.now() + 20_000;
  let inUse = -1;
  let pagesInUse = -1;
  while (Date.now() < deadline) {
    inUse = await metric(node.httpUrl, 'graphene_rpc_reply_slab_slots_in_use');
    pagesInUse = await metric(node.httpUrl, 'graphene_rpc_reply_slab_large_pages_in_use');
    if (inUse === 0 && pagesInUse === 0) break;
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  t.is(inUse, 0, 'every slot is free once the replies are written or dropped');
  t.is(pagesInUse, 0, 'and every page of the large part');
  t.true((await metric(node.httpUrl, 'graphene_rpc_reply_slab_large_pages')) > 0);
  t.true((await metric(node.httpUrl, 'graphene_rpc_reply_slab_slots')) > 0);
});

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.on('error', () => {});
  });
}

async function metric(rpcUrl: string, name: string): Promise<number> {
  const body = await (await fetch(new URL('/metrics', rpcUrl))).text();
  const line = body.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

test('replies are placed in their slot at 8-byte aligned offsets (V8 copies into shared memory byte by byte otherwise)', (t) => {
  const init = createReplySlab(1);
  const slots = new SlabSlots(init, WORKER);
  const leases = new SlabLeases(init);
  const replies = ['"a"', '"bb"', '"ccccc"', `"${'d'.repeat(1001)}"`, '7'];
  const got = task(slots, leases, replies) as LeasedBytes[];
  t.deepEqual(got.map(text), replies);
  for (const b of got) t.is(b.byteOffset % 8, 0, `offset ${b.byteOffset}`);
});

// The reply writer's arena (workers/reply-writer.ts): the replies of one task are written one after
// another into shared buffers, and each finished reply must stay exactly what its call wrote, whatever
// the calls after it do (write little, outgrow the arena, fail half-way, fill it up).
import test from 'ava';
import { ReplyArena, ReplyWriter, SliceOver } from '../workers/reply-writer.js';
import { ARENA_BYTES, DEADLINE_CHECK_BYTES, DEADLINE_CHECK_EVERY } from '../src/tuning.js';

const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const LIMITS = { maxBytes: 1 << 30, deadline: Number.POSITIVE_INFINITY, budgetMs: 0 };

test('replies of one task share an arena buffer and each keeps its own bytes', (t) => {
  const arena = new ReplyArena();
  const a = new ReplyWriter(LIMITS, arena).text('{"id":1,"result":').json({ x: 1 }).text('}').finish();
  const b = new ReplyWriter(LIMITS, arena).text('{"id":2,"result":"é"}').finish();
  t.is(a.buffer, b.buffer, 'small replies are in one buffer');
  t.is(b.byteOffset, a.byteOffset + a.byteLength, 'one after the other');
  t.is(text(a), '{"id":1,"result":{"x":1}}');
  t.is(text(b), '{"id":2,"result":"é"}');
});

test('a reply that outgrows the arena moves to a buffer of its own; the arena goes on after the earlier replies', (t) => {
  const arena = new ReplyArena();
  const first = new ReplyWriter(LIMITS, arena).text('"first"').finish();
  const bigText = 'x'.repeat(3 * ARENA_BYTES);
  const big = new ReplyWriter(LIMITS, arena).text('"').text(bigText).text('"').finish();
  const next = new ReplyWriter(LIMITS, arena).text('"next"').finish();
  t.not(big.buffer, first.buffer);
  t.is(text(big), `"${bigText}"`);
  t.is(next.buffer, first.buffer, 'the arena is used again after a reply that left it');
  t.is(next.byteOffset, first.byteLength, 'written where the arena ended, over nothing finished');
  t.is(text(first), '"first"');
  t.is(text(next), '"next"');
});

test('a call that fails half-way leaves no bytes behind: the next reply takes its place, the earlier ones are intact', (t) => {
  const arena = new ReplyArena();
  const first = new ReplyWriter(LIMITS, arena).text('"first"').finish();
  const failed = new ReplyWriter({ ...LIMITS, maxBytes: 10 }, arena);
  t.throws(() => failed.text('"').text('y'.repeat(40)), { message: /max-reply-bytes/ });
  const next = new ReplyWriter(LIMITS, arena).text('"next"').finish();
  t.is(next.byteOffset, first.byteLength);
  t.is(text(first), '"first"');
  t.is(text(next), '"next"');
});

test('the reply cap counts the reply alone, not what earlier replies wrote in the arena', (t) => {
  const arena = new ReplyArena();
  new ReplyWriter(LIMITS, arena).text('z'.repeat(3000)).finish();
  const capped = new ReplyWriter({ ...LIMITS, maxBytes: 100 }, arena).text('w'.repeat(100)).finish();
  t.is(capped.byteLength, 100);
});

test('a full arena is left to its replies and a fresh one is started', (t) => {
  const arena = new ReplyArena();
  const replies: Uint8Array[] = [];
  for (let i = 0; i < 40; i++) replies.push(new ReplyWriter(LIMITS, arena).text(`"${String(i).padStart(1000, '0')}"`).finish());
  const buffers = new Set(replies.map((r) => r.buffer));
  t.true(buffers.size > 1 && buffers.size < replies.length, `${buffers.size} buffers for ${replies.length} replies`);
  replies.forEach((r, i) => t.is(text(r), `"${String(i).padStart(1000, '0')}"`));
});

test('rows written in one piece or turned down in bulk count for the look at the deadline as rows written one by one', (t) => {
  const past = { maxBytes: 1 << 30, deadline: Date.now() - 1, budgetMs: 5 };
  const stored = Buffer.from('{"id":"1.11.1"},{"id":"1.11.0"}');
  // One at a time: the look comes at the DEADLINE_CHECK_EVERY-th row.
  const single = new ReplyWriter(past);
  for (let i = 1; i < DEADLINE_CHECK_EVERY; i++) single.rawRange(stored, 0, 15);
  t.throws(() => single.rawRange(stored, 0, 15), { message: /5 ms: --call-budget-ms/ });
  // A run of rows that crosses that count: the look comes with it.
  const runs = new ReplyWriter(past);
  runs.rawRange(stored, 0, stored.length, DEADLINE_CHECK_EVERY - 2);
  t.throws(() => runs.rawRange(stored, 0, stored.length, 2), { message: /--call-budget-ms/ });
  // Rows a filter turned down, reported together.
  const filtered = new ReplyWriter(past);
  filtered.skipped(DEADLINE_CHECK_EVERY - 1);
  t.throws(() => filtered.skipped(3 * DEADLINE_CHECK_EVERY), { message: /--call-budget-ms/ });
  // Within the deadline, runs write their bytes as they are.
  const ok = new ReplyWriter({ ...past, deadline: Number.POSITIVE_INFINITY });
  ok.rawRange(stored, 0, stored.length, 5 * DEADLINE_CHECK_EVERY);
  t.is(Buffer.from(ok.finish()).toString(), stored.toString());
});

test('at its slice\'s end, a light call whose thread had less CPU than the slice waited for a CPU: it goes on for the rest; one that had its slice stops', (t) => {
  let cpu = 1;
  const starved = new ReplyWriter({ ...LIMITS, sliceEnd: Date.now() - 1, sliceMs: 5, cpuSinceTask: () => cpu });
  t.notThrows(() => starved.checkDeadline(), '1 ms of CPU in a 5 ms slice: not slow');
  t.false(starved.sliceOver);
  t.notThrows(() => starved.checkDeadline(), 'its slice ends 4 ms from the look that moved it');
  cpu = 5;
  const worked = new ReplyWriter({ ...LIMITS, sliceEnd: Date.now() - 1, sliceMs: 5, cpuSinceTask: () => cpu });
  t.throws(() => worked.checkDeadline(), { instanceOf: SliceOver }, 'its slice of CPU used: stopped');
  // Without a clock the slice is wall time, as before.
  const wall = new ReplyWriter({ ...LIMITS, sliceEnd: Date.now() - 1, sliceMs: 5 });
  t.throws(() => wall.checkDeadline(), { instanceOf: SliceOver });
});

test('a light call past its slice stops at its next look at the clock with SliceOver, remembered on the writer; large writes look at the clock by bytes too', (t) => {
  // Few writes, each large: the look at the clock comes from the bytes, not the count of writes.
  const past = new ReplyWriter({ ...LIMITS, sliceEnd: Date.now() - 1 });
  const chunk = 'x'.repeat(DEADLINE_CHECK_BYTES / 2);
  past.text('"').text(chunk);
  t.throws(() => past.text(chunk), { instanceOf: SliceOver });
  t.true(past.sliceOver, 'a handler that wraps the error cannot hide it');
  // Without a slice, or before its end, the same writes go through.
  const none = new ReplyWriter(LIMITS);
  none.text('"').text(chunk).text(chunk).text(chunk).text('"');
  t.false(none.sliceOver);
  const ahead = new ReplyWriter({ ...LIMITS, sliceEnd: Date.now() + 60_000 });
  t.notThrows(() => ahead.text(chunk).text(chunk).text(chunk));
  // The budget's own error still comes first: a call past its deadline is over, not sliced.
  const over = new ReplyWriter({ ...LIMITS, deadline: Date.now() - 1, budgetMs: 5, sliceEnd: Date.now() - 1 });
  t.throws(() => over.checkDeadline(), { message: /time budget/ });
});

// Large requests wait their turn (src/transport/ingress.ts): one large request read per turn of the
// event loop, connections in turn, a connection's requests in the order they came, and what is
// kept bounded.
import test from 'ava';
import { ingress } from '../src/transport/ingress.js';
import { LARGE_REQUEST_BYTES } from '../src/tuning.js';

const turn = () => new Promise((r) => setImmediate(r));
const large = (tag: string) => tag + 'x'.repeat(LARGE_REQUEST_BYTES);

test('small requests are read at once; large ones one per turn, the connections in turn', async (t) => {
  const read: string[] = [];
  const q = ingress({ maxBytes: () => 1 << 30, maxPerConnection: () => 100 });
  const [a, b, c] = [{}, {}, {}];
  const offer = (key: object, text: string) => {
    const r = q.offer(key, text, (x) => read.push((x as string).slice(0, 2)));
    if (r === 'now') read.push(text.slice(0, 2));
    return r;
  };
  t.is(offer(a, large('a1')), 'kept');
  t.is(offer(a, large('a2')), 'kept');
  t.is(offer(b, large('b1')), 'kept');
  t.is(offer(c, 'c1'), 'now', 'a small request of a connection with nothing waiting is read at once');
  t.is(offer(a, 'a3'), 'kept', 'a small request behind a large one of its connection waits behind it');
  t.deepEqual(read, ['c1']);
  await turn();
  t.deepEqual(read, ['c1', 'a1'], 'one large request a turn');
  await turn();
  t.deepEqual(read, ['c1', 'a1', 'b1'], 'then the next connection\'s');
  await turn();
  t.deepEqual(read, ['c1', 'a1', 'b1', 'a2', 'a3'], 'a connection\'s requests in the order they came; small ones with the large one before them');
  t.is(q.bytes, 0);
});

test('what is kept is bounded: the node\'s bytes and a connection\'s count; a closed connection\'s requests are forgotten', async (t) => {
  const q = ingress({ maxBytes: () => 3 * (LARGE_REQUEST_BYTES + 2), maxPerConnection: () => 2 });
  const [a, b] = [{}, {}];
  const none = () => t.fail('nothing is read');
  t.is(q.offer(a, large('a1'), none), 'kept');
  t.is(q.offer(a, large('a2'), none), 'kept');
  t.is(q.offer(a, large('a3'), none), 'refused', 'the connection holds --max-pending-calls-per-connection of them');
  t.is(q.offer(b, large('b1'), none), 'kept');
  t.is(q.offer(b, large('b2'), none), 'refused', 'the node holds --max-ingress-bytes');
  q.forget(a);
  q.forget(b);
  t.is(q.bytes, 0);
  await turn();
});

// A session's replies outstanding (src/session/session.ts): what its client has not read, what
// waits for an earlier reply, and what its calls in the pool are expected to answer; over
// --max-unread-bytes-per-connection its pool calls wait.
import test from 'ava';
import { Session, type Reply } from '../src/session/session.js';
import { captureLogs } from './helpers/logs.js';

const reply = (bytes: number): Reply => ({ body: new Uint8Array(bytes), status: 200 });

function session() {
  const sent: number[] = [];
  const s = new Session('ws', '127.0.0.1', 'current', captureLogs('silent').log, (r) => sent.push(r === null ? 0 : r.body.length));
  s.replyBudget = { maxUnreadBytesPerConnection: 1000 };
  return { s, sent };
}

test('a reply waiting for an earlier one counts until it leaves: past the limit the session is paused, and its replies wait for the earlier call', async (t) => {
  const { s, sent } = session();
  let first!: (r: Reply) => void;
  s.enqueue(new Promise<Reply>((resolve) => (first = resolve)));
  s.enqueue(reply(1500));
  t.deepEqual(sent, [], 'the second waits for the first');
  t.is(s.outstandingBytes, 1500);
  t.true(s.isPaused);
  t.true(s.replyWaits, 'what pauses it waits for an earlier call');
  first(reply(10));
  await Promise.resolve();
  t.deepEqual(sent, [10, 1500]);
  t.is(s.outstandingBytes, 0);
  t.false(s.isPaused);
});

test('unread bytes and what its calls in the pool will answer count too; a client over its limit unread gets nothing run for waiting replies', (t) => {
  const { s } = session();
  s.inPool.expectedBytes = 800;
  t.false(s.isPaused);
  s.unreadBytes = 300;
  t.true(s.isPaused, '300 unread and 800 on their way');
  s.inPool.expectedBytes = 0;
  t.false(s.isPaused);
  s.enqueue(new Promise<Reply>(() => undefined));
  s.enqueue(reply(900));
  t.true(s.isPaused);
  t.true(s.replyWaits);
  s.unreadBytes = 1001;
  t.false(s.replyWaits, 'it must read first');
  s.close();
  t.is(s.outstandingBytes, 1001, 'a closed session holds no waiting replies');
});

test('a session made without a connection\'s options is never paused', (t) => {
  const s = new Session('ws', '127.0.0.1', 'current', captureLogs('silent').log, () => undefined);
  s.unreadBytes = 1e12;
  t.false(s.isPaused);
});

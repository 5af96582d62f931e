// A WebSocket's outbox (src/transport/ws-outbox.ts): small replies go whole; a large one goes in
// fragments while the socket takes them and the rest waits in its own buffer, never copied into
// uWS; later replies wait behind it, in order; a reply in the reply slab is copied out before it waits.
import test from 'ava';
import { DROPPED, MORE, WsOutbox, type FragmentSocket } from '../src/transport/ws-outbox.js';
import { LeasedBytes } from '../src/protocol/reply-slab.js';
import { WS_FRAGMENT_BYTES, WS_WHOLE_REPLY_BYTES, WS_WRITE_TURN_BYTES } from '../src/tuning.js';

/**
 * A socket as uWS shows it: the kernel takes up to `room` bytes, what it does not take waits in
 * uWS' buffer (copied there, as uWS does) until `read`; past `maxBackpressure` a write is dropped.
 * The frames written are kept, to be put back together as the client would.
 */
function fakeSocket(room: number, maxBackpressure = 64 * 1024 * 1024) {
  const frames: { kind: 'whole' | 'first' | 'middle' | 'last'; bytes: Uint8Array }[] = [];
  let kernel = 0;
  let buffered = 0;
  let copied = 0;
  const write = (kind: (typeof frames)[number]['kind'], message: string | Uint8Array): number => {
    const bytes = typeof message === 'string' ? Buffer.from(message) : Uint8Array.from(message);
    if (buffered + bytes.length > maxBackpressure) return DROPPED;
    frames.push({ kind, bytes });
    const take = buffered > 0 ? 0 : Math.min(room - kernel, bytes.length);
    kernel += take;
    buffered += bytes.length - take;
    copied += bytes.length - take;
    return buffered > 0 ? 0 : 1;
  };
  const ws: FragmentSocket = {
    send: (m) => write('whole', m),
    sendFirstFragment: (m) => write('first', m),
    sendFragment: (m) => write('middle', m),
    sendLastFragment: (m) => write('last', m),
    getBufferedAmount: () => buffered,
  };
  return {
    ws,
    /** bytes uWS copied into its own buffer */
    copied: () => copied,
    /** The client reads everything: the kernel and uWS' buffer empty. */
    read() {
      kernel = 0;
      buffered = 0;
    },
    /** The messages the client has whole, as text. */
    messages(): string[] {
      const out: string[] = [];
      let parts: Uint8Array[] | undefined;
      for (const f of frames) {
        if (f.kind === 'whole') out.push(Buffer.from(f.bytes).toString());
        else if (f.kind === 'first') parts = [f.bytes];
        else {
          parts!.push(f.bytes);
          if (f.kind === 'last') {
            out.push(Buffer.concat(parts!).toString());
            parts = undefined;
          }
        }
      }
      return out;
    },
    frames,
  };
}

const text = (n: number, c: string) => c.repeat(n);

test('replies up to WS_WHOLE_REPLY_BYTES go whole while the socket takes them; a larger one goes in fragments, and what the socket does not take waits in the outbox, not in uWS', (t) => {
  const s = fakeSocket(4 * WS_FRAGMENT_BYTES + 100);
  const box = new WsOutbox();
  t.is(box.write(s.ws, 'small'), 1);
  const large = Buffer.from(text(20 * WS_FRAGMENT_BYTES, 'a'));
  t.is(box.write(s.ws, large), 0, 'it waits for the socket');
  t.deepEqual(
    s.frames.map((f) => f.kind),
    ['whole', 'first', 'middle', 'middle', 'middle', 'middle'],
    'fragments until uWS holds some of one',
  );
  t.true(s.frames.slice(1).every((f) => f.bytes.length === WS_FRAGMENT_BYTES));
  t.true(s.copied() < WS_FRAGMENT_BYTES, `uWS copied ${s.copied()} bytes: part of one fragment`);
  t.is(box.bytes, large.length - 5 * WS_FRAGMENT_BYTES, 'the rest is counted as held here');
  // The client reads: the outbox writes on each time the socket drains.
  for (let i = 0; i < 10 && box.bytes > 0; i++) {
    s.read();
    box.drain(s.ws);
  }
  t.is(box.bytes, 0);
  t.deepEqual(s.messages(), ['small', large.toString()]);
  // With nothing held, a reply of WS_WHOLE_REPLY_BYTES is one frame.
  const whole = fakeSocket(1 << 30);
  t.is(new WsOutbox().write(whole.ws, text(WS_WHOLE_REPLY_BYTES, 'w')), 1);
  t.deepEqual(whole.frames.map((f) => f.kind), ['whole']);
});

test('fragments stay under 16 KiB, where uWS 20.30 may write a frame header twice', (t) => {
  t.true(WS_FRAGMENT_BYTES + 4 < 16 * 1024);
});

test('replies after a held one wait behind it, in order, and leave in fragments when large; one in the reply slab is copied out and its slot let go at once', (t) => {
  const s = fakeSocket(WS_FRAGMENT_BYTES);
  const box = new WsOutbox();
  const first = text(3 * WS_WHOLE_REPLY_BYTES, 'x');
  box.write(s.ws, first);
  const ended: boolean[] = [];
  const leased = Object.assign(new LeasedBytes(Buffer.from('{"id":2,"result":"in the slab"}')), {
    lease: { slot: 0, done: false, end: () => ended.push(true) },
  });
  t.is(box.write(s.ws, leased), 0);
  const third = text(WS_WHOLE_REPLY_BYTES, 'y');
  t.is(box.write(s.ws, third), 0);
  t.deepEqual(ended, [true], 'the slab slot is let go although the reply still waits');
  t.is(s.messages().length, 0, 'nothing whole has left yet');
  while (box.bytes > 0) {
    s.read();
    box.drain(s.ws);
  }
  t.deepEqual(s.messages(), [first, '{"id":2,"result":"in the slab"}', third]);
  t.true(
    s.frames.every((f) => f.bytes.length <= WS_FRAGMENT_BYTES),
    'what waited left in frames under 16 KiB',
  );
});

test('a large text reply (a front-end handler\'s) is written in fragments of its UTF-8 bytes', (t) => {
  const s = fakeSocket(1 << 30);
  const box = new WsOutbox();
  const reply = text(WS_WHOLE_REPLY_BYTES + 1, 'é');
  t.is(box.write(s.ws, reply), 1);
  t.is(s.frames.reduce((n, f) => n + f.bytes.length, 0), 2 * (WS_WHOLE_REPLY_BYTES + 1), 'two bytes a character');
  t.is(s.frames.length, Math.ceil((2 * (WS_WHOLE_REPLY_BYTES + 1)) / WS_FRAGMENT_BYTES));
  t.deepEqual(s.messages(), [reply]);
});

test('a dropped fragment stops the writing (uWS closes the socket); clear lets go of what is held', (t) => {
  const s = fakeSocket(0, WS_FRAGMENT_BYTES / 2);
  const box = new WsOutbox();
  t.is(box.write(s.ws, text(2 * WS_WHOLE_REPLY_BYTES, 'z')), DROPPED);
  const ended: boolean[] = [];
  const leased = Object.assign(new LeasedBytes(4), { lease: { slot: 0, done: false, end: () => ended.push(true) } });
  box.write(s.ws, leased);
  t.true(box.bytes > 0);
  box.clear();
  t.is(box.bytes, 0);
  t.deepEqual(ended, [true]);
});

test('a turn writes at most WS_WRITE_TURN_BYTES of a large reply, however much the socket would take; the rest goes in later turns, in order', (t) => {
  const s = fakeSocket(1 << 30);
  const box = new WsOutbox();
  const large = Buffer.from(text(10 * WS_WRITE_TURN_BYTES, 'z'));
  t.is(box.write(s.ws, large), MORE, 'the socket would take it all, but the turn\'s share is written');
  const written = () => s.frames.reduce((n, f) => n + f.bytes.length, 0);
  t.true(written() >= WS_WRITE_TURN_BYTES && written() < WS_WRITE_TURN_BYTES + WS_FRAGMENT_BYTES, `${written()} bytes in the first turn`);
  t.is(box.write(s.ws, 'after'), MORE, 'a later reply waits behind it');
  for (let turn = 0, status = MORE; status === MORE; turn++) {
    const before = written();
    status = box.drain(s.ws);
    t.true(written() - before < WS_WRITE_TURN_BYTES + WS_FRAGMENT_BYTES, `turn ${turn}: ${written() - before} bytes`);
    t.true(turn < 20);
  }
  t.is(box.bytes, 0);
  t.deepEqual(s.messages(), [large.toString(), 'after']);
});

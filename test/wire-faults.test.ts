// What the transport does with requests and frames that break the wire protocols' rules, over raw
// sockets: conflicting HTTP framing is refused, a ping flood closes the WebSocket, and what
// uWebSockets.js itself does with the rest (README "Wire protocol limits": unmasked frames, invalid
// UTF-8, the idle and buffered-bytes closes, which end the connection without a close frame) never
// stops the node.
import test from 'ava';
import net from 'node:net';
import crypto from 'node:crypto';
import { startTestNode } from './helpers/node.js';
import { connectWs, httpPost } from './helpers/clients.js';

const BODY = '{"id":1,"method":"get_chain_id","params":[]}';

/**
 * Writes `text` on a fresh connection (and `then`, once the server has answered the first write's
 * headers: a WebSocket's frames after its handshake); resolves with everything read until the
 * server closes the connection or `ms` pass.
 */
function exchange(port: number, text: string | Buffer, ms = 3000, then?: Buffer): Promise<{ data: string; closed: boolean }> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let data = '';
    let sent = then === undefined;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve({ data, closed });
    };
    const timer = setTimeout(() => done(false), ms);
    s.on('data', (d) => {
      data += d.toString('latin1');
      if (!sent && data.includes('\r\n\r\n')) {
        sent = true;
        s.write(then!);
      }
    });
    s.on('close', () => done(true));
    s.on('error', () => undefined);
    s.write(text);
  });
}

const post = (headers: string, body = BODY) => `POST /rpc HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body}`;

test('two different Content-Length headers are refused with 400 and a JSON-RPC error, and the connection closes', async (t) => {
  const { port } = await startTestNode(t);
  const r = await exchange(port, post(`Content-Length: ${BODY.length}\r\nContent-Length: 5\r\n`));
  t.true(r.closed, 'the server closes the connection');
  t.regex(r.data, /^HTTP\/1\.1 400 /);
  t.regex(r.data, /"code":-32600,"message":"Invalid HTTP request: its Content-Length headers conflict or are not a number"/);
});

test('a Content-Length that is not a number is refused with 400; the same length given twice is accepted', async (t) => {
  const { port } = await startTestNode(t);
  const bad = await exchange(port, post(`Content-Length: ${BODY.length}\r\nContent-Length: 4x\r\n`));
  t.regex(bad.data, /^HTTP\/1\.1 400 /);
  t.true(bad.closed);
  const same = await exchange(port, post(`Content-Length: ${BODY.length}\r\nContent-Length: ${BODY.length}\r\n`), 1500);
  t.regex(same.data, /^HTTP\/1\.1 200 /);
  t.regex(same.data, /"result":"[0-9a-f]{64}"/);
});

/** A client frame: masked unless told otherwise (RFC 6455 §5.3). */
function frame(opcode: number, payload: Buffer | string): Buffer {
  const body = Buffer.from(payload);
  const key = crypto.randomBytes(4);
  for (let i = 0; i < body.length; i++) body[i]! ^= key[i % 4]!;
  const length = body.length < 126 ? Buffer.from([0x80 | body.length]) : Buffer.from([0x80 | 126, body.length >> 8, body.length & 255]);
  return Buffer.concat([Buffer.from([0x80 | opcode]), length, key, body]);
}

/** Server frames in `data` (after the handshake): opcodes, and the close code if any. */
function serverFrames(raw: string): { pongs: number; texts: number; close?: number; reason?: string } {
  const buf = Buffer.from(raw, 'latin1');
  let i = buf.indexOf('\r\n\r\n') + 4;
  const out: { pongs: number; texts: number; close?: number; reason?: string } = { pongs: 0, texts: 0 };
  while (i + 2 <= buf.length) {
    const op = buf[i]! & 15;
    let len = buf[i + 1]! & 127;
    let off = i + 2;
    if (len === 126) {
      len = buf.readUInt16BE(off);
      off += 2;
    }
    if (op === 10) out.pongs++;
    if (op === 1) out.texts++;
    if (op === 8 && len >= 2) {
      out.close = buf.readUInt16BE(off);
      out.reason = buf.subarray(off + 2, off + len).toString();
    }
    i = off + len;
  }
  return out;
}

const upgrade = () => `GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;

test('ws-max-pings-per-second: a ping flood is answered up to the limit, then the connection is closed with 1008; a few pings are just answered', async (t) => {
  const { port, httpUrl } = await startTestNode(t, { 'ws-max-pings-per-second': '10' });
  const r = await exchange(port, upgrade(), 3000, Buffer.concat(Array.from({ length: 1000 }, () => frame(9, 'x'))));
  const frames = serverFrames(r.data);
  t.is(frames.close, 1008);
  t.is(frames.reason, 'too many pings: --ws-max-pings-per-second');
  t.true(frames.pongs <= 11, `${frames.pongs} pongs before the close`);
  t.true(r.closed);
  // A client that pings now and then, and calls, is served.
  const polite = await exchange(port, upgrade(), 1500, Buffer.concat([frame(9, 'a'), frame(9, 'b'), frame(1, BODY)]));
  const seen = serverFrames(polite.data);
  t.is(seen.pongs, 2);
  t.is(seen.texts, 1);
  t.is(seen.close, undefined);
  t.is((await httpPost(httpUrl, BODY)).status, 200, 'the node serves on');
});

test('frames uWebSockets.js refuses on its own (invalid UTF-8) close only that connection; the node serves on', async (t) => {
  const { port, httpUrl } = await startTestNode(t);
  const r = await exchange(port, upgrade(), 3000, frame(1, Buffer.from([0x22, 0xff, 0xfe, 0x22])));
  t.true(r.closed, 'the connection is closed');
  t.is((await httpPost(httpUrl, BODY)).status, 200);
});

/** A raw WebSocket connection after its handshake: everything the server sent since, and whether it has closed. */
async function rawWs(t: import('ava').ExecutionContext, port: number) {
  const s = net.connect(port, '127.0.0.1');
  t.teardown(() => void s.destroy());
  let raw = Buffer.alloc(0);
  let closed = false;
  const whenClosed = new Promise<void>((r) => s.once('close', () => r()));
  void whenClosed.then(() => (closed = true));
  s.on('error', () => undefined);
  s.on('data', (d) => (raw = Buffer.concat([raw, d])));
  s.write(upgrade());
  while (!raw.includes('\r\n\r\n')) {
    if (closed) throw new Error('closed during the handshake');
    await new Promise((r) => s.once('data', r));
  }
  const start = raw.indexOf('\r\n\r\n') + 4;
  if (!raw.toString('latin1').startsWith('HTTP/1.1 101 ')) throw new Error(`no upgrade: ${raw.toString('latin1')}`);
  return {
    socket: s,
    /** the server's bytes after the handshake */
    after: () => raw.subarray(start),
    get closed() {
      return closed;
    },
    whenClosed,
  };
}

/** The opcodes of whole server frames in `buf` (any length form); a cut-off last frame is left out. */
function opcodes(buf: Buffer): number[] {
  const out: number[] = [];
  let i = 0;
  while (i + 2 <= buf.length) {
    let len = buf[i + 1]! & 127;
    let off = i + 2;
    if (len === 126) {
      if (off + 2 > buf.length) break;
      len = buf.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      if (off + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(off));
      off += 8;
    }
    if (off + len > buf.length) break;
    out.push(buf[i]! & 15);
    i = off + len;
  }
  return out;
}

/** A text frame without a mask, which RFC 6455 §5.1 forbids a client to send. */
const unmasked = (payload: string): Buffer => Buffer.concat([Buffer.from([0x81, Buffer.byteLength(payload)]), Buffer.from(payload)]);

test('an unmasked client frame is not refused with 1002: uWS 20.30 takes its first 4 payload bytes as the mask key, so the connection goes silent, and the next frame closes it without a close frame (1006); other connections are served throughout', async (t) => {
  const { port, httpUrl, wsUrl } = await startTestNode(t);
  const other = await connectWs(t, wsUrl);
  const c = await rawWs(t, port);
  c.socket.write(unmasked(BODY));
  // Meanwhile another WebSocket and an HTTP client are answered, more than once.
  for (let i = 0; i < 3; i++) {
    t.regex(JSON.stringify(await other.call({ id: i, method: 'get_chain_id', params: [] })), /"result":"[0-9a-f]{64}"/);
    t.is((await httpPost(httpUrl, BODY)).status, 200);
  }
  // uWS waits for the 4 bytes it still takes for the frame's payload: no reply, no close.
  t.false(c.closed, 'the connection is still open after one unmasked frame');
  t.is(c.after().length, 0, 'and nothing was answered');
  // The second frame completes the first as garbage (its unmasked bytes are not UTF-8 JSON) and what
  // is left is no frame: uWS drops the connection.
  c.socket.write(unmasked(BODY));
  await c.whenClosed;
  t.deepEqual(opcodes(c.after()), [], 'closed without a close frame (the client sees 1006) and without a reply');
  t.regex(JSON.stringify(await other.call({ id: 9, method: 'get_chain_id', params: [] })), /"result":"[0-9a-f]{64}"/);
  t.is((await httpPost(httpUrl, BODY)).status, 200);
});

test('--ws-idle-timeout: uWS pings a WebSocket that sends nothing and closes it, without a close frame (the client sees 1006), when no pong comes', async (t) => {
  // 8 s is the least idle timeout uWS takes.
  const { port, httpUrl } = await startTestNode(t, { 'ws-idle-timeout': '8' });
  const c = await rawWs(t, port);
  await c.whenClosed;
  const ops = opcodes(c.after());
  t.true(ops.length > 0 && ops.every((op) => op === 9), `pings, then the end with no close frame: ${ops.join(',')}`);
  t.is((await httpPost(httpUrl, BODY)).status, 200);
});

test('--ws-max-buffered-bytes: uWS closes a WebSocket whose unread replies pass the limit without a close frame (the client sees 1006); the node counts it and serves on', async (t) => {
  // The other limits on a client that does not read are lifted, so that this one is met first.
  const { port, httpUrl } = await startTestNode(t, {
    'ws-max-buffered-bytes': '65536',
    'max-unread-bytes-per-connection': '1073741824',
    'max-pending-calls-per-connection': '100000',
    'max-calls-per-second': '0',
    'max-queued-calls': '100000',
  });
  const c = await rawWs(t, port);
  c.socket.pause();
  const call = JSON.stringify({ id: 2, method: 'get_objects', params: [['2.0.0', '2.1.0', '1.3.0', '1.2.0', '1.2.1', '1.2.2', '1.2.3', '1.2.4', '1.2.5', '1.2.6']] });
  c.socket.write(Buffer.concat(Array.from({ length: 3000 }, () => frame(1, call))));
  // The node counts the close; the client, not reading, learns of it only when it reads again.
  const closes = async () => Number(/graphene_rpc_backpressure_closes_total\{limit="ws-max-buffered-bytes"\} (\d+)/.exec(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())?.[1] ?? 0);
  while ((await closes()) === 0) await new Promise((r) => setTimeout(r, 50));
  c.socket.resume();
  await c.whenClosed;
  const ops = opcodes(c.after());
  t.true(ops.length > 0 && ops.every((op) => op === 1), `replies, then the end with no close frame: ${ops.filter((op) => op !== 1).join(',') || 'none other'}`);
  t.is((await httpPost(httpUrl, BODY)).status, 200);
});

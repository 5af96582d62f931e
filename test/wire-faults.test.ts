// What the transport does with requests and frames that break the wire protocols' rules, over raw
// sockets: conflicting HTTP framing is refused, a ping flood closes the WebSocket, and what
// uWebSockets.js itself does with the rest (README "Wire protocol limits") never stops the node.
import test from 'ava';
import net from 'node:net';
import crypto from 'node:crypto';
import { startTestNode } from './helpers/node.js';
import { httpPost } from './helpers/clients.js';

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
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | body.length]), key, body]);
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

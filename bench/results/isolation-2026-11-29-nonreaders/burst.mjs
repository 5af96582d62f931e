// Issue 31 (d) measurement: N WebSocket clients that never read each send M get_blocks over full
// blocks at once; a neighbour (another address) calls once every 100 ms over WS and over HTTP.
// usage: node nonreaders.mjs CHECKOUT DATADIR [N] [M] [seconds] [extra serve args...]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import path from 'node:path';

const [checkout, dataDir, nArg = '20', mArg = '50', secArg = '10', ...extra] = process.argv.slice(2);
const require = createRequire(path.join(checkout, 'package.json'));
const WebSocket = require('ws');
const N = Number(nArg), M = Number(mArg), SECONDS = Number(secArg);
const port = 19000 + Math.floor(Math.random() * 900);
const node = spawn(process.execPath, [...(process.env.TRACE_GC ? ['--trace-gc'] : []), ...(process.env.NODE_FLAGS ? process.env.NODE_FLAGS.split(' ') : []), path.join(checkout, 'bin/graphene-rpc.js'), 'serve', '--data-dir', dataDir, '--rpc-endpoint', `127.0.0.1:${port}`, '--block-interval', '0', '--api-access', path.join(checkout, 'config/api-access.read-sets.json'), '--log-level', 'info', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
let gcArmed = false; let gcBy = {}; let firstIso;
const lineReader = () => { let out = ''; return (d) => {
  out += d.toString();
  let i;
  while ((i = out.indexOf('\n')) >= 0) {
    const l = out.slice(0, i);
    out = out.slice(i + 1);
    const iso = /^\[\d+:(0x[0-9a-f]+)\]/.exec(l)?.[1];
    if (iso && gcArmed && process.env.GC_LINES && !iso.startsWith('0x7f')) console.log(l);
    if (iso && gcArmed) {
      const g = (gcBy[iso] ??= { mc: 0, sc: 0, mcMs: 0, scMs: 0, mcMax: 0, scMax: 0 });
      const ms = Number(/, ([\d.]+) \/ [\d.]+ ms/.exec(l)?.[1] ?? 0);
      if (/Mark-Compact|Mark-sweep/i.test(l)) { g.mc++; g.mcMs += ms; g.mcMax = Math.max(g.mcMax, ms); }
      else if (/Scavenge/.test(l)) { g.sc++; g.scMs += ms; g.scMax = Math.max(g.scMax, ms); }
    }
    else if (process.env.SHOW_LOG && (/"level":[45]/.test(l) || l.startsWith("DBG") || /does not read/.test(l))) console.log(l.slice(0, 300));
    if (/serving JSON-RPC/.test(l)) ready();
  }
}; };
let ready;
const started = new Promise((r) => (ready = r));
node.stdout.on('data', lineReader());
node.stderr.on('data', lineReader());
await started;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${node.pid}/status`, 'utf8'))[1]) / 1024;
const url = `ws://127.0.0.1:${port}/ws`;
const metric = async (name) => {
  const text = await new Promise((resolve) => http.get(`http://127.0.0.1:${port}/metrics`, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve(b)); }));
  return text.split('\n').filter((l) => l.startsWith(name)).join(' | ');
};

function pct(a, p) { const s = [...a].sort((x, y) => x - y); return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 100) / 100 : NaN; }

// The neighbour, from 127.0.0.2: WS and HTTP, one call every 100 ms each, latency from the scheduled time.
let t0 = 0;
async function neighbour(ms) {
  const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: '127.0.0.2' });
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: '127.0.0.2' });
  const wsLat = [], httpLat = [], slow = [];
  let errors = 0, wsPending = new Map();
  ws.on('message', (d) => { const t = d.toString(); const id = Number(/"id":(\d+)/.exec(t)?.[1]); const at = wsPending.get(id); if (at === undefined) return; wsPending.delete(id); if (t.includes('"error"')) errors++; const l = performance.now() - at; wsLat.push(l); if (l > 25) slow.push(`ws@${Math.round(at - t0)}:${Math.round(l)}`); });
  ws.on('close', () => errors++);
  const body = (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'get_accounts', params: [[`1.2.${17 + (i % 50)}`]] });
  const httpCall = (i, at) => new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => { if (res.statusCode !== 200 || b.includes('"error"')) errors++; const l = performance.now() - at; httpLat.push(l); if (l > 25) slow.push(`http@${Math.round(at - t0)}:${Math.round(l)}`); resolve(); }); });
    req.on('error', () => { errors++; resolve(); });
    req.end(body(i));
  });
  const n = Math.floor(ms / 100);
  t0 = performance.now();
  const inflight = [];
  for (let i = 0; i < n; i++) {
    const at = t0 + i * 100;
    const w = at - performance.now();
    if (w > 0) await new Promise((r) => setTimeout(r, w));
    wsPending.set(1000 + i, at);
    ws.send(body(1000 + i));
    inflight.push(httpCall(i, at));
  }
  await Promise.all(inflight);
  const until = performance.now() + 3000;
  while (wsPending.size && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
  errors += wsPending.size;
  ws.terminate();
  agent.destroy();
  return { ws: { p50: pct(wsLat, 50), p99: pct(wsLat, 99), max: pct(wsLat, 100), n: wsLat.length }, http: { p50: pct(httpLat, 50), p99: pct(httpLat, 99), max: pct(httpLat, 100), n: httpLat.length }, errors, slow: slow.join(' ') };
}

let rssMax = rss();
const sampler = setInterval(() => { try { rssMax = Math.max(rssMax, rss()); } catch {} }, 25);
const idle = await neighbour(3000);
console.log('idle', JSON.stringify(idle), 'rss', Math.round(rss()));
// The attackers, in a thread of their own.
const attackSrc = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.ws);
const { url, N, M, body } = workerData;
const socks = [];
let opened = 0, closedByNode = {}, got = 0, errs = 0;
for (let c = 0; c < N; c++) {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  socks.push(ws);
  ws.on('open', () => { ws.pause(); for (let i = 0; i < M; i++) ws.send(body); if (++opened === N) parentPort.postMessage('sent'); });
  ws.on('message', (d) => { if (d.length < 65536 && d.toString().includes('"error"')) errs++; else got++; });
  ws.on('close', (code) => { if (!ws.ours) closedByNode[code] = (closedByNode[code] || 0) + 1; });
  ws.on('error', () => {});
}
parentPort.on('message', async (m) => {
  if (m === 'read') { for (const s of socks) s.resume(); return; }
  for (const s of socks) { s.ours = true; s.terminate(); }
  parentPort.postMessage({ got, errs, closedByNode });
});`;
const attack = new Worker(attackSrc, { eval: true, workerData: { ws: require.resolve('ws'), url, N, M, body: JSON.stringify({ id: 1, method: 'call', params: ['block', 'get_blocks', [1, 49]] }) } });
await new Promise((r) => attack.once('message', r));
rssMax = rss();
gcBy = {}; gcArmed = true;
const tA = performance.now();
const during = await neighbour(SECONDS * 1000);
const secs = (performance.now() - tA) / 1000;
gcArmed = false; const gc = gcBy;
console.log('metrics:', await metric('graphene_rpc_buffered_bytes'), '|', await metric('graphene_rpc_pool_queued_calls'), '|', await metric('graphene_rpc_backpressure_closes_total'));
for (const extraName of (process.env.METRICS ?? '').split(',').filter(Boolean)) console.log(await metric(extraName));
attack.postMessage('read');
await new Promise((r) => setTimeout(r, 3000));
attack.postMessage('stop');
const outcome = await new Promise((r) => attack.once('message', r));
await attack.terminate();
clearInterval(sampler);
console.log('attack', JSON.stringify(during), 'rssMaxMiB', Math.round(rssMax), 'secs', secs.toFixed(1), process.env.TRACE_GC ? 'gc ' + JSON.stringify(gc) : '', 'attackers', JSON.stringify(outcome));
node.kill('SIGTERM');

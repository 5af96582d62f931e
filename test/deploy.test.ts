// deploy/: the systemd unit and the HAProxy example agree with the node's defaults and with each
// other, the health check they configure is answered by a real node, and each file passes its own
// tool's check where the tool is installed (systemd-analyze verify, haproxy -c).
import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTIONS } from '../src/config.js';
import { WORKER_CLOSE_TIMEOUT_MS } from '../src/tuning.js';
import { headAtLeast } from './helpers/blocks.js';
import { startTestNode } from './helpers/node.js';
import { freePort } from './helpers/ports.js';
import { haveHaproxy, SHIPPED_HAPROXY_CFG, startHaproxy, untilServed } from './helpers/haproxy.js';
import { tempDir } from './helpers/temp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const unit = readFileSync(path.join(root, 'deploy/graphene-rpc.service'), 'utf8');
const followerUnit = readFileSync(path.join(root, 'deploy/graphene-rpc-follower@.service'), 'utf8');
const haproxy = SHIPPED_HAPROXY_CFG;

const defaultOf = (name: string) => Number(OPTIONS.find((o) => o.name === name)!.default);
/** The values of a unit key (`Key=value` lines, continuation lines joined). */
const unitValues = (key: string) =>
  unit
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1).trim());
const unitValue = (key: string) => {
  const values = unitValues(key);
  if (values.length !== 1) throw new Error(`${key}= appears ${values.length} times in the unit`);
  return values[0]!;
};
/** HAProxy durations as written here: 5s, 30s, 1h. */
const seconds = (d: string) => Number(d.slice(0, -1)) * { s: 1, m: 60, h: 3600 }[d.slice(-1) as 's' | 'm' | 'h'];
const haproxyTimeout = (name: string) => seconds(new RegExp(`^\\s*timeout ${name} (\\S+)$`, 'm').exec(haproxy)![1]!);

function which(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('the unit stops with SIGTERM, waits longer than the drain bound, reloads with SIGHUP, restarts on failure', (t) => {
  t.is(unitValue('KillSignal'), 'SIGTERM');
  // The longest an orderly stop takes: the drain, then a worker stuck in a call (pool close timeout).
  const drainBound = (defaultOf('shutdown-drain-ms') + WORKER_CLOSE_TIMEOUT_MS) / 1000;
  t.true(Number(unitValue('TimeoutStopSec')) > drainBound, `TimeoutStopSec above ${drainBound} s`);
  t.is(unitValue('ExecReload'), '/bin/kill -HUP $MAINPID');
  t.is(unitValue('Restart'), 'on-failure');
  t.not(unitValue('User'), 'root');
  t.is(unitValue('NoNewPrivileges'), 'yes');
  t.is(unitValue('ProtectSystem'), 'strict');
  // The data directory it serves is the one it may write.
  const dataDir = /--data-dir (\S+)/.exec(unitValue('ExecStart'))![1]!;
  t.true(unitValue('ReadWritePaths').split(/\s+/).includes(dataDir));
  t.is(`/var/lib/${unitValue('StateDirectory')}`, dataDir);
});

test('HAProxy checks /ready on the followers\' addresses, the followers follow the producing unit, timeouts are above the node\'s own', (t) => {
  t.regex(haproxy, /^\s*option httpchk GET \/ready HTTP\/1\.1$/m);
  t.regex(haproxy, /^\s*http-check expect status 200$/m);
  t.regex(haproxy, /^\s*default-server .*on-marked-down shutdown-sessions/m);
  const endpoint = /--rpc-endpoint (\S+)/.exec(unitValue('ExecStart'))![1]!;
  const follower = followerUnit.replace(/\\\n\s*/g, ' ');
  t.is(/--follow (\S+)/.exec(follower)![1], `ws://${endpoint}/ws`, 'followers follow the producing node');
  // instance N of the template listens on the address of HAProxy's replicaN
  const template = /--rpc-endpoint (\S+)/.exec(follower)![1]!;
  const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+) check$/gm)].map((m) => [m[1], m[2]]);
  t.deepEqual(servers, [1, 2].map((n) => [`replica${n}`, template.replace('%i', String(n))]));
  t.false(servers.some(([, address]) => address === endpoint), 'the producing node is not behind the proxy');
  t.true(unitValue('ExecStart').includes('--trusted-proxies 127.0.0.1'), 'the node believes the local proxy\'s X-Forwarded-For');
  t.regex(haproxy, /^\s*option forwardfor$/m);
  t.true(haproxyTimeout('server') > defaultOf('call-budget-ms') / 1000);
  t.true(haproxyTimeout('tunnel') > defaultOf('ws-idle-timeout'));
});

test('HAProxy refuses /metrics on the public port, in its frontend', (t) => {
  const frontend = /^frontend [^\n]*\n((?:[ \t]+[^\n]*\n|\n)*)/m.exec(haproxy)![1]!;
  const rules = frontend.split('\n').filter((l) => /^\s*http-request deny\b/.test(l));
  t.true(
    rules.some((l) => /if \{ path \/metrics \}$/.test(l.trim())),
    `an unconditional deny of path /metrics; found: ${rules.join(' | ')}`,
  );
});

test('the health check request HAProxy sends, byte for byte, gets 200 from a real node', async (t) => {
  const node = await startTestNode(t, { 'block-interval': '1' });
  const { port } = node;
  // A new chain's head is its genesis time: the node is ready once its first block is made.
  await headAtLeast(node, 1);
  const [, method, uri, version] = /^\s*option httpchk (\S+) (\S+) (\S+)$/m.exec(haproxy)!;
  const headers = [...haproxy.matchAll(/^\s*http-check send hdr (\S+) (\S+)$/gm)].map((m) => `${m[1]}: ${m[2]}\r\n`);
  const request = `${method} ${uri} ${version}\r\n${headers.join('')}\r\n`;
  const status = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      if (text.includes('\r\n')) {
        resolve(text.split('\r\n')[0]!);
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
  t.is(status, 'HTTP/1.1 200 OK');
});

const haveSystemd = which('systemd-analyze');
(haveSystemd ? test : test.skip)(`systemd-analyze verify accepts the unit${haveSystemd ? '' : ' — skipped: systemd-analyze is not installed'}`, async (t) => {
  // verify also checks that ExecStart exists: point it at this checkout's bin instead of /opt.
  const dir = tempDir(t);
  const file = path.join(dir, 'graphene-rpc.service');
  writeFileSync(file, unit.replace('/opt/graphene-rpc/node_modules/.bin/graphene-rpc', path.join(root, 'bin/graphene-rpc.js')));
  const r = await new Promise<{ code: number; out: string }>((resolve) =>
    execFile('systemd-analyze', ['verify', file], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr })),
  );
  t.is(r.code, 0, r.out);
  t.is(r.out.trim(), '', 'no warnings');
});

(haveHaproxy ? test : test.skip)(`haproxy -c accepts deploy/haproxy.cfg${haveHaproxy ? '' : ' — skipped: haproxy is not installed'}`, async (t) => {
  const r = await new Promise<{ code: number; out: string }>((resolve) =>
    execFile('haproxy', ['-c', '-f', path.join(root, 'deploy/haproxy.cfg')], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr })),
  );
  t.is(r.code, 0, r.out);
});

(haveHaproxy ? test : test.skip)(`HAProxy with deploy/haproxy.cfg in front of a real node passes JSON-RPC, /ready and /health and answers /metrics with 403${haveHaproxy ? '' : ' — skipped: haproxy is not installed'}`, async (t) => {
  const node = await startTestNode(t, { 'block-interval': '0' });
  // The example as shipped, on a free loopback port, both replicas this node.
  const h = startHaproxy(t, { front: await freePort(), servers: [node.port, node.port] });
  const port = h.front;
  const base = `http://127.0.0.1:${port}`;
  const status = (url: string) => fetch(url).then((r) => r.status, () => 0);
  // HAProxy sends traffic once its health checks pass (rise 2, every 2 s).
  await untilServed(h, `${base}/health`);
  t.is(await status(`${base}/ready`), 200);
  t.is(await status(`${base}/metrics`), 403);
  t.is(await status(`${base}/metrics?name=x`), 403);
  t.is(await status(`http://127.0.0.1:${node.port}/metrics`), 200, 'the node serves its metrics to whoever reaches it directly');
  const reply = await fetch(`${base}/`, { method: 'POST', body: '{"id":1,"method":"get_chain_id","params":[]}' });
  t.is(((await reply.json()) as { result: string }).result, node.node.chainId);
});

(haveHaproxy ? test : test.skip)(`behind deploy/haproxy.cfg, pipelined requests are answered in order and two Content-Length headers get HAProxy's 400 (README "Behind a proxy")${haveHaproxy ? '' : ' — skipped: haproxy is not installed'}`, async (t) => {
  const node = await startTestNode(t, { 'block-interval': '1' });
  await headAtLeast(node, 1);
  const h = startHaproxy(t, { front: await freePort(), servers: [node.port, node.port] });
  const front = h.front;
  // HAProxy sends traffic once its health check finds the node ready.
  await untilServed(h, `http://127.0.0.1:${front}/ready`);
  const body = '{"id":1,"method":"get_chain_id","params":[]}';
  const post = `POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const until = (text: string, done: (got: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const s = net.connect(front, '127.0.0.1', () => s.write(text));
      let got = '';
      s.setEncoding('latin1');
      s.on('data', (d: string) => {
        got += d;
        if (done(got)) {
          s.destroy();
          resolve(got);
        }
      });
      s.on('close', () => resolve(got));
      s.on('error', reject);
    });
  const results = (got: string) => got.match(/"result":"[0-9a-f]{64}"/g)?.length ?? 0;
  const pipelined = await until(post + post, (got) => results(got) === 2);
  t.deepEqual(pipelined.match(/HTTP\/1\.1 \d+/g), ['HTTP/1.1 200', 'HTTP/1.1 200']);
  t.is(results(pipelined), 2);
  const conflicting = await until(`POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nContent-Length: 5\r\n\r\n${body}`, (got) => got.includes('\r\n\r\n'));
  t.regex(conflicting, /^HTTP\/1\.1 400 /);
  t.notRegex(conflicting, /-32600/, "HAProxy's refusal: the request never reached the node");
});

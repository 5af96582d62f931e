// What the node logs, captured from a real node (helpers/logs.ts): connections opened and closed,
// failed logins, refused calls without flooding, the served line at debug, never a password; and
// --log-format pretty from the CLI.
import test from 'ava';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fixture, startTestNode } from './helpers/node.js';
import { basic, connectWs, httpPost } from './helpers/clients.js';
import { captureLogs } from './helpers/logs.js';
import { CLI } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';
import { LogBudget } from '../src/log.js';

const ACCESS = path.join(fixture('../..'), 'config/api-access.example.json');

test('passwords, Basic credentials and login arguments never reach the log, even at debug level', async (t) => {
  const logs = captureLogs('debug');
  const { httpUrl, wsUrl } = await startTestNode(t, { 'api-access': ACCESS }, logs.log);
  const secrets = ['supersecret', 'hunter2-wrong', 'wrong-basic-pw', 'http-login-pw'];

  const user = await connectWs(t, wsUrl, { authorization: basic('bytemaster', 'supersecret') });
  t.is(typeof (await user.call({ id: 1, method: 'get_chain_id', params: [] })).result, 'string');
  const ws = await connectWs(t, wsUrl);
  t.deepEqual(await ws.call({ id: 1, method: 'call', params: [1, 'login', ['bytemaster', 'hunter2-wrong']] }), { id: 1, result: false });
  t.deepEqual(await ws.call({ id: 2, method: 'call', params: [1, 'login', ['bytemaster', 'supersecret']] }), { id: 2, result: true });
  await httpPost(httpUrl, JSON.stringify({ id: 3, method: 'call', params: [1, 'get_available_api_sets', []] }), { authorization: basic('bytemaster', 'wrong-basic-pw') });
  await httpPost(httpUrl, JSON.stringify({ id: 4, method: 'call', params: [1, 'get_available_api_sets', []] }), { authorization: 'Basic !!!not-base64' });
  t.regex((await httpPost(httpUrl, JSON.stringify({ id: 5, method: 'call', params: [1, 'login', ['bytemaster', 'http-login-pw']] }))).text, /"result":false/);
  await user.close();
  await ws.close();
  await logs.times('connection closed', 2);

  const text = JSON.stringify(logs.lines);
  for (const s of [...secrets, Buffer.from('bytemaster:supersecret').toString('base64'), Buffer.from('bytemaster:wrong-basic-pw').toString('base64'), 'not-base64']) {
    t.false(text.includes(s), `'${s}' is in the log`);
  }
  // What is logged instead: the failed logins (user and address, never the password)…
  const failed = logs.lines.filter((l) => l.msg === 'login failed');
  t.deepEqual(
    failed.map((l) => [l.via, l.user, l.address]),
    [
      ['login', 'bytemaster', '127.0.0.1'],
      ['basic', 'bytemaster', '127.0.0.1'],
      ['basic', undefined, '127.0.0.1'],
      ['login', 'bytemaster', '127.0.0.1'],
    ],
  );
  // …the served line of every call, login included, with its reply's size…
  const served = logs.lines.filter((l) => l.msg === 'served');
  t.is(served.filter((l) => l.method === 'login').length, 3);
  for (const l of served) t.true(typeof l.bytes === 'number' && (l.bytes as number) > 0 && typeof l.ms === 'number' && typeof l.conn === 'number');
  t.true(served.filter((l) => l.address === '127.0.0.1').length === 3, 'HTTP requests carry their address');
  // …and each WebSocket connection, opened and closed.
  t.is(logs.lines.filter((l) => l.msg === 'connection opened' && l.address === '127.0.0.1').length, 2);
  t.true(logs.lines.filter((l) => l.msg === 'connection closed').every((l) => typeof l.code === 'number' && typeof l.seconds === 'number'));
});

test('at debug level each HTTP request logs its start and its answer, and behind --trusted-proxies every connection line names the client from X-Forwarded-For', async (t) => {
  const behind = captureLogs('debug');
  const proxied = await startTestNode(t, { 'trusted-proxies': '127.0.0.1' }, behind.log);
  const direct = captureLogs('debug');
  const plain = await startTestNode(t, {}, direct.log);
  const body = JSON.stringify({ id: 1, method: 'get_chain_id', params: [] });
  for (const node of [proxied, plain]) {
    t.is((await httpPost(node.httpUrl, body, { 'x-forwarded-for': '203.0.113.7' })).status, 200);
    const ws = await connectWs(t, node.wsUrl, { 'x-forwarded-for': '203.0.113.8' });
    t.is(typeof (await ws.call({ id: 1, method: 'get_chain_id', params: [] })).result, 'string');
    await ws.close();
  }
  for (const [logs, http, ws] of [
    [behind, '203.0.113.7', '203.0.113.8'],
    // Not from a trusted proxy: the header is not believed, the peer's address is logged.
    [direct, '127.0.0.1', '127.0.0.1'],
  ] as const) {
    const received = await logs.once('HTTP request received');
    const answered = await logs.once('HTTP request answered');
    t.is(received.address, http);
    t.is(answered.address, http);
    t.is(answered.conn, received.conn);
    t.is(answered.status, 200);
    t.is(typeof answered.seconds, 'number');
    t.is((await logs.once('connection opened')).address, ws);
    t.is((await logs.once('connection closed')).address, ws);
  }
  // At info level, none: they are the hot path's.
  const quiet = captureLogs('info');
  const info = await startTestNode(t, {}, quiet.log);
  await httpPost(info.httpUrl, body);
  t.false(quiet.lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('HTTP request')));
});

test('a flood of refused calls is logged as its first refusal, then a count at most once a second, and the rest at close', async (t) => {
  const logs = captureLogs('info');
  const { wsUrl } = await startTestNode(t, { 'max-calls-per-second': '20', 'max-pending-calls-per-connection': '10000' }, logs.log);
  const ws = await connectWs(t, wsUrl);
  for (let i = 0; i < 300; i++) ws.send(JSON.stringify({ id: i, method: 'get_chain_id', params: [] }));
  let refused = 0;
  for (let i = 0; i < 300; i++) if (JSON.parse(await ws.next()).error?.code === -32013) refused++;
  t.true(refused >= 200, `${refused} refused`);
  await ws.close();
  await logs.once('connection closed');

  const lines = logs.lines.filter((l) => l.msg === 'call refused by a limit');
  t.like(lines[0], { limit: 'max-calls-per-second', code: -32013, api: 'database', method: 'get_chain_id', unlogged: 0 });
  t.true(lines.length < refused / 4, `${lines.length} lines for ${refused} refusals`);
  // Every refusal is accounted for: each line's own, those it says were not logged, and the rest at close.
  const atClose = logs.lines.find((l) => l.msg === 'calls refused by a limit since the last line');
  const accounted = lines.reduce((n, l) => n + 1 + (l.unlogged as number), 0) + ((atClose?.unlogged as number | undefined) ?? 0);
  t.is(accounted, refused);
});

test('a refused API set keeps Core\'s bare "Access denied" reply, and the log names the set, the access entry and the --api-access file to grant it in, once per connection and set', async (t) => {
  const logs = captureLogs('info');
  const { wsUrl } = await startTestNode(t, { 'api-access': ACCESS }, logs.log);
  const ws = await connectWs(t, wsUrl);
  for (const id of [1, 2]) {
    const reply = await ws.call({ id, method: 'call', params: [1, 'network_node', []] });
    t.is(reply.error.message, 'Execution error: Assert Exception: is_allowed: Access denied');
  }
  t.like((await ws.call({ id: 3, method: 'call', params: [1, 'login', ['bytemaster', 'supersecret']] })), { result: true });
  t.is(typeof (await ws.call({ id: 4, method: 'call', params: [1, 'network_node', []] })).result, 'number');
  await ws.close();
  await logs.once('connection closed');
  const refused = logs.lines.filter((l) => (l.msg as string).startsWith('API set refused'));
  t.is(refused.length, 1);
  t.like(refused[0], { api: 'network_node_api', entry: '*', apiAccess: path.resolve(ACCESS) });
  t.regex(refused[0]!.msg as string, /grant it .* in the access file \(--api-access\)/);
});

test('LogBudget: the first event at once, then one line per period saying how many were held back', (t) => {
  const b = new LogBudget(1000);
  t.is(b.admit(0), 0);
  t.is(b.admit(10), -1);
  t.is(b.admit(999), -1);
  t.is(b.admit(1000), 2);
  t.is(b.admit(1500), -1);
  t.is(b.drain(), 1);
  t.is(b.drain(), 0);
  t.is(b.admit(5000), 0);
});

test('--log-format pretty writes lines for people; the default is one JSON object a line', async (t) => {
  const run = (format: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'serve', '--rpc-endpoint', '127.0.0.1:0', '--data-dir', tempDir(t), '--workers', '1', '--block-interval', '0', ...format], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no serving line within 30 s: ${out}`));
      }, 30_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('serving JSON-RPC over HTTP and WebSocket'));
        if (!line) return;
        clearTimeout(timer);
        child.once('exit', () => resolve(line));
        child.kill('SIGTERM');
      });
      child.once('error', reject);
    });
  const pretty = await run(['--log-format', 'pretty']);
  t.false(pretty.trimStart().startsWith('{'), pretty);
  t.regex(pretty, /INFO.*serving JSON-RPC over HTTP and WebSocket/);
  const json = await run([]);
  t.like(JSON.parse(json), { level: 30, msg: 'serving JSON-RPC over HTTP and WebSocket' });
});

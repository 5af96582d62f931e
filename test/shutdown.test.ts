// Shutdown as an operator's supervisor does it: real signals to a node in a child process. SIGTERM
// turns /ready 503 at once (seen on a keep-alive connection: the listener no longer accepts), calls in
// flight are answered or, past --shutdown-drain-ms, failed with -32016 before the close, a
// broadcast_transaction_synchronous waiting for a block is answered at once, a second signal exits
// at once, and no block written is lost.
//
// A call that stays in flight for as long as a test needs is a login the login throttle holds: after
// enough failed logins from an address, the next one waits --login-delay-max-ms before it is checked.
import test, { type ExecutionContext } from 'ava';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../src/access.js';
import { serveChild, type ChildNode } from './helpers/child-node.js';
import { basic, connectWs, httpPost } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { checkStore } from './helpers/store-check.js';
import { tempDir } from './helpers/temp.js';

/** Failed logins made before the held one: the delay then is far above any test's length. */
const FAILURES = 13;
const HELD_MS = 600_000;

function accessFile(t: ExecutionContext): string {
  const file = path.join(tempDir(t), 'api-access.json');
  const apis = ['database_api', 'network_broadcast_api', 'debug_api'];
  writeFileSync(
    file,
    JSON.stringify({
      permission_map: [
        ['u', { ...hashPassword('right'), allowed_apis: apis }],
        ['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: apis }],
      ],
    }),
  );
  return file;
}

// One process whatever TEST_SERVING_PROCESSES says: a call is held in flight by the login throttle,
// which each serving process counts on its own (README "Scaling out"), so the failed logins that
// arm it must reach the process that then holds the call. Shutdown of several processes is
// tested in processes.test.ts.
const options = (dataDir: string, access: string, more: string[]) => [
  '--processes',
  '1',
  '--data-dir',
  dataDir,
  '--workers',
  '1',
  '--api-access',
  access,
  '--login-failures-before-delay',
  '1',
  '--login-delay-max-ms',
  String(HELD_MS),
  ...more,
];

async function stop(node: ChildNode): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise((r) => node.child.once('exit', r));
  node.child.kill('SIGKILL');
  await exited;
}

/** Makes the throttle hold the next login from this address for HELD_MS: FAILURES failed logins first. */
async function throttle(node: ChildNode): Promise<void> {
  const fail = () => httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: [1, 'login', ['u', 'wrong']] }));
  await fail();
  // Each waits a little (the failures so far are few), all at once.
  await Promise.all(Array.from({ length: FAILURES - 1 }, fail));
}

/** Waits for the node to say it holds a login for the longest delay. */
const held = (node: ChildNode, n: number) =>
  node.line(() => node.lines.filter((l) => l.msg === 'login attempt delayed' && l.delayMs === HELD_MS).length >= n, `${n} held login(s)`, 60_000);

/** HTTP/1.1 GETs on one kept-alive connection: it stays usable after the listener stops accepting. */
function keepAlive(t: ExecutionContext, port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  t.teardown(() => void socket.destroy());
  let buffer = '';
  let waiting: (() => void) | undefined;
  socket.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    waiting?.();
  });
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return async (uri: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    await opened;
    socket.write(`GET ${uri} HTTP/1.1\r\nHost: graphene-rpc\r\n\r\n`);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      const length = end < 0 ? undefined : /content-length: *(\d+)/i.exec(buffer.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && buffer.length >= end + 4 + Number(length)) {
        const status = Number(buffer.slice(9, 12));
        const body = JSON.parse(buffer.slice(end + 4, end + 4 + Number(length))) as Record<string, unknown>;
        buffer = buffer.slice(end + 4 + Number(length));
        return { status, body };
      }
      if (socket.destroyed) throw new Error('the kept-alive connection closed');
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
}

test('SIGTERM: /ready is 503 at once while calls drain, a second signal exits at once, and every block written is there after a restart', async (t) => {
  const dataDir = tempDir(t);
  const access = accessFile(t);
  const node = await serveChild(options(dataDir, access, ['--block-interval', '1', '--shutdown-drain-ms', String(HELD_MS)]));
  t.teardown(() => stop(node));
  const blocks = () => node.lines.filter((l) => l.msg === 'produced block').map((l) => l.block as number);
  await node.line(() => blocks().length >= 2, 'two blocks', 60_000);
  const get = keepAlive(t, node.port);
  t.is((await get('/ready')).status, 200);

  await throttle(node);
  // A login held for HELD_MS: the drain, bounded by the same, waits for it.
  const ws = await connectWs(t, `ws://127.0.0.1:${node.port}/`);
  ws.send(JSON.stringify({ id: 1, method: 'call', params: [1, 'login', ['u', 'wrong']] }));
  await held(node, 1);

  node.child.kill('SIGTERM');
  await node.line((l) => l.msg === 'shutting down', 'shutting down');
  const draining = await get('/ready');
  t.is(draining.status, 503);
  t.is(draining.body.reason, 'shutting down');
  t.is(node.child.exitCode, null, 'still draining');
  // Production stopped before /ready said so: this head is the last block the node writes.
  const written = draining.body.headBlockNumber as number;
  t.true(written >= Math.max(...blocks()));

  node.child.kill('SIGTERM');
  const exit = await node.ended;
  t.deepEqual(exit, { code: 1, signal: null });
  t.true(node.lines.some((l) => l.msg === 'second signal: stopping at once'));

  const store = await checkStore(dataDir);
  t.deepEqual(store.problems, []);
  t.is(store.head, written, 'every block written is in the store, and nothing of another');
  const again = await serveChild(options(dataDir, access, ['--block-interval', '0']));
  t.teardown(() => stop(again));
  t.is((await rpc(again.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number, written);
});

test('SIGTERM: calls past --shutdown-drain-ms get -32016 before the close, on WebSocket and HTTP; a broadcast_transaction_synchronous waiting for a block gets it at once, and its transaction is dropped', async (t) => {
  const dataDir = tempDir(t);
  const access = accessFile(t);
  const node = await serveChild(options(dataDir, access, ['--block-interval', '0', '--shutdown-drain-ms', '2000']));
  t.teardown(() => stop(node));
  // A head block of now: the transaction's expiration follows it.
  t.is((await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1])).result, null);
  const trx = await signedTx(node.httpUrl, [op.accountCreate('pending-at-shutdown')], [DEV_WIF]);
  // Blocks only on demand: the synchronous broadcast waits for one that does not come.
  const broadcaster = await connectWs(t, `ws://127.0.0.1:${node.port}/`);
  broadcaster.send(JSON.stringify({ id: 7, method: 'call', params: ['network_broadcast', 'broadcast_transaction_synchronous', [trx]] }));
  const pending = async () => (await rpc(node.httpUrl, 'database', 'lookup_account_names', [['pending-at-shutdown']])).result[0] !== null;
  for (const deadline = Date.now() + 60_000; !(await pending()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
  t.true(await pending(), 'the transaction is pending');

  await throttle(node);
  const ws = await connectWs(t, `ws://127.0.0.1:${node.port}/`);
  ws.send(JSON.stringify({ id: 1, method: 'call', params: [1, 'login', ['u', 'wrong']] }));
  // Behind the held login: not read yet when the bound passes.
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'get_chain_id', params: [] }));
  const http = httpPost(node.httpUrl, JSON.stringify({ id: 3, method: 'get_chain_id', params: [] }), { authorization: basic('u', 'wrong') });
  await held(node, 2);

  node.child.kill('SIGTERM');
  const shuttingDown = { code: -32016, message: 'Server is shutting down (the transaction was not included in a block and is dropped)' };
  t.deepEqual(JSON.parse(await broadcaster.next(60_000)), { id: 7, error: shuttingDown });
  // New transactions are refused while the node drains.
  t.deepEqual(await broadcaster.call({ id: 8, method: 'call', params: ['network_broadcast', 'broadcast_transaction', [trx]] }), {
    id: 8,
    error: { code: -32016, message: 'Server is shutting down (transactions are not accepted while it stops)' },
  });

  const pastBound = { code: -32016, message: 'Server is shutting down (not answered within --shutdown-drain-ms, 2000 ms)' };
  t.deepEqual(JSON.parse(await ws.next(60_000)), { id: 1, error: pastBound });
  t.deepEqual(JSON.parse(await ws.next(60_000)), { id: 'after', jsonrpc: '2.0', error: pastBound });
  t.is(await ws.whenClosed(60_000), 1001);
  const reply = await http;
  t.is(reply.status, 503);
  t.deepEqual(JSON.parse(reply.text), { id: 3, error: pastBound });
  t.deepEqual(await node.ended, { code: 0, signal: null });
  const warned = node.lines.find((l) => l.msg === 'calls still in flight after --shutdown-drain-ms were answered with -32016 (server shutting down)');
  t.is(warned?.unanswered, 3, 'the two WebSocket calls and the HTTP request; the broadcast was answered before');

  const again = await serveChild(options(dataDir, access, ['--block-interval', '0']));
  t.teardown(() => stop(again));
  t.deepEqual((await rpc(again.httpUrl, 'database', 'lookup_account_names', [['pending-at-shutdown']])).result, [null], 'dropped, as the error said');
});

// docs/api/deposit-feed.md's consumer, examples/deposit-watcher.mjs, against a real node served
// with the shipped config/api-access.deposits.json: it logs in, gets the set's id, subscribes from
// its stored cursor, prints each transfer and stores its cursor; started again it resumes after the
// last transfer it printed, and a first run without a cursor starts after the head block.
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc } from './helpers/clients.js';
import { headAtLeast } from './helpers/blocks.js';
import { fixture, startTestNode } from './helpers/node.js';
import { tempDir } from './helpers/temp.js';
import { signedTx } from './helpers/tx.js';

const root = fixture('../..');
const script = path.join(root, 'examples/deposit-watcher.mjs');

async function send(httpUrl: string, ...amounts: number[]): Promise<void> {
  const tx = await signedTx(httpUrl, amounts.map((a) => op.transfer('1.2.6', '1.2.0', a)), [DEV_WIF]);
  const r = await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [tx]);
  if (r.error) throw new Error(r.error.message);
}

function run(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [script, ...args], { cwd, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr })),
  );
}

const transferLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('transfer '));

test('examples/deposit-watcher.mjs reads the feed from the chain\'s start, stores its cursor, and resumes after the last transfer it printed', async (t) => {
  const node = await startTestNode(t, { 'api-access': path.join(root, 'config/api-access.deposits.json'), 'block-interval': '1' });
  await headAtLeast(node, 1);
  const dir = tempDir(t);
  const watch = ['--accounts', 'nathan'];
  await send(node.httpUrl, 1, 2);
  const first = await run(dir, [node.wsUrl, ...watch, '--from-start', '--stop-after', '2']);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stdout, /^logged in as exchange; the deposits API is API 2\nsubscribing to nathan from the start of the chain\n/);
  t.deepEqual(
    transferLines(first.stdout).map((l) => l.replace(/block \d+/, 'block N')),
    ['transfer 1.2.6 -> 1.2.0: 1 of 1.3.0, block N, no memo, reversible', 'transfer 1.2.6 -> 1.2.0: 2 of 1.3.0, block N, no memo, reversible'],
  );
  const stored = readFileSync(path.join(dir, 'deposit-cursor.txt'), 'utf8');
  t.regex(first.stdout, new RegExp(`stored cursor ${stored} in deposit-cursor.txt; stopping after 2 transfers\n$`));

  // Restarted: from the stored cursor, the next transfer only.
  await send(node.httpUrl, 3);
  const second = await run(dir, [node.wsUrl, ...watch, '--stop-after', '1']);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stdout, new RegExp(`subscribing to nathan from cursor ${stored}\n`));
  t.deepEqual(transferLines(second.stdout).map((l) => l.replace(/block \d+/, 'block N')), ['transfer 1.2.6 -> 1.2.0: 3 of 1.3.0, block N, no memo, reversible']);
  t.not(readFileSync(path.join(dir, 'deposit-cursor.txt'), 'utf8'), stored);
});

test('examples/deposit-watcher.mjs on a first run without a cursor starts after the head block and stores that position at once', async (t) => {
  const node = await startTestNode(t, { 'api-access': path.join(root, 'config/api-access.deposits.json'), 'block-interval': '1' });
  await headAtLeast(node, 1);
  await send(node.httpUrl, 5);
  await headAtLeast(node, 3);
  const dir = tempDir(t);
  const child = spawn(process.execPath, [script, node.wsUrl, '--accounts', 'nathan', '--stop-after', '1'], { cwd: dir });
  let out = '';
  const started = new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('first run: starting after the head block')) resolve();
    }),
  );
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  await started;
  t.true(existsSync(path.join(dir, 'deposit-cursor.txt')), 'the starting position is stored before any transfer');
  await send(node.httpUrl, 6);
  t.is(await closed, 0, out);
  t.deepEqual(transferLines(out).map((l) => l.replace(/block \d+/, 'block N')), ['transfer 1.2.6 -> 1.2.0: 6 of 1.3.0, block N, no memo, reversible']);
});

test('examples/deposit-watcher.mjs refused the deposits set says what the access file must grant', async (t) => {
  // The default access (no file): every user gets Core's default sets, without deposits_api.
  const node = await startTestNode(t);
  const r = await run(tempDir(t), [node.wsUrl]);
  t.is(r.code, 1);
  t.is(r.stderr.trim(), 'Execution error: Assert Exception: is_allowed: Access denied: the access file must grant deposits_api to exchange (docs/api/deposit-feed.md)');
});

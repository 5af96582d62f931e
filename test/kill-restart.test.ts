// kill -9 at random moments while the node writes blocks (debug_generate_blocks writing them back to
// back, with transactions pending) and while `generate` writes a chain; after each kill the store is
// checked whole (test/helpers/store-check.ts: every block 1..head present and linked, every operation
// of every block present and indexed, nothing of a partial block), then the node is started again
// on it and must serve and go on producing. The kill moments come from a fixed seed (KILL_SEED),
// printed, with a generator of its own for each test, so a failing test can be run again alone
// (`npx ava … --match`) and kills at the same moments.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_WIF, op } from './helpers/chain.js';
import { CLI, killNode, serveChild, type ChildNode } from './helpers/child-node.js';
import { rpc, signedTx } from './helpers/tx.js';
import { checkStore, type StoreCheck } from './helpers/store-check.js';
import { tempDir } from './helpers/temp.js';
import { prng } from '../src/prng.js';

const SEED = Number(process.env.KILL_SEED ?? 9);
/**
 * The kill offsets of one test: the same KILL_SEED kills at the same offsets, and no test's draws
 * depend on which other tests ran before it.
 */
const offsets = (test: 'production' | 'generate') => prng(SEED * 2 + (test === 'production' ? 0 : 1));

function accessFile(t: ExecutionContext): string {
  const file = path.join(tempDir(t, 'graphene-rpc-kill-access-'), 'api-access.json');
  const apis = ['database_api', 'network_broadcast_api', 'history_api', 'debug_api'];
  writeFileSync(file, JSON.stringify({ permission_map: [['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: apis }]] }));
  return file;
}

const startNode = (dataDir: string, access: string): Promise<ChildNode> => serveChild(['--data-dir', dataDir, '--block-interval', '0', '--workers', '1', '--api-access', access]);

async function kill(child: ChildNode['child']): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Keeps the node writing: transfers into the pending pool, then blocks back to back, until stopped. */
function keepWriting(node: ChildNode, stop: () => boolean): Promise<number> {
  return (async () => {
    let sent = 0;
    for (let round = 0; !stop(); round++) {
      try {
        for (let i = 0; i < 3; i++) {
          const trx = await signedTx(node.httpUrl, [round % 2 === 0 ? op.transfer('1.2.6', '1.2.0', 1000 + sent) : op.accountCreate(`kill-${SEED}-${process.pid}-${sent}`)], [DEV_WIF]);
          if ((await rpc(node.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx])).result === null) sent++;
        }
        await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 20]);
      } catch {
        // The node was killed under us: that is the point.
        return sent;
      }
    }
    return sent;
  })();
}

const described = (c: StoreCheck) => `head ${c.head}, ${c.operations} operations, ${c.accounts} accounts`;

test(`kill -9 during block production, again and again (seed ${SEED}): every restart finds a consistent store and goes on`, async (t) => {
  t.timeout(120_000);
  const dataDir = tempDir(t, 'graphene-rpc-kill-');
  const access = accessFile(t);
  const random = offsets('production');
  let lastHead = 0;
  let restarts = 0;
  for (let round = 0; round < 4; round++) {
    const node = await startNode(dataDir, access);
    t.teardown(() => kill(node.child));
    // The restarted node serves what the last one committed.
    const head = (await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number;
    t.is(head, lastHead, `round ${round}: the restarted node serves the head the check found`);
    // What was pending at the kill was rolled back: the next ids with and without pending agree.
    const next = async (pending: boolean) => (await rpc(node.httpUrl, 'database', 'get_next_object_id', [1, 2, pending])).result as string;
    t.is(await next(true), await next(false), `round ${round}: nothing pending after the restart`);
    let stopped = false;
    const writing = keepWriting(node, () => stopped);
    // Kill once blocks are being written, at a seeded moment in the next 0 to 600 ms.
    await node.line((l) => l.msg === 'produced block' && (l.block as number) > head, `a block after ${head}`);
    await new Promise((r) => setTimeout(r, Math.floor(random() * 600)));
    await killNode(node);
    stopped = true;
    await writing;
    const check = await checkStore(dataDir);
    t.deepEqual(check.problems, [], `round ${round}: ${described(check)}`);
    t.true(check.head > head, `round ${round}: blocks were written before the kill`);
    t.log(`round ${round}: killed at ${described(check)}`);
    lastHead = check.head;
    restarts++;
  }
  // A last restart serves and produces.
  const node = await startNode(dataDir, access);
  t.teardown(() => kill(node.child));
  t.is((await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1])).result, null);
  t.is((await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number, lastHead + 1);
  t.log(`${restarts} kills and restarts checked`);
});

/**
 * Resolves once `generate` (another process, still writing) has committed block `target`, with the
 * head then, read from its store by a reader process (helpers/await-block.ts); undefined if generate
 * ends without reaching it. A kill before its first block would test only an empty or genesis-only store.
 */
async function blockOf(dataDir: string, target: number, child: ChildNode['child']): Promise<number | undefined> {
  const reader = spawn(process.execPath, [AWAIT_BLOCK, dataDir, String(target), String(child.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  reader.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  // 'close', not 'exit': its output is all read by then.
  await new Promise<void>((r) => reader.once('close', () => r()));
  return out.trim() === '' ? undefined : Number(out.trim());
}
const AWAIT_BLOCK = new URL('./helpers/await-block.js', import.meta.url).pathname;
/** Blocks `generate` writes with the arguments below: 4 of accounts, then transfers. */
const GENERATED_BLOCKS = 11;

test(`kill -9 during generate (seed ${SEED}): the store holds whole blocks only, and a node started on it serves and produces`, async (t) => {
  t.timeout(180_000);
  const access = accessFile(t);
  const random = offsets('generate');
  let restarts = 0;
  for (let round = 0; round < 3; round++) {
    const dataDir = path.join(tempDir(t, 'graphene-rpc-kill-generate-'), 'data');
    const child = spawn(process.execPath, [CLI, 'generate', '--data-dir', dataDir, '--accounts', '100', '--operations', '6000', '--seed', String(round + 1)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let generateErr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (generateErr += d));
    t.teardown(() => kill(child));
    // Kill once generate has committed a seeded block (1 to 9 of its 11), then a seeded 0 to 300 ms
    // later: the kills land all through the chain whatever the machine's speed (blocks 5 to 11 take
    // 1.5 to 5 s on the 2-core machine), never before the first block, and seldom after the last.
    const target = 1 + Math.floor(random() * (GENERATED_BLOCKS - 2));
    // The reader opens the store only once generate has made it: its progress bar starts after the
    // genesis is committed. A reader that opened it while generate was still creating it crashed
    // generate now and then (SIGSEGV, or MDB_PROBLEM "mdb_page_touch no parent"), about 1 run in 10
    // on a loaded 2-core machine.
    for (const deadline = Date.now() + 60_000; !generateErr.includes('generate [') && child.exitCode === null && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    const seen = await blockOf(dataDir, target, child);
    t.not(seen, undefined, `round ${round}: generate committed block ${target} before it ended (generate exit ${child.exitCode ?? child.signalCode}, stderr: ${generateErr.slice(-2000)})`);
    await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
    const finished = child.exitCode !== null;
    await kill(child);
    const check = await checkStore(dataDir);
    t.deepEqual(check.problems, [], `round ${round}: ${described(check)}`);
    t.true(check.head >= seen! && check.head > 0, `round ${round}: killed at head ${check.head}, after block ${seen!} was seen`);
    t.log(`round ${round}: generate ${finished ? 'had finished before the kill' : 'killed'} at ${described(check)} (block ${seen!} seen)`);
    restarts++;
    // A node started on what generate left serves it, produces on top of it, and survives a kill there too.
    const node = await startNode(dataDir, access);
    t.teardown(() => kill(node.child));
    const head = (await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number;
    t.is(head, check.head);
    t.is((await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 2])).result, null);
    t.is((await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number, head + 2);
    await killNode(node);
    const again = await checkStore(dataDir);
    t.deepEqual(again.problems, [], `round ${round}, after the node: ${described(again)}`);
    t.is(again.head, head + 2);
    restarts++;
  }
  t.log(`${restarts} kills and restarts checked`);
});

test('kill -9 with transactions pending: the restarted node rolls their changes back and serves the head state', async (t) => {
  const dataDir = tempDir(t, 'graphene-rpc-kill-pending-');
  const access = accessFile(t);
  const node = await startNode(dataDir, access);
  t.teardown(() => kill(node.child));
  t.is((await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1])).result, null);
  const nextAccount = (await rpc(node.httpUrl, 'database', 'get_next_object_id', [1, 2, false])).result as string;
  const trx = await signedTx(node.httpUrl, [op.accountCreate('pending-at-kill')], [DEV_WIF]);
  t.is((await rpc(node.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx])).result, null);
  t.is((await rpc(node.httpUrl, 'database', 'get_account_id_from_string', ['pending-at-kill'])).result, nextAccount, 'pending before the kill');
  await killNode(node);

  const again = await startNode(dataDir, access);
  t.teardown(() => kill(again.child));
  await again.line((l) => l.msg === 'the store held pending changes of a previous run; they were rolled back to the head block', 'the rollback');
  t.deepEqual((await rpc(again.httpUrl, 'database', 'lookup_account_names', [['pending-at-kill']])).result, [null]);
  t.is((await rpc(again.httpUrl, 'database', 'get_next_object_id', [1, 2, true])).result, nextAccount);
  // The same transaction can be sent again (it was never in a block) and lands.
  t.is((await rpc(again.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx])).result, null);
  t.is((await rpc(again.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1])).result, null);
  t.is((await rpc(again.httpUrl, 'database', 'get_account_id_from_string', ['pending-at-kill'])).result, nextAccount);
});

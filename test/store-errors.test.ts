// When blocks cannot be written (a full disk, a full map, an I/O error): the refusal is logged as
// an error, /ready answers 503 saying why, transactions are refused with -32015 while reads are
// served, production resumes by itself once space returns, and the chain has neither a gap nor a
// partial block.
//
// The full disk is a real one as the node sees it: before each block the node reads the data
// directory's free space (statfs) and refuses the block below --min-free-disk-bytes, so the tests set
// that bound above the disk's real free space and then lower it (in the child node, by a reload).
// Failures LMDB itself reports are not provoked here: lmdb-js can be left with damaged native state
// by a write the kernel refuses (a later crash in free(), seen with RLIMIT_FSIZE; kriszyp/lmdb-js#40),
// which is why the node stops before that point; storeWriteError's naming of them is tested alone.
import { parsePromText, valueOf } from '../bench/prom-text.js';
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openChainStore, storeWriteError } from '../src/chain/store/store.js';
import { BlockProducer, STORE_RETRY_FIRST_MS, STORE_RETRY_MAX_MS, storeRetryDelay } from '../src/chain/node/producer.js';
import { ChainError } from '../src/chain/evaluators/evaluators.js';
import { blockId } from '../src/chain/protocol/serializer.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import type { FeeSchedule } from '../src/chain/protocol/fees.js';
import { RpcError } from '../src/errors.js';
import { DEV_WIF, makeChain, op } from './helpers/chain.js';
import { serveChild } from './helpers/child-node.js';
import { captureLogs } from './helpers/logs.js';
import { httpPost, rpc } from './helpers/clients.js';
import { signedTx } from './helpers/tx.js';
import { tempDir } from './helpers/temp.js';
import { until } from './helpers/until.js';

test('storeWriteError names what LMDB and the system said, and nothing else', (t) => {
  const lmdb = (code: number, message: string) => Object.assign(new Error(message), { code });
  t.is(storeWriteError(lmdb(28, 'No space left on device: Attempting to write page at position 94208, size 86016')), 'ENOSPC (No space left on device)');
  t.is(storeWriteError(lmdb(27, 'File too large: Attempting to write page at position 94208')), 'EFBIG (File too large)');
  t.is(storeWriteError(lmdb(-30792, 'MDB_MAP_FULL: Environment mapsize limit reached')), 'MDB_MAP_FULL (Environment mapsize limit reached)');
  t.is(storeWriteError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })), 'ENOSPC (no space left on device, write)');
  // A block that does not apply, or a bug, is not the store's refusal: trying later would not help.
  t.is(storeWriteError(new ChainError('Insufficient Balance')), undefined);
  t.is(storeWriteError(new TypeError('x is undefined')), undefined);
  t.is(storeWriteError('ENOSPC'), undefined);
});

test('retries after a refused write wait 1 s, doubling, at most 30 s', (t) => {
  t.is(STORE_RETRY_FIRST_MS, 1000);
  t.is(STORE_RETRY_MAX_MS, 30_000);
  t.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map(storeRetryDelay), [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
});

test.serial('a block the store refuses leaves nothing behind, keeps the pending transactions, and refuses new ones until a block is written', (t) => {
  const chain = makeChain(t);
  const key = privateKeyFromWif(DEV_WIF);
  const logs = captureLogs();
  let minFree = 0;
  const producer = new BlockProducer(chain.store, key, 0, logs.log, { dataDir: chain.dataDir, minFreeBytes: () => minFree });
  const read = (k: [number, number, number]) => JSON.parse(chain.store.objects.get(k)!.toString('utf8'));
  const fees = read([2, 0, 0]).parameters.current_fees as FeeSchedule;
  const tx = (amount: number) => signTransaction(chain.chainId, buildTransaction(headOf(read([2, 1, 0])), [op.transfer('1.2.6', '1.2.0', amount)], { expiresIn: 3600, fees }), [key]);
  const at = () => headOf(read([2, 1, 0])).time + 3;

  producer.produce(at());
  const pendingId = producer.push(tx(1000));
  t.true(producer.storeWritable);

  // More free space asked for than any disk has: the disk is full as far as blocks go.
  minFree = 2 ** 52;
  const refused = t.throws(() => producer.produce(at()), { instanceOf: RpcError }) as RpcError;
  // A second attempt is refused too, and counted.
  t.throws(() => producer.produce(at()), { instanceOf: RpcError });
  t.is(refused.wire.code, -32015);
  t.regex(refused.wire.message, /^Transactions are not accepted now: the node cannot write blocks \(the store refused the last block: ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\)\)$/);
  t.false(producer.storeWritable);
  t.like(producer.blockWriteFailure, { attempts: 2 });
  t.regex(producer.blockWriteFailure!.error, /^ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\)$/);
  const logged = logs.lines.find((l) => String(l.msg).startsWith('block write failed:'));
  t.like(logged, { level: 50, block: 2 });
  t.like(logs.lines.find((l) => l.msg === 'block write failed again'), { level: 50, attempts: 2 });
  // Nothing of block 2 is in the store; the transaction is still pending; new ones are refused.
  t.is(read([2, 1, 0]).head_block_number, 1);
  t.is(chain.store.blocks.get(2), undefined);
  t.is(chain.store.blockIds.get(2), undefined);
  t.is(chain.store.transactions.get(pendingId), undefined);
  t.is(producer.pendingCount, 1);
  t.is((t.throws(() => producer.push(tx(2000)), { instanceOf: RpcError }) as RpcError).wire.code, -32015);

  // Space returns: the next block carries the transaction kept pending, and all is as before.
  minFree = 0;
  const block = producer.produce(at());
  t.is(block.blockNum, 2);
  t.deepEqual(block.transactionIds, [pendingId]);
  t.true(producer.storeWritable);
  t.is(producer.blockWriteFailure, undefined);
  t.like(logs.lines.find((l) => l.msg === 'block writes resumed'), { level: 30, block: 2, attempts: 2 });
  t.deepEqual(chain.store.transactions.get(pendingId), [2, 0]);
  producer.push(tx(2000));
  t.is(producer.produce(at()).transactionIds.length, 1);
});

test.serial('a node whose store refuses blocks says so in /ready, refuses transactions, serves reads, and resumes by itself without a gap', async (t) => {
  const dataDir = tempDir(t, 'graphene-rpc-store-errors-');
  // Readiness must give the store as the reason, not the head's age.
  // The free-space bound comes from a config file, so that a reload (SIGHUP) can move it.
  const ini = path.join(tempDir(t), 'node.ini');
  writeFileSync(ini, 'min-free-disk-bytes = 0\n');
  const node = await serveChild(['--config', ini, '--data-dir', dataDir, '--block-interval', '1', '--workers', '1', '--ready-max-head-age', '3600']);
  const { child, httpUrl: url, port } = node;
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const ready = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/ready`);
    return { status: res.status, body: (await res.json()) as { ready: boolean; reason?: string; headBlockNumber: number } };
  };
  /**
   * /ready once it answers `status`, or what it answers after 10 s: with serving processes
   * (--processes) the writer's state reaches the process that answers as a message sent after the
   * writer's log line, so soon after it, not at once.
   */
  const readyOnce = async (status: number) => {
    await until(async () => (await ready()).status === status, `/ready ${status}`, 10_000).catch(() => undefined);
    return ready();
  };
  await node.line((l) => l.msg === 'produced block', 'a first block');
  t.is((await ready()).status, 200);
  // Signed while the node can still say what its head is; broadcast while it cannot write.
  const trx = await signedTx(url, [op.transfer('1.2.6', '1.2.0', 1234)], [DEV_WIF]);

  // The disk is now "full": more free space is asked for than it has.
  writeFileSync(ini, `min-free-disk-bytes = ${2 ** 52}\n`);
  child.kill('SIGHUP');
  const failed = await node.line((l) => String(l.msg).startsWith('block write failed:'), 'the refused block write');
  t.is(failed.level, 50);
  t.regex(String(failed.error), /^ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\)$/);
  const head = (failed.block as number) - 1;

  const notReady = await readyOnce(503);
  t.is(notReady.status, 503);
  t.false(notReady.body.ready);
  t.regex(notReady.body.reason ?? '', /^blocks cannot be written: ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\) \(for \d+ s, \d+ attempts\)$/);
  t.is(notReady.body.headBlockNumber, head);
  const writable = async () => valueOf(parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()), 'graphene_rpc_store_writable');
  t.is(await writable(), 0, 'the metric says so too');

  for (const method of ['broadcast_transaction', 'broadcast_transaction_synchronous']) {
    const reply = await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: ['network_broadcast', method, [trx]] }));
    t.is(reply.status, 503, method);
    const error = JSON.parse(reply.text).error;
    t.is(error.code, -32015);
    t.regex(error.message, /^Transactions are not accepted now: the node cannot write blocks \(the store refused the last block: ENOSPC \(\d+ MiB free, under --min-free-disk-bytes\)\)$/);
  }
  // Reads are served from what is written.
  t.is((await rpc(url, 'database', 'get_accounts', [['nathan']])).result[0].name, 'nathan');
  t.is(typeof (await rpc(url, 'database', 'get_block', [head])).result.timestamp, 'string');
  // The producer keeps trying, and nothing is written meanwhile.
  await node.line((l) => l.msg === 'block write failed again', 'a retry');
  t.is((await rpc(url, 'database', 'get_dynamic_global_properties', [])).result.head_block_number, head);

  // Space returns.
  writeFileSync(ini, 'min-free-disk-bytes = 0\n');
  child.kill('SIGHUP');
  const resumed = await node.line((l) => l.msg === 'block writes resumed', 'production resuming', 60_000);
  t.is(resumed.block, head + 1);
  const back = await readyOnce(200);
  t.is(back.status, 200, JSON.stringify(back.body));
  t.is(await writable(), 1);
  // The transaction refused during the outage was not kept: sent again, it is accepted and confirmed.
  const confirmed = await rpc(url, 'network_broadcast', 'broadcast_transaction_synchronous', [trx]);
  t.true(confirmed.result.block_num > head, JSON.stringify(confirmed));

  // Stop the node, then read the store it left: every block, each with its index entries, linked to
  // the one before, and nothing after the head.
  child.kill('SIGTERM');
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  t.deepEqual(exit, { code: 0, signal: null }, node.stderr().slice(-2000));
  const store = openChainStore(dataDir);
  t.teardown(() => store.close());
  const dgp = JSON.parse(store.objects.get([2, 1, 0])!.toString());
  const last = dgp.head_block_number as number;
  t.true(last >= confirmed.result.block_num);
  let previous = '0'.repeat(40);
  for (let n = 1; n <= last; n++) {
    const block = JSON.parse(store.blocks.get(n)!.toString());
    t.is(block.previous, previous, `block ${n} follows block ${n - 1}`);
    previous = blockId(block, n);
    t.is(store.blockIds.get(n), previous, `block ${n}'s id`);
    t.not(store.blockOperations.get(n), undefined, `block ${n}'s operations entry`);
  }
  t.is(dgp.head_block_id, previous);
  t.is(store.blocks.get(last + 1), undefined);
  t.is(store.blockIds.get(last + 1), undefined);
  t.is(store.blockOperations.get(last + 1), undefined);
  t.deepEqual(store.transactions.get(confirmed.result.id), [confirmed.result.block_num, confirmed.result.trx_num]);
});

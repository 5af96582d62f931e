// chain/node/producer.ts and pending-undo.ts: each pending transaction is applied to the store on top of
// everything pending before it; a refused one leaves no trace; a block starts from the head state
// and carries what the store holds; what a crash left pending is rolled back.
import test from 'ava';
import { makeChain, DEV_WIF, DEV_PUB } from './helpers/chain.js';
import { BlockProducer } from '../src/chain/node/producer.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { accountCreateOp, transferOp } from '../src/chain/protocol/operation-builders.js';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import { requiredFee, type FeeSchedule } from '../src/chain/protocol/fees.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { createLogger } from '../src/log.js';
import { RpcError } from '../src/errors.js';
import type { ChainStore } from '../src/chain/store/store.js';
import { hasPendingChanges, headNextInstance } from '../src/chain/store/pending-undo.js';
import { captureLogs } from './helpers/logs.js';

const key = privateKeyFromWif(DEV_WIF);
const read = <T>(store: ChainStore, k: [number, number, number]): T => JSON.parse(store.objects.get(k)!.toString('utf8')) as T;

function setup(t: Parameters<typeof makeChain>[0]) {
  const chain = makeChain(t);
  const producer = new BlockProducer(chain.store, key, 0, createLogger('silent'));
  const schedule = read<{ parameters: { current_fees: FeeSchedule } }>(chain.store, [2, 0, 0]).parameters.current_fees;
  const tx = (...ops: OperationJson[]) =>
    signTransaction(chain.chainId, buildTransaction(headOf(read(chain.store, [2, 1, 0])), ops, { expiresIn: 3600, fees: schedule }), [key]);
  const refusal = (trx: unknown): string => (t.throws(() => producer.push(trx), { instanceOf: RpcError }) as RpcError).wire.message;
  // Blocks just after the head: the transactions expire an hour after it.
  const produce = () => producer.produce(headOf(read(chain.store, [2, 1, 0])).time + 3);
  return { chain, producer, schedule, tx, refusal, produce };
}

test('a pending transaction sees what the ones pending before it did', (t) => {
  const { chain, producer, tx, refusal, produce } = setup(t);
  producer.push(tx(accountCreateOp('alice', DEV_PUB, '1.2.6')));
  // alice exists only in the pending state: a transfer to her applies, a second registration does not.
  producer.push(tx(transferOp('1.2.6', '1.2.7', 1000)));
  t.regex(refusal(tx(accountCreateOp('alice', DEV_PUB, '1.2.6', '1.2.0'))), /Account 'alice' already exists\./);
  t.is(producer.pendingCount, 2);
  const block = produce();
  t.is(block.transactions.length, 2);
  t.is(read<{ name: string }>(chain.store, [1, 2, 7]).name, 'alice');
});

test('a refused transaction leaves nothing behind, not even the fee it paid before failing', (t) => {
  const { chain, producer, schedule, tx, refusal } = setup(t);
  const balance = BigInt(read<{ balance: number | string }>(chain.store, [2, 5, chain.store.balances.get([6, 0])!]).balance);
  const fee = BigInt(requiredFee(transferOp('1.2.6', '1.2.0', 1), schedule));
  const all = balance - fee;
  // The fee is charged before the amount fails: the whole transaction must be undone.
  t.regex(refusal(tx(transferOp('1.2.6', '1.2.0', String(all + 1n)))), /Insufficient Balance: nathan's balance of \d+ of asset 1\.3\.0 is less than required/);
  producer.push(tx(transferOp('1.2.6', '1.2.0', String(all))));
  t.regex(refusal(tx(transferOp('1.2.6', '1.2.1', 1))), /Insufficient Balance/);
});

test('the produced block hands out the transactions exactly as the store holds them', (t) => {
  const { chain, producer, tx, produce } = setup(t);
  producer.push(tx(transferOp('1.2.6', '1.2.0', 5)));
  producer.push(tx(accountCreateOp('bob', DEV_PUB, '1.2.6')));
  const block = produce();
  const stored = JSON.parse(chain.store.blocks.get(block.blockNum)!.toString('utf8')) as { transactions: unknown[] };
  t.is(JSON.stringify(block.transactions), JSON.stringify(stored.transactions));
  // After the block the pending state starts again from the store.
  producer.push(tx(transferOp('1.2.6', '1.2.7', 7)));
  t.is(produce().transactions.length, 1);
});

test('a pending transaction is in the store before its block, and the block gives it the same ids and values', (t) => {
  const { chain, producer, tx, produce } = setup(t);
  producer.push(tx(accountCreateOp('carol', DEV_PUB, '1.2.6')));
  // Every reader of the store (the workers) sees carol before the block.
  t.is(chain.store.accountNames.get('carol'), 7);
  const pendingJson = chain.store.objects.get([1, 2, 7])!.toString('utf8');
  t.true(hasPendingChanges(chain.store));
  t.is(headNextInstance(chain.store, 1, 2), 7, 'without pending transactions the next account is still 1.2.7');
  produce();
  t.false(hasPendingChanges(chain.store), 'the block empties the undo log');
  t.is(chain.store.accountNames.get('carol'), 7);
  t.is(JSON.parse(chain.store.objects.get([1, 2, 7])!.toString('utf8')).name, JSON.parse(pendingJson).name);
  t.is(headNextInstance(chain.store, 1, 2), undefined);
});

test('a refused transaction leaves no undo entries and no change in the store', (t) => {
  const { chain, producer, tx, refusal } = setup(t);
  producer.push(tx(transferOp('1.2.6', '1.2.0', 5)));
  const entries = [...chain.store.pendingUndo.getKeys({})].length;
  t.regex(refusal(tx(transferOp('1.2.6', '1.2.0', '999999999999999'))), /Insufficient Balance/);
  t.is([...chain.store.pendingUndo.getKeys({})].length, entries);
});

test('a pending transaction that expires before its block is rolled back out of the store', (t) => {
  const { chain, producer, schedule } = setup(t);
  const head = headOf(read(chain.store, [2, 1, 0]));
  const trx = signTransaction(chain.chainId, buildTransaction(head, [accountCreateOp('dave', DEV_PUB, '1.2.6')], { expiresIn: 10, fees: schedule }), [key]);
  producer.push(trx);
  t.is(chain.store.accountNames.get('dave'), 7);
  const block = producer.produce(head.time + 60);
  t.is(block.transactions.length, 0);
  t.is(chain.store.accountNames.get('dave'), undefined);
  t.is(chain.store.objects.get([1, 2, 7]), undefined);
});

test('pending changes a crash left in the store are rolled back when the next producer opens it', (t) => {
  const { chain, producer, tx } = setup(t);
  const balanceKey: [number, number, number] = [2, 5, chain.store.balances.get([6, 0])!];
  const before = chain.store.objects.get(balanceKey)!.toString('utf8');
  producer.push(tx(accountCreateOp('erin', DEV_PUB, '1.2.6')));
  producer.push(tx(transferOp('1.2.6', '1.2.7', 1000)));
  t.not(chain.store.objects.get(balanceKey)!.toString('utf8'), before);
  // A new producer on the same store is what a restart after kill -9 builds.
  const { log, lines } = captureLogs('warn');
  new BlockProducer(chain.store, key, 0, log);
  t.is(chain.store.objects.get(balanceKey)!.toString('utf8'), before);
  t.is(chain.store.accountNames.get('erin'), undefined);
  t.false(hasPendingChanges(chain.store));
  t.true(lines.some((l) => l.msg === 'the store held pending changes of a previous run; they were rolled back to the head block'));
});

// The block applier (src/chain/node/block-applier.ts) against a real store: evaluators, balances, history, blocks, atomicity.
import test from 'ava';
import { DEV_WIF, makeChain, op } from './helpers/chain.js';
import { applyBlock } from '../src/chain/node/block-applier.js';
import { transactionId } from '../src/chain/protocol/serializer.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import { ChainError } from '../src/chain/evaluators/evaluators.js';
import { blockId, transactionMerkleRoot } from '../src/chain/protocol/serializer.js';

const json = (b: Buffer | undefined) => (b ? JSON.parse(b.toString('utf8')) : undefined);

test('accounts, assets, issues and transfers change balances, supply and statistics', (t) => {
  const chain = makeChain(t);
  const b1 = chain.block([op.accountCreate('alice'), op.accountCreate('bob')], [op.assetCreate('USDX')]);
  t.is(b1.blockNum, 1);
  t.is(chain.store.accountNames.get('alice'), 7);
  t.is(chain.store.assetSymbols.get('USDX'), 1);
  chain.block([op.assetIssue('1.3.1', '1.2.7', 5000)], [op.transfer('1.2.6', '1.2.7', '3000000000')]);
  chain.block([op.transfer('1.2.7', '1.2.8', 1200, '1.3.1')]);
  const balance = (acct: number, asset: number) => json(chain.store.objects.get([2, 5, chain.store.balances.get([acct, asset])!]))?.balance;
  t.is(balance(7, 1), 3800);
  t.is(balance(8, 1), 1200);
  t.is(balance(7, 0), '3000000000');
  t.is(json(chain.store.objects.get([2, 3, 1])).current_supply, 5000);
  t.is(json(chain.store.objects.get([2, 6, 7])).total_ops, 4);
  t.is(json(chain.store.objects.get([2, 6, 7])).core_in_balance, '3000000000');
});

test('a block whose operation fails leaves nothing behind', (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  const before = json(chain.store.objects.get([2, 1, 0]));
  t.throws(() => chain.block([op.accountCreate('carol')], [op.transfer('1.2.7', '1.2.6', 5)]), { instanceOf: ChainError, message: /Insufficient Balance/ });
  t.deepEqual(json(chain.store.objects.get([2, 1, 0])), before);
  t.is(chain.store.accountNames.get('carol'), undefined);
  t.throws(() => chain.block([op.accountCreate('alice')]), { message: /already exists/ });
});

test('blocks are stored signed, linked to their predecessor, with the transaction merkle root', (t) => {
  const chain = makeChain(t);
  const b1 = chain.block();
  const b2 = chain.block([op.transfer('1.2.6', '1.2.0', 10)]);
  const block2 = json(chain.store.blocks.get(2));
  t.is(block2.previous, b1.blockId);
  t.is(blockId(block2, 2), b2.blockId);
  t.is(b2.blockId.slice(0, 8), '00000002');
  t.is(block2.transaction_merkle_root, transactionMerkleRoot(block2.transactions));
  t.deepEqual(block2.transactions[0].operation_results, [[0, {}]]);
  t.deepEqual(chain.store.transactions.get(b2.transactionIds[0]!), [2, 0]);
  const dgp = json(chain.store.objects.get([2, 1, 0]));
  t.is(dgp.head_block_number, 2);
  t.is(dgp.head_block_id, b2.blockId);
  t.is(dgp.last_irreversible_block_num, 1);
  t.is(typeof dgp.recent_slots_filled, 'string');
});

test('account_create results name the new account, which enters its own history', (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  const h = json(chain.store.objects.get([1, 11, 0]));
  t.deepEqual(h.result, [1, '1.2.7']);
  t.deepEqual([...chain.store.accountHistory.getKeys({ start: [7, 0], end: [7, Infinity] })], [[7, 0]]);
  t.deepEqual([...chain.store.keyReferences.getKeys({ start: ['BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV', 0], end: ['BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV', Infinity] })].map((k) => k[1]), [6, 7]);
});

test('transaction ids handed to applyBlock are the ones stored; a list that does not match the transactions is refused and nothing is kept', (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  const dgp = json(chain.store.objects.get([2, 1, 0]));
  const time = parseFcTime(dgp.time) + 3;
  const trx = { ref_block_num: 0, ref_block_prefix: 0, expiration: fcTime(time + 60), operations: [op.transfer('1.2.6', '1.2.7', 5)], extensions: [], signatures: [] };
  const key = privateKeyFromWif(DEV_WIF);
  t.throws(() => applyBlock(chain.store, { timestamp: time, transactions: [trx], transactionIds: [] }, key), { message: /0 transaction ids for 1 transactions/ });
  t.deepEqual(json(chain.store.objects.get([2, 1, 0])), dgp, 'the head did not move');
  const id = transactionId(trx);
  const applied = applyBlock(chain.store, { timestamp: time, transactions: [trx], transactionIds: [id] }, key);
  t.deepEqual(applied.transactionIds, [id]);
  t.deepEqual(chain.store.transactions.get(id), [applied.blockNum, 0]);
});

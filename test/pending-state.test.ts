// Reads see what was just broadcast: an accepted transaction is applied to the pending state at
// once, as in Core, and every read (through the worker threads) sees it before the next block; the
// block then gives it the same ids. Against a real node producing blocks only on demand.
import test, { type ExecutionContext } from 'ava';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { generateBlocks, startDevnet } from './helpers/devnet.js';
import { idInstance } from '../src/chain/fc/object-id.js';

/** A devnet whose calls give their result (and throw on an error reply). */
async function devnet(t: ExecutionContext) {
  const node = await startDevnet(t);
  const call = async (set: string, method: string, params: unknown[]) => {
    const r = await rpc(node.httpUrl, set, method, params);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  const generate = async (n: number) => {
    const r = await generateBlocks(node.httpUrl, n);
    if (r.error) throw new Error(`debug_generate_blocks: ${r.error.message}`);
  };
  return { ...node, call, generate };
}

test('an asset created by a broadcast is found by every read before the next block, with the id the block gives it', async (t) => {
  const { httpUrl, call, generate } = await devnet(t);
  await generate(1);
  const nextAsset = await call('database', 'get_next_object_id', [1, 3, true]);
  const trx = await signedTx(httpUrl, [op.assetCreate('PENDX')], [DEV_WIF]);
  t.is(await call('network_broadcast', 'broadcast_transaction', [trx]), null);
  const head = (await call('database', 'get_dynamic_global_properties', [])).head_block_number;

  const [found] = await call('database', 'lookup_asset_symbols', [['PENDX']]);
  t.is(found?.id, nextAsset, 'lookup_asset_symbols sees the pending asset');
  t.is((await call('database', 'get_objects', [[nextAsset]]))[0]?.symbol, 'PENDX');
  t.is((await call('database', 'get_asset_id_from_string', ['PENDX'])), nextAsset);
  // Core's two answers: with the pending transactions, the id after the new asset; without, its own.
  const n = idInstance(nextAsset);
  t.is(await call('database', 'get_next_object_id', [1, 3, true]), `1.3.${n + 1}`);
  t.is(await call('database', 'get_next_object_id', [1, 3, false]), nextAsset);
  // History is the account history plugin's, which sees only blocks.
  t.is((await call('database', 'get_dynamic_global_properties', [])).head_block_number, head, 'no block was produced');

  await generate(1);
  const [after] = await call('database', 'lookup_asset_symbols', [['PENDX']]);
  t.is(after?.id, nextAsset, 'the block gives the asset the id the pending state showed');
  t.is(await call('database', 'get_next_object_id', [1, 3, false]), `1.3.${n + 1}`);
  const history = await call('history', 'get_account_history', ['1.2.6', '1.11.0', 1, '1.11.0']);
  t.is(history[0]?.op?.[0], 10, 'the asset_create is in history once its block is');
});

test('balances and new accounts of pending transfers are read back before the block, and a transaction that spends them applies', async (t) => {
  const { httpUrl, call, generate } = await devnet(t);
  await generate(1);
  const balance = async (account: string) => Number((await call('database', 'get_account_balances', [account, ['1.3.0']]))[0].amount);
  const before = await balance('1.2.6');
  await call('network_broadcast', 'broadcast_transaction', [await signedTx(httpUrl, [op.accountCreate('pending-frank')], [DEV_WIF])]);
  const [frank] = await call('database', 'lookup_account_names', [['pending-frank']]);
  t.truthy(frank, 'the pending account is found by name');
  // A wallet reads the fee from the pending state and pays to the account that exists only there.
  await call('network_broadcast', 'broadcast_transaction', [await signedTx(httpUrl, [op.transfer('1.2.6', frank.id, 777)], [DEV_WIF])]);
  t.is(await balance(frank.id), 777);
  t.true((await balance('1.2.6')) < before - 777, 'the sender paid the amount and both fees');
  const full = await call('database', 'get_full_accounts', [['pending-frank'], false]);
  t.is(full[0][1].balances[0].balance, 777);
  await generate(1);
  t.is(await balance(frank.id), 777);
});

test('validate_transaction applies a transaction on top of the pending state and undoes it: results as Core gives them, nothing kept', async (t) => {
  const { httpUrl, call, generate } = await devnet(t);
  await generate(1);
  const trx = await signedTx(httpUrl, [op.accountCreate('validated-only'), op.transfer('1.2.6', '1.2.0', 5)], [DEV_WIF]);
  const next = await call('database', 'get_next_object_id', [1, 2, true]);
  const processed = await call('database', 'validate_transaction', [trx]);
  t.deepEqual(Object.keys(processed), ['ref_block_num', 'ref_block_prefix', 'expiration', 'operations', 'extensions', 'signatures', 'operation_results']);
  t.deepEqual(processed.operation_results, [[1, next], [0, {}]]);
  t.deepEqual(processed.signatures, trx.signatures);
  // Undone: the account does not exist, and the same transaction can still be broadcast.
  t.deepEqual(await call('database', 'lookup_account_names', [['validated-only']]), [null]);
  t.is(await call('database', 'get_next_object_id', [1, 2, true]), next);
  t.is(await call('network_broadcast', 'broadcast_transaction', [trx]), null);
  // Now pending: validating it again is a duplicate, as in Core.
  const again = await rpc(httpUrl, 'database', 'validate_transaction', [trx]);
  t.regex(again.error.message, /Transaction '[0-9a-f]{40}' is already in the database/);
  // A transaction that would not apply is refused with the evaluator's reason.
  const tooMuch = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', '999999999999999')], [DEV_WIF]);
  t.regex((await rpc(httpUrl, 'database', 'validate_transaction', [tooMuch])).error.message, /Insufficient Balance/);
});

// Builds and signs transactions for tests with the node's own transaction builder, the way a wallet
// does: TaPoS from the head block, expiration after the head block time, fees from get_required_fees.
import { privateKeyFromWif } from '../../src/chain/crypto/keys.js';
import { buildTransaction, headOf, signTransaction } from '../../src/chain/protocol/transaction-builder.js';
import type { OperationJson } from '../../src/chain/protocol/types.js';
import { rpc } from './clients.js';

// Kept here too: tests import rpc from this module.
export { rpc };

export interface TxOptions {
  /** seconds after the head block time (default 60) */
  expiresIn?: number;
  /** override the computed fee */
  fee?: number | string;
  refBlockNum?: number;
  refBlockPrefix?: number;
}

/** A signed transaction of `ops`, fees filled in from the node, signed with each of `wifs`. */
export async function signedTx(url: string, ops: OperationJson[], wifs: string[], o: TxOptions = {}): Promise<Record<string, unknown>> {
  const dgp = (await rpc(url, 'database', 'get_dynamic_global_properties', [])).result;
  const chainId = (await rpc(url, 'database', 'get_chain_id', [])).result as string;
  const fees = (await rpc(url, 'database', 'get_required_fees', [ops, '1.3.0'])).result as { amount: number | string }[];
  const trx = buildTransaction(headOf(dgp), ops, { ...o, fees: fees.map((f) => f.amount) });
  return { ...signTransaction(chainId, trx, wifs.map(privateKeyFromWif)) };
}

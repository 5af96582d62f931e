// Builds and signs transactions for tests with the node's own serializer and keys, the way a wallet
// does: TaPoS from the head block, expiration after the head block time, fees from get_required_fees.
import { signingDigest, refBlockPrefix } from '../../src/chain/serializer.js';
import { privateKeyFromWif, signCompact } from '../../src/chain/keys.js';
import { fcTime, parseFcTime } from '../../src/chain/fc-json.js';
import type { OperationJson } from '../../src/chain/evaluators.js';
import { httpPost } from './clients.js';

export async function rpc(url: string, set: string, method: string, params: unknown[], headers: Record<string, string> = {}): Promise<any> {
  return JSON.parse((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: [set, method, params] }), headers)).text);
}

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
  ops.forEach((op, i) => (op[1].fee = { amount: o.fee ?? fees[i]!.amount, asset_id: '1.3.0' }));
  const trx = {
    ref_block_num: o.refBlockNum ?? dgp.head_block_number & 0xffff,
    ref_block_prefix: o.refBlockPrefix ?? (dgp.head_block_number === 0 ? 0 : refBlockPrefix(dgp.head_block_id)),
    expiration: fcTime(parseFcTime(dgp.time) + (o.expiresIn ?? 60)),
    operations: ops,
    extensions: [],
  };
  const digest = signingDigest(chainId, trx);
  return { ...trx, signatures: wifs.map((w) => signCompact(digest, privateKeyFromWif(w))) };
}

// Helpers for tests that send operations to a devnet node over the wire: a node producing blocks on
// demand, transactions signed with any keys (fees from the node's schedule, proposed operations'
// fees included), and the reads those tests make.
import type { ExecutionContext } from 'ava';
import { secp256k1 } from '@noble/curves/secp256k1';
import { fixture, startTestNode } from './node.js';
import { basic } from './clients.js';
import { DEV_WIF } from './chain.js';
import { rpc } from './tx.js';
import { publicKeyOf } from '../../src/chain/crypto/keys.js';
import { buildTransaction, headOf, signTransaction } from '../../src/chain/protocol/transaction-builder.js';
import { requiredFee, type FeeScheduleJson } from '../../src/chain/protocol/fees.js';
import type { OperationJson } from '../../src/chain/protocol/types.js';

const NATHAN = '1.2.6';
const ZERO = { amount: 0, asset_id: '1.3.0' };

const ANY = { authorization: basic('anypass', 'x') };

type Obj = Record<string, any>;

/** Fills an operation's fee from the schedule, nested proposed operations first (their fees are part of the outer size). */
export function fillFees(op: OperationJson, schedule: FeeScheduleJson): OperationJson {
  if (op[0] === 22) for (const p of op[1].proposed_ops as { op: OperationJson }[]) fillFees(p.op, schedule);
  op[1].fee = { amount: 0, asset_id: '1.3.0' };
  op[1].fee = { amount: requiredFee(op, schedule), asset_id: '1.3.0' };
  return op;
}

export async function devnet(t: ExecutionContext, options: Record<string, string> = {}) {
  const node = await startTestNode(t, { 'block-interval': '0', 'api-access': fixture('api-access.json'), ...options });
  const call = async (set: string, method: string, params: unknown[]): Promise<any> => {
    const r = await rpc(node.httpUrl, set, method, params, set === 'debug' ? ANY : undefined);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  const generate = (n = 1) => call('debug', 'debug_generate_blocks', [DEV_WIF, n]);
  const head = async () => call('database', 'get_dynamic_global_properties', []);
  /** A signed transaction of `ops` (fees filled), signed by each key. */
  const sign = async (ops: OperationJson[], keys: Uint8Array[]) => {
    const schedule = (await call('database', 'get_global_properties', [])).parameters.current_fees as FeeScheduleJson;
    const chainId = await call('database', 'get_chain_id', []);
    for (const o of ops) fillFees(o, schedule);
    return signTransaction(chainId, buildTransaction(headOf(await head()), ops), keys);
  };
  /** Broadcasts; the error message when refused, undefined when accepted. */
  const tryBroadcast = async (ops: OperationJson[], keys: Uint8Array[]): Promise<string | undefined> => {
    const r = await rpc(node.httpUrl, 'network_broadcast', 'broadcast_transaction', [await sign(ops, keys)]);
    return r.error ? String(r.error.message) : undefined;
  };
  const broadcast = async (ops: OperationJson[], keys: Uint8Array[]): Promise<void> => {
    const refused = await tryBroadcast(ops, keys);
    if (refused !== undefined) throw new Error(`refused: ${refused}`);
  };
  const object = async (id: string): Promise<Obj | null> => (await call('database', 'get_objects', [[id]]))[0];
  const balance = async (account: string, asset = '1.3.0'): Promise<number> => Number((await call('database', 'get_account_balances', [account, [asset]]))[0].amount);
  const history = async (account: string): Promise<Obj[]> => call('history', 'get_account_history', [account, '1.11.0', 100, '1.11.0']);
  return { ...node, call, generate, head, sign, tryBroadcast, broadcast, object, balance, history };
}

export const newKey = (): { priv: Uint8Array; pub: string } => {
  const priv = secp256k1.utils.randomPrivateKey();
  return { priv, pub: publicKeyOf(priv) };
};

export const auth = (threshold: number, keys: [string, number][] = [], accounts: [string, number][] = []) => ({ weight_threshold: threshold, account_auths: accounts, key_auths: keys, address_auths: [] });

/** account_create by nathan of `name` with the given authorities. */
export function accountCreate(name: string, owner: Obj, active: Obj, memoKey: string): OperationJson {
  return [5, { fee: ZERO, registrar: NATHAN, referrer: NATHAN, referrer_percent: 0, name, owner, active, options: { memo_key: memoKey, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] }, extensions: {} }];
}


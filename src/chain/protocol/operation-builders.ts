// Builders of operations in Core's JSON form (fields in reflection order), for the code that writes
// transactions itself: `generate`, the benchmark and tests. Fees start at zero; fees.ts fills them.
import type { OperationJson } from './types.js';

const ZERO = { amount: 0, asset_id: '1.3.0' };
const authority = (key: string) => ({ weight_threshold: 1, account_auths: [], key_auths: [[key, 1]], address_auths: [] });

/** account_create (5) of an account whose owner, active and memo key is `key`. */
export function accountCreateOp(name: string, key: string, registrar: string, referrer = registrar): OperationJson {
  return [
    5,
    {
      fee: { ...ZERO },
      registrar,
      referrer,
      referrer_percent: 0,
      name,
      owner: authority(key),
      active: authority(key),
      options: { memo_key: key, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] },
      extensions: {},
    },
  ];
}

/** asset_create (10) of a user-issued asset with no fees, permissions or flags. */
export function assetCreateOp(symbol: string, issuer: string, o: { precision?: number; maxSupply?: string | number; description?: string } = {}): OperationJson {
  return [
    10,
    {
      fee: { ...ZERO },
      issuer,
      symbol,
      precision: o.precision ?? 4,
      common_options: {
        max_supply: o.maxSupply ?? '1000000000000000',
        market_fee_percent: 0,
        max_market_fee: '1000000000000000',
        issuer_permissions: 0,
        flags: 0,
        core_exchange_rate: { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } },
        whitelist_authorities: [],
        blacklist_authorities: [],
        whitelist_markets: [],
        blacklist_markets: [],
        description: o.description ?? '',
        extensions: [],
      },
      is_prediction_market: false,
      extensions: [],
    },
  ];
}

/** transfer (0), with an optional memo. */
export function transferOp(from: string, to: string, amount: number | string, assetId = '1.3.0', memo?: Record<string, unknown>): OperationJson {
  return [0, { fee: { ...ZERO }, from, to, amount: { amount, asset_id: assetId }, ...(memo ? { memo } : {}), extensions: [] }];
}

/** asset_issue (14). */
export function assetIssueOp(issuer: string, assetId: string, to: string, amount: number | string): OperationJson {
  return [14, { fee: { ...ZERO }, issuer, asset_to_issue: { amount, asset_id: assetId }, issue_to_account: to, extensions: [] }];
}

/** limit_order_create (1): sell `amountToSell` of `sellAsset` for at least `minToReceive` of `receiveAsset`. */
export function limitOrderCreateOp(
  seller: string,
  amountToSell: number | string,
  sellAsset: string,
  minToReceive: number | string,
  receiveAsset: string,
  o: { expiration?: string; fillOrKill?: boolean } = {},
): OperationJson {
  return [
    1,
    {
      fee: { ...ZERO },
      seller,
      amount_to_sell: { amount: amountToSell, asset_id: sellAsset },
      min_to_receive: { amount: minToReceive, asset_id: receiveAsset },
      // time_point_sec::maximum(), Core's default: an order that never expires
      expiration: o.expiration ?? '2106-02-07T06:28:15',
      fill_or_kill: o.fillOrKill ?? false,
      extensions: {},
    },
  ];
}

/** limit_order_cancel (2) of `order`, by its seller. */
export function limitOrderCancelOp(seller: string, order: string): OperationJson {
  return [2, { fee: { ...ZERO }, fee_paying_account: seller, order, extensions: [] }];
}

/** custom (35): `data` as hex, e.g. a custom_operations plugin payload (account-storage.ts packStorageMap). */
export function customOp(payer: string, data: string, o: { requiredAuths?: string[]; id?: number } = {}): OperationJson {
  return [35, { fee: { ...ZERO }, payer, required_auths: o.requiredAuths ?? [], id: o.id ?? 0, data }];
}

// Each operation's fee_params_t as BitShares Core declares it: its members in FC_REFLECT order, their
// C++ types and their default values (the header of each operation, libraries/protocol/include/
// graphene/protocol/*.hpp). Indexed by operation code, as the fee_parameters static_variant is
// (fee_schedule.hpp: one alternative per operation, in the order of operations.hpp).
//
// The serializer packs a fee_schedule with it (committee_member_update_global_parameters carries one),
// and the fee code reads the schedule's values through it: a member the schedule leaves out keeps its
// default, as fc's from_variant leaves it, and an operation the schedule lacks is priced with all the
// defaults (fee_schedule_calc.cpp's calc_fee_visitor).

/** GRAPHENE_BLOCKCHAIN_PRECISION */
const P = 100000n;

/** The C++ type of a fee parameter: the fee amounts are uint64_t or share_type, the rates uint32_t. */
export type FeeParameterKind = 'uint64' | 'uint32' | 'int64';

export interface FeeParameters {
  /** the operation's name without `_operation` */
  readonly name: string;
  /** [member, kind, default] in FC_REFLECT order; empty for virtual operations (`fee_params_t {}`) */
  readonly fields: ReadonlyArray<readonly [string, FeeParameterKind, bigint]>;
}

const fee = (amount: bigint, kind: FeeParameterKind = 'uint64'): readonly [string, FeeParameterKind, bigint] => ['fee', kind, amount];
const perKbyte = (amount: bigint): readonly [string, FeeParameterKind, bigint] => ['price_per_kbyte', 'uint32', amount];
const op = (name: string, ...fields: (readonly [string, FeeParameterKind, bigint])[]): FeeParameters => ({ name, fields });

export const FEE_PARAMETERS: readonly FeeParameters[] = [
  /*  0 */ op('transfer', fee(20n * P), perKbyte(10n * P)),
  /*  1 */ op('limit_order_create', fee(5n * P)),
  /*  2 */ op('limit_order_cancel', fee(0n)),
  /*  3 */ op('call_order_update', fee(20n * P)),
  /*  4 */ op('fill_order'),
  /*  5 */ op('account_create', ['basic_fee', 'uint64', 5n * P], ['premium_fee', 'uint64', 2000n * P], perKbyte(P)),
  /*  6 */ op('account_update', fee(20n * P, 'int64'), perKbyte(P)),
  /*  7 */ op('account_whitelist', fee(300000n, 'int64')),
  /*  8 */ op('account_upgrade', ['membership_annual_fee', 'uint64', 2000n * P], ['membership_lifetime_fee', 'uint64', 10000n * P]),
  /*  9 */ op('account_transfer', fee(500n * P)),
  /* 10 */ op('asset_create', ['symbol3', 'uint64', 500000n * P], ['symbol4', 'uint64', 300000n * P], ['long_symbol', 'uint64', 5000n * P], perKbyte(10n)),
  /* 11 */ op('asset_update', fee(500n * P), perKbyte(10n)),
  /* 12 */ op('asset_update_bitasset', fee(500n * P)),
  /* 13 */ op('asset_update_feed_producers', fee(500n * P)),
  /* 14 */ op('asset_issue', fee(20n * P), perKbyte(P)),
  /* 15 */ op('asset_reserve', fee(20n * P)),
  /* 16 */ op('asset_fund_fee_pool', fee(P)),
  /* 17 */ op('asset_settle', fee(100n * P)),
  /* 18 */ op('asset_global_settle', fee(500n * P)),
  /* 19 */ op('asset_publish_feed', fee(P)),
  /* 20 */ op('witness_create', fee(5000n * P)),
  /* 21 */ op('witness_update', fee(20n * P, 'int64')),
  /* 22 */ op('proposal_create', fee(20n * P), perKbyte(10n)),
  /* 23 */ op('proposal_update', fee(20n * P), perKbyte(10n)),
  /* 24 */ op('proposal_delete', fee(P)),
  /* 25 */ op('withdraw_permission_create', fee(P)),
  /* 26 */ op('withdraw_permission_update', fee(P)),
  /* 27 */ op('withdraw_permission_claim', fee(20n * P), perKbyte(10n)),
  /* 28 */ op('withdraw_permission_delete', fee(0n)),
  /* 29 */ op('committee_member_create', fee(5000n * P)),
  /* 30 */ op('committee_member_update', fee(20n * P)),
  /* 31 */ op('committee_member_update_global_parameters', fee(P)),
  /* 32 */ op('vesting_balance_create', fee(P)),
  /* 33 */ op('vesting_balance_withdraw', fee(20n * P)),
  /* 34 */ op('worker_create', fee(5000n * P)),
  /* 35 */ op('custom', fee(P), perKbyte(10n)),
  /* 36 */ op('assert', fee(P)),
  /* 37 */ op('balance_claim'),
  /* 38 */ op('override_transfer', fee(20n * P), perKbyte(10n)),
  /* 39 */ op('transfer_to_blind', fee(5n * P), ['price_per_output', 'uint32', 5n * P]),
  /* 40 */ op('blind_transfer', fee(5n * P), ['price_per_output', 'uint32', 5n * P]),
  /* 41 */ op('transfer_from_blind', fee(5n * P)),
  /* 42 */ op('asset_settle_cancel'),
  /* 43 */ op('asset_claim_fees', fee(20n * P)),
  /* 44 */ op('fba_distribute'),
  /* 45 */ op('bid_collateral', fee(20n * P)),
  /* 46 */ op('execute_bid'),
  /* 47 */ op('asset_claim_pool', fee(20n * P)),
  /* 48 */ op('asset_update_issuer', fee(20n * P)),
  /* 49 */ op('htlc_create', fee(P), ['fee_per_day', 'uint64', P]),
  /* 50 */ op('htlc_redeem', fee(P), ['fee_per_kb', 'uint64', P]),
  /* 51 */ op('htlc_redeemed'),
  /* 52 */ op('htlc_extend', fee(P), ['fee_per_day', 'uint64', P]),
  /* 53 */ op('htlc_refund'),
  /* 54 */ op('custom_authority_create', ['basic_fee', 'uint64', P], ['price_per_byte', 'uint32', P / 10n]),
  /* 55 */ op('custom_authority_update', ['basic_fee', 'uint64', P], ['price_per_byte', 'uint32', P / 10n]),
  /* 56 */ op('custom_authority_delete', fee(P)),
  /* 57 */ op('ticket_create', fee(50n * P)),
  /* 58 */ op('ticket_update', fee(50n * P)),
  /* 59 */ op('liquidity_pool_create', fee(50n * P)),
  /* 60 */ op('liquidity_pool_delete', fee(0n)),
  /* 61 */ op('liquidity_pool_deposit', fee(P / 10n)),
  /* 62 */ op('liquidity_pool_withdraw', fee(5n * P)),
  /* 63 */ op('liquidity_pool_exchange', fee(P)),
  /* 64 */ op('samet_fund_create', fee(P)),
  /* 65 */ op('samet_fund_delete', fee(0n)),
  /* 66 */ op('samet_fund_update', fee(P)),
  /* 67 */ op('samet_fund_borrow', fee(P)),
  /* 68 */ op('samet_fund_repay', fee(P)),
  /* 69 */ op('credit_offer_create', fee(P), perKbyte(P)),
  /* 70 */ op('credit_offer_delete', fee(0n)),
  /* 71 */ op('credit_offer_update', fee(P), perKbyte(P)),
  /* 72 */ op('credit_offer_accept', fee(P)),
  /* 73 */ op('credit_deal_repay', fee(P)),
  /* 74 */ op('credit_deal_expired'),
  /* 75 */ op('liquidity_pool_update', fee(P)),
  /* 76 */ op('credit_deal_update', fee(P)),
  /* 77 */ op('limit_order_update', fee((P * 3n) / 8n)),
];

/** Core's operation names by code (protocol/operations.hpp's static_variant order, `_operation` dropped). */
export const OPERATION_NAMES: readonly string[] = FEE_PARAMETERS.map((p) => p.name);

/** fee_schedule::get_default(): every operation with its default fee parameters, as JSON entries. */
export function defaultFeeParameters(code: number): Record<string, bigint> {
  const p = FEE_PARAMETERS[code];
  if (!p) throw new Error(`internal: no operation ${code}`);
  return Object.fromEntries(p.fields.map(([f, , d]) => [f, d]));
}

// The protocol structs the operations share (serializer.ts), each its FC_REFLECT line in the Core
// header named: assets, prices, authorities, account and asset options, price feeds, vesting and
// worker initializers, blind transfers, HTLC hashes, custom-authority restrictions, chain parameters.
import { u64 } from '../../fc/fc-json.js';
import { FEE_PARAMETERS, type FeeParameterKind } from '../fee-parameters.js';
import { MAX_SHARE_SUPPLY, defaulted, emptyStruct, extension, flatMap, flatSet, futureExtensions, lazy, optional, pair, staticVariant, struct, vector } from './combinators.js';
import { type Type, accountId, address, assetId, balanceId, bool, bytes, callOrderId, commitment, committeeMemberId, customId, forceSettlementId, hash160, int64, limitOrderId, proposalId, publicKey, ripemd160, sha1, sha256Hash, string, timePointSec, uint16, uint32, uint64, uint8, unsignedInt, vestingBalanceId, voteId, withdrawPermissionId, witnessId, workerId } from './primitives.js';

// ---------------------------------------------------------------------------------------------
// Protocol structs

/** protocol/asset.hpp: FC_REFLECT( asset, (amount)(asset_id) ) */
export const asset = struct('asset', [
  ['amount', int64],
  ['asset_id', assetId],
]);

/** protocol/asset.hpp: FC_REFLECT( price, (base)(quote) ) */
export const price = struct('price', [
  ['base', asset],
  ['quote', asset],
]);

/** protocol/memo.hpp:91: (from)(to)(nonce)(message) */
export const memoData = struct('memo_data', [
  ['from', publicKey],
  ['to', publicKey],
  ['nonce', uint64],
  ['message', bytes],
]);

/** protocol/authority.hpp: (weight_threshold)(account_auths)(key_auths)(address_auths) */
export const authority = struct('authority', [
  ['weight_threshold', uint32],
  ['account_auths', flatMap(accountId, uint16)],
  ['key_auths', flatMap(publicKey, uint16)],
  ['address_auths', flatMap(address, uint16)],
]);

/** protocol/account.hpp:282: (memo_key)(voting_account)(num_witness)(num_committee)(votes)(extensions) */
export const accountOptions = struct('account_options', [
  ['memo_key', publicKey],
  ['voting_account', defaulted(accountId, '1.2.5')], // GRAPHENE_PROXY_TO_SELF_ACCOUNT
  ['num_witness', uint16],
  ['num_committee', uint16],
  ['votes', flatSet(voteId)],
  ['extensions', futureExtensions],
]);

/** protocol/special_authority.hpp: static_variant<no_special_authority, top_holders_special_authority> */
export const specialAuthority = staticVariant('special_authority', [
  emptyStruct('no_special_authority'),
  struct('top_holders_special_authority', [
    ['asset', assetId],
    ['num_top_holders', defaulted(uint8, 1)],
  ]),
]);

/** protocol/buyback.hpp: (asset_to_buy)(asset_to_buy_issuer)(markets) */
export const buybackAccountOptions = struct('buyback_account_options', [
  ['asset_to_buy', assetId],
  ['asset_to_buy_issuer', accountId],
  ['markets', flatSet(assetId)],
]);

/** protocol/asset_ops.hpp:660: additional_asset_options (reward_percent)(whitelist_market_fee_sharing)(taker_fee_percent) */
const additionalAssetOptions = extension('additional_asset_options', [
  ['reward_percent', uint16],
  ['whitelist_market_fee_sharing', flatSet(accountId)],
  ['taker_fee_percent', uint16],
]);

/** protocol/asset_ops.hpp:626 FC_REFLECT( asset_options, … ) */
export const assetOptions = struct('asset_options', [
  ['max_supply', defaulted(int64, MAX_SHARE_SUPPLY)],
  ['market_fee_percent', uint16],
  ['max_market_fee', defaulted(int64, MAX_SHARE_SUPPLY)],
  ['issuer_permissions', defaulted(uint16, 79)], // DEFAULT_UIA_ASSET_ISSUER_PERMISSION (types.hpp)
  ['flags', uint16],
  ['core_exchange_rate', defaulted(price, { base: { amount: 0, asset_id: '1.3.0' }, quote: { amount: 0, asset_id: '1.3.1' } })],
  ['whitelist_authorities', flatSet(accountId)],
  ['blacklist_authorities', flatSet(accountId)],
  ['whitelist_markets', flatSet(assetId)],
  ['blacklist_markets', flatSet(assetId)],
  ['description', string],
  ['extensions', additionalAssetOptions],
]);

/** protocol/asset_ops.hpp: FC_REFLECT( bitasset_options, … ) and its ext */
export const bitassetOptions = struct('bitasset_options', [
  // GRAPHENE_DEFAULT_PRICE_FEED_LIFETIME, 1, GRAPHENE_DEFAULT_FORCE_SETTLEMENT_DELAY, _OFFSET, _MAX_VOLUME (config.hpp)
  ['feed_lifetime_sec', defaulted(uint32, 86400)],
  ['minimum_feeds', defaulted(uint8, 1)],
  ['force_settlement_delay_sec', defaulted(uint32, 86400)],
  ['force_settlement_offset_percent', uint16],
  ['maximum_force_settlement_volume', defaulted(uint16, 2000)],
  ['short_backing_asset', assetId],
  [
    'extensions',
    extension('bitasset_options::ext', [
      ['initial_collateral_ratio', uint16],
      ['maintenance_collateral_ratio', uint16],
      ['maximum_short_squeeze_ratio', uint16],
      ['margin_call_fee_ratio', uint16],
      ['force_settle_fee_percent', uint16],
      ['black_swan_response_method', uint8],
    ]),
  ],
]);

// ---------------------------------------------------------------------------------------------
// Structs the operations share

/** protocol/asset.hpp: FC_REFLECT( price_feed, (settlement_price)(maintenance_collateral_ratio)(maximum_short_squeeze_ratio)(core_exchange_rate) ) */
export const priceFeed = struct('price_feed', [
  ['settlement_price', price],
  ['maintenance_collateral_ratio', defaulted(uint16, 1750)], // GRAPHENE_DEFAULT_MAINTENANCE_COLLATERAL_RATIO
  ['maximum_short_squeeze_ratio', defaulted(uint16, 1500)], // GRAPHENE_DEFAULT_MAX_SHORT_SQUEEZE_RATIO
  ['core_exchange_rate', price],
]);

/** protocol/market.hpp: FC_REFLECT( create_take_profit_order_action, (fee_asset_id)(spread_percent)(size_percent)(expiration_seconds)(repeat)(extensions) ) */
const createTakeProfitOrderAction = struct('create_take_profit_order_action', [
  ['fee_asset_id', assetId],
  ['spread_percent', uint16],
  ['size_percent', defaulted(uint16, 10000)], // GRAPHENE_100_PERCENT
  ['expiration_seconds', uint32],
  ['repeat', bool],
  ['extensions', futureExtensions],
]);
/** protocol/market.hpp: limit_order_auto_action = static_variant< create_take_profit_order_action > */
export const limitOrderAutoActions = vector(staticVariant('limit_order_auto_action', [createTakeProfitOrderAction]));

/** protocol/vesting.hpp: vesting_policy_initializer = static_variant< linear, cdd, instant > */
export const vestingPolicyInitializer = staticVariant('vesting_policy_initializer', [
  struct('linear_vesting_policy_initializer', [
    ['begin_timestamp', timePointSec],
    ['vesting_cliff_seconds', uint32],
    ['vesting_duration_seconds', uint32],
  ]),
  struct('cdd_vesting_policy_initializer', [
    ['start_claim', timePointSec],
    ['vesting_seconds', uint32],
  ]),
  emptyStruct('instant_vesting_policy_initializer'),
]);

/** protocol/worker.hpp: worker_initializer = static_variant< refund, vesting_balance, burn > */
export const workerInitializer = staticVariant('worker_initializer', [
  emptyStruct('refund_worker_initializer'),
  struct('vesting_balance_worker_initializer', [['pay_vesting_period_days', uint16]]),
  emptyStruct('burn_worker_initializer'),
]);

/** protocol/assert.hpp: predicate = static_variant< account_name_eq_lit, asset_symbol_eq_lit, block_id > */
export const predicate = staticVariant('predicate', [
  struct('account_name_eq_lit_predicate', [
    ['account_id', accountId],
    ['name', string],
  ]),
  struct('asset_symbol_eq_lit_predicate', [
    ['asset_id', assetId],
    ['symbol', string],
  ]),
  struct('block_id_predicate', [['id', ripemd160]]),
]);

/** protocol/confidential.hpp: FC_REFLECT( stealth_confirmation, (one_time_key)(to)(encrypted_memo) ) */
const stealthConfirmation = struct('stealth_confirmation', [
  ['one_time_key', publicKey],
  ['to', optional(publicKey)],
  ['encrypted_memo', bytes],
]);

/** protocol/confidential.hpp: FC_REFLECT( blind_output, (commitment)(range_proof)(owner)(stealth_memo) ) */
export const blindOutput = struct('blind_output', [
  ['commitment', commitment],
  ['range_proof', bytes],
  ['owner', authority],
  ['stealth_memo', optional(stealthConfirmation)],
]);

/** protocol/confidential.hpp: FC_REFLECT( blind_input, (commitment)(owner) ) */
export const blindInput = struct('blind_input', [
  ['commitment', commitment],
  ['owner', authority],
]);

/** protocol/htlc.hpp: htlc_hash = static_variant< ripemd160, sha1, sha256, hash160 > */
export const htlcHash = staticVariant('htlc_hash', [ripemd160, sha1, sha256Hash, hash160]);

/**
 * protocol/restriction.hpp: FC_REFLECT( restriction, (member_index)(restriction_type)(argument)(extensions) ),
 * its argument one of GRAPHENE_OP_RESTRICTION_ARGUMENTS_VARIADIC (alternative 41 is
 * pair<int64_t, vector<restriction>>; bitsharesjs 6.0.3 has it wrong, as a vector of vectors).
 */
const restriction: Type = lazy('restriction', () => restrictionStruct);
export const restrictions = vector(restriction);
const restrictionIds = [accountId, assetId, forceSettlementId, committeeMemberId, witnessId, limitOrderId, callOrderId, customId, proposalId, withdrawPermissionId, vestingBalanceId, workerId, balanceId];
const restrictionScalars = [bool, int64, string, timePointSec, publicKey, sha256Hash, ...restrictionIds];
const restrictionStruct = struct('restriction', [
  ['member_index', unsignedInt],
  ['restriction_type', unsignedInt],
  [
    'argument',
    staticVariant('restriction::argument_type', [
      /*  0 */ emptyStruct('void_t'),
      /*  1…19 */ ...restrictionScalars,
      /* 20…38 */ ...restrictionScalars.map(flatSet),
      /* 39 */ restrictions,
      /* 40 */ vector(restrictions),
      /* 41 */ pair(int64, restrictions),
    ]),
  ],
  ['extensions', futureExtensions],
]);

/** protocol/fee_schedule.hpp: fee_parameters, one alternative per operation (fee-parameters.ts lists them). */
const feeParameterKinds: Readonly<Record<FeeParameterKind, Type>> = { uint64, uint32, int64 };
const feeParameters = staticVariant(
  'fee_parameters',
  FEE_PARAMETERS.map(({ name, fields }) => struct(`${name}_operation::fee_params_t`, fields.map(([f, kind, d]) => [f, defaulted(feeParameterKinds[kind], u64(d))] as const))),
  true,
);

/**
 * protocol/fee_schedule.hpp: FC_REFLECT( fee_schedule, (parameters)(scale) ). chain_parameters holds it
 * as a shared_ptr, which fc packs as the value itself; Core's from_variant makes a default one (no
 * parameters, scale 100%) when the JSON has none (types.cpp).
 */
const feeSchedule = struct('fee_schedule', [
  ['parameters', flatSet(feeParameters)],
  ['scale', defaulted(uint32, 10000)], // GRAPHENE_100_PERCENT
]);

/** protocol/chain_parameters.hpp: FC_REFLECT( chain_parameters, … ), defaults from config.hpp. */
export const chainParameters = struct('chain_parameters', [
  ['current_fees', { ...feeSchedule, pack: (w, v, path) => feeSchedule.pack(w, v ?? {}, path), json: (v, path) => feeSchedule.json(v ?? {}, path) }],
  ['block_interval', defaulted(uint8, 5)],
  ['maintenance_interval', defaulted(uint32, 86400)],
  ['maintenance_skip_slots', defaulted(uint8, 3)],
  ['committee_proposal_review_period', defaulted(uint32, 1209600)],
  ['maximum_transaction_size', defaulted(uint32, 2048)],
  ['maximum_block_size', defaulted(uint32, 2000000)],
  ['maximum_time_until_expiration', defaulted(uint32, 86400)],
  ['maximum_proposal_lifetime', defaulted(uint32, 2419200)],
  ['maximum_asset_whitelist_authorities', defaulted(uint8, 10)],
  ['maximum_asset_feed_publishers', defaulted(uint8, 10)],
  ['maximum_witness_count', defaulted(uint16, 1001)],
  ['maximum_committee_count', defaulted(uint16, 1001)],
  ['maximum_authority_membership', defaulted(uint16, 10)],
  ['reserve_percent_of_fee', defaulted(uint16, 2000)],
  ['network_percent_of_fee', defaulted(uint16, 2000)],
  ['lifetime_referrer_percent_of_fee', defaulted(uint16, 3000)],
  ['cashback_vesting_period_seconds', defaulted(uint32, 31536000)],
  ['cashback_vesting_threshold', defaulted(int64, 10000000)],
  ['count_non_member_votes', defaulted(bool, true)],
  ['allow_non_member_whitelists', bool],
  ['witness_pay_per_block', defaulted(int64, 1000000)],
  ['worker_budget_per_day', defaulted(int64, '50000000000')],
  ['max_predicate_opcode', defaulted(uint16, 1)],
  ['fee_liquidation_threshold', defaulted(int64, 10000000)],
  ['accounts_per_fee_scale', defaulted(uint16, 1000)],
  ['account_fee_scale_bitshifts', defaulted(uint8, 4)],
  ['max_authority_depth', defaulted(uint8, 2)], // GRAPHENE_MAX_SIG_CHECK_DEPTH
  [
    'extensions',
    extension('chain_parameters::ext', [
      [
        'updatable_htlc_options',
        struct('htlc_options', [
          ['max_timeout_secs', uint32],
          ['max_preimage_size', uint32],
        ]),
      ],
      [
        'custom_authority_options',
        struct('custom_authority_options_type', [
          ['max_custom_authority_lifetime_seconds', defaulted(uint32, 2592000)],
          ['max_custom_authorities_per_account', defaulted(uint32, 10)],
          ['max_custom_authorities_per_account_op', defaulted(uint32, 3)],
          ['max_custom_authority_restrictions', defaulted(uint32, 10)],
        ]),
      ],
      ['market_fee_network_percent', uint16],
      ['maker_fee_discount_percent', uint16],
    ]),
  ],
]);

// Builders for chain objects in BitShares Core's reflection order (reference §5.2), with every
// 64-bit field formatted by fc's rules. The chain writer stores what these return, byte for byte.

import { i64, u64, TIME_EPOCH, TIME_MAX } from '../fc/fc-json.js';
import { nullPublicKey } from '../crypto/public-key.js';

export interface Authority {
  weight_threshold: number;
  account_auths: [string, number][];
  key_auths: [string, number][];
  address_auths: [string, number][];
}

export const authority = (threshold: number, keys: [string, number][] = [], accounts: [string, number][] = []): Authority => ({
  weight_threshold: threshold,
  account_auths: accounts,
  key_auths: keys,
  address_auths: [],
});

/** GRAPHENE_100_PERCENT and GRAPHENE_DEFAULT_NETWORK_PERCENT_OF_FEE (config.hpp). */
export const PERCENT_100 = 10000;
export const NETWORK_PERCENT_OF_FEE = 2000;
/** GRAPHENE_DEFAULT_LIFETIME_REFERRER_PERCENT_OF_FEE: what a new (non-lifetime) account's lifetime referrer gets. */
export const LIFETIME_REFERRER_PERCENT_OF_FEE = 3000;

export interface AccountInit {
  instance: number;
  name: string;
  registrar: number;
  referrer?: number;
  lifetimeReferrer?: number;
  lifetimeMember: boolean;
  networkFeePercentage?: number;
  lifetimeReferrerFeePercentage?: number;
  referrerRewardsPercentage?: number;
  owner: Authority;
  active: Authority;
  memoKey?: string;
  votingAccount?: number;
  creationBlockNum?: number;
  creationTime?: string;
}

/**
 * account_object 1.2.x. `annotations` (an empty array) follows `id` because the seed's account record
 * lists it; current BitShares Core no longer has it, and clients ignore unknown fields.
 */
export function accountObject(a: AccountInit): Record<string, unknown> {
  return {
    id: `1.2.${a.instance}`,
    annotations: [],
    membership_expiration_date: a.lifetimeMember ? TIME_MAX : TIME_EPOCH,
    registrar: `1.2.${a.registrar}`,
    referrer: `1.2.${a.referrer ?? a.registrar}`,
    lifetime_referrer: `1.2.${a.lifetimeReferrer ?? a.registrar}`,
    network_fee_percentage: a.networkFeePercentage ?? NETWORK_PERCENT_OF_FEE,
    lifetime_referrer_fee_percentage: a.lifetimeReferrerFeePercentage ?? PERCENT_100 - NETWORK_PERCENT_OF_FEE,
    referrer_rewards_percentage: a.referrerRewardsPercentage ?? 0,
    name: a.name,
    owner: a.owner,
    active: a.active,
    options: {
      memo_key: a.memoKey ?? nullPublicKey(),
      voting_account: `1.2.${a.votingAccount ?? 5}`,
      num_witness: 0,
      num_committee: 0,
      votes: [],
      extensions: [],
    },
    num_committee_voted: 0,
    statistics: `2.6.${a.instance}`,
    whitelisting_accounts: [],
    blacklisting_accounts: [],
    whitelisted_accounts: [],
    blacklisted_accounts: [],
    owner_special_authority: [0, {}],
    active_special_authority: [0, {}],
    top_n_control_flags: 0,
    creation_block_num: a.creationBlockNum ?? 0,
    creation_time: a.creationTime ?? TIME_EPOCH,
  };
}

export interface StatisticsInit {
  instance: number;
  name: string;
  mostRecentOp?: number;
  totalOps?: bigint | number;
  removedOps?: bigint | number;
  coreInBalance?: bigint | number;
  lifetimeFeesPaid?: bigint | number;
}

/** account_statistics_object 2.6.x; the instance equals the account's. */
export function accountStatisticsObject(s: StatisticsInit): Record<string, unknown> {
  return {
    id: `2.6.${s.instance}`,
    owner: `1.2.${s.instance}`,
    name: s.name,
    most_recent_op: `2.9.${s.mostRecentOp ?? 0}`,
    total_ops: u64(s.totalOps ?? 0),
    removed_ops: u64(s.removedOps ?? 0),
    total_core_in_orders: 0,
    total_core_inactive: 0,
    total_core_pob: 0,
    total_core_pol: 0,
    total_pob_value: 0,
    total_pol_value: 0,
    core_in_balance: i64(s.coreInBalance ?? 0),
    has_cashback_vb: false,
    is_voting: false,
    last_vote_time: TIME_EPOCH,
    vp_all: 0,
    vp_active: 0,
    vp_committee: 0,
    vp_witness: 0,
    vp_worker: 0,
    vote_tally_time: TIME_EPOCH,
    lifetime_fees_paid: i64(s.lifetimeFeesPaid ?? 0),
    pending_fees: 0,
    pending_vested_fees: 0,
  };
}

export interface AssetInit {
  instance: number;
  symbol: string;
  precision: number;
  issuer: number;
  maxSupply: bigint;
  description?: string;
  /** the 2.4.x instance of a market-issued asset's bitasset data */
  bitassetDataId?: number;
  creationBlockNum?: number;
  creationTime?: string;
}

/** GRAPHENE_MAX_SHARE_SUPPLY */
export const MAX_SHARE_SUPPLY = 1_000_000_000_000_000n;

/** asset_object 1.3.x: a user-issued or core asset, or with bitasset data a market-issued one. */
export function assetObject(a: AssetInit): Record<string, unknown> {
  const id = `1.3.${a.instance}`;
  return {
    id,
    symbol: a.symbol,
    precision: a.precision,
    issuer: `1.2.${a.issuer}`,
    options: {
      max_supply: i64(a.maxSupply),
      market_fee_percent: 0,
      max_market_fee: i64(MAX_SHARE_SUPPLY),
      issuer_permissions: 0,
      flags: 0,
      core_exchange_rate: { base: { amount: 1, asset_id: id }, quote: { amount: 1, asset_id: a.instance === 0 ? id : '1.3.0' } },
      whitelist_authorities: [],
      blacklist_authorities: [],
      whitelist_markets: [],
      blacklist_markets: [],
      description: a.description ?? '',
      extensions: {},
    },
    dynamic_asset_data_id: `2.3.${a.instance}`,
    ...(a.bitassetDataId === undefined ? {} : { bitasset_data_id: `2.4.${a.bitassetDataId}` }),
    creation_block_num: a.creationBlockNum ?? 0,
    creation_time: a.creationTime ?? TIME_EPOCH,
  };
}

/** asset_dynamic_data_object 2.3.x */
export function assetDynamicDataObject(instance: number, currentSupply: bigint): Record<string, unknown> {
  return {
    id: `2.3.${instance}`,
    current_supply: i64(currentSupply),
    confidential_supply: 0,
    accumulated_fees: 0,
    accumulated_collateral_fees: 0,
    fee_pool: 0,
  };
}

/** dynamic_global_property_object 2.1.0 */
export interface DynamicGlobals {
  headBlockNumber: number;
  headBlockId: string;
  time: string;
  currentWitness: string;
  nextMaintenanceTime: string;
  lastBudgetTime: string;
  currentAslot: bigint | number;
  /** uint128 bit field of the last 128 slots, as a decimal string */
  recentSlotsFilled: string;
  lastIrreversibleBlockNum: number;
}

export function dynamicGlobalPropertyObject(d: DynamicGlobals): Record<string, unknown> {
  return {
    id: '2.1.0',
    head_block_number: d.headBlockNumber,
    head_block_id: d.headBlockId,
    time: d.time,
    current_witness: d.currentWitness,
    next_maintenance_time: d.nextMaintenanceTime,
    last_vote_tally_time: d.lastBudgetTime,
    last_budget_time: d.lastBudgetTime,
    witness_budget: 0,
    total_pob: 0,
    total_inactive: 0,
    accounts_registered_this_interval: 0,
    recently_missed_count: 0,
    current_aslot: u64(d.currentAslot),
    recent_slots_filled: d.recentSlotsFilled,
    dynamic_flags: 0,
    last_irreversible_block_num: d.lastIrreversibleBlockNum,
  };
}

/** global_property_object 2.0.0 */
export function globalPropertyObject(parameters: Record<string, unknown>, activeWitnesses: string[], activeCommittee: string[]): Record<string, unknown> {
  return {
    id: '2.0.0',
    parameters,
    next_available_vote_id: activeWitnesses.length + activeCommittee.length,
    active_committee_members: activeCommittee,
    active_witnesses: activeWitnesses,
  };
}

// database_api: Globals: chain and dynamic properties, the chain id, get_config, and the next object
// ids of get_next_object_id.

import { asUint64 } from '../../../src/api/params.js';
import type { WorkerContext } from '../../context.js';
import { asBool } from './arguments.js';
import { fail } from './checks.js';
import { NULL, chainId, mustParse, rawObject } from './store-reads.js';
import { addressPrefix } from '../../../src/chain/crypto/public-key.js';
import { headNextInstance } from '../../../src/chain/store/pending-undo.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

/** chain_property_object.immutable_parameters: the genesis file's, or immutable_chain_parameters' defaults (stores made before they were kept). */
const IMMUTABLE_PARAMETERS = { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 };

/** get_next_object_id: the index exists for space 1 types 1..22 except 1.9, and space 2 types 0..18. */
function nextObjectId(ctx: WorkerContext, method: string, space: number, type: number, withPending: boolean): string {
  const spaceSizes = [0, 23, 19];
  if (space >= spaceSizes.length) {
    // formatFc fills only [A-Za-z0-9_] placeholders, so Core's ${index.size} is written out here.
    fail(method, `_index.size() > space_id: Database index \${space_id}.\${type_id} does not exist, index size is ${spaceSizes.length}`, {
      space_id: space,
      type_id: type,
      'index.size': spaceSizes.length,
    });
  }
  if (type >= spaceSizes[space]!) {
    fail(method, `_index[space_id].size() > type_id: Database index \${space_id}.\${type_id} does not exist, space size is ${spaceSizes[space]}`, {
      space_id: space,
      type_id: type,
      'index[space_id].size': spaceSizes[space],
    });
  }
  if (space === 1 && (type === 0 || type === 9)) {
    fail(method, 'tmp != nullptr: Database index ${space_id}.${type_id} has not been initialized', { space_id: space, type_id: type });
  }
  // Without pending transactions Core reads api_helper_indexes' copy, kept at each block: here, the
  // first instance the pending transactions created, when they created one.
  const head = withPending ? undefined : headNextInstance(ctx.store, space, type);
  if (head !== undefined) return `${space}.${type}.${head}`;
  const counter = ctx.store.meta.get(`next_instance:${space}.${type}`);
  if (counter !== undefined) return `${space}.${type}.${counter}`;
  for (const k of ctx.store.objects.getKeys({ start: [space, type, Number.MAX_SAFE_INTEGER], end: [space, type, -1], reverse: true, limit: 1 })) {
    return `${space}.${type}.${k[2] + 1}`;
  }
  return `${space}.${type}.0`;
}

// get_config: graphene::chain::get_config() (libraries/chain/get_config.cpp), in its insertion order,
// with the values of protocol/config.hpp and chain/config.hpp, numbers in fc's output format.

// GRAPHENE_SYMBOL and GRAPHENE_ADDRESS_PREFIX are build constants in Core; here the core asset's
// symbol and the --address-prefix in force, written in front of the rest.
const CONFIG = {
  GRAPHENE_MIN_ACCOUNT_NAME_LENGTH: 1,
  GRAPHENE_MAX_ACCOUNT_NAME_LENGTH: 63,
  GRAPHENE_MIN_ASSET_SYMBOL_LENGTH: 3,
  GRAPHENE_MAX_ASSET_SYMBOL_LENGTH: 16,
  GRAPHENE_MAX_SHARE_SUPPLY: '1000000000000000',
  GRAPHENE_MAX_SIG_CHECK_DEPTH: 2,
  GRAPHENE_MIN_TRANSACTION_SIZE_LIMIT: 1024,
  GRAPHENE_MIN_BLOCK_INTERVAL: 1,
  GRAPHENE_MAX_BLOCK_INTERVAL: 30,
  GRAPHENE_DEFAULT_BLOCK_INTERVAL: 5,
  GRAPHENE_DEFAULT_MAX_TRANSACTION_SIZE: 2048,
  GRAPHENE_DEFAULT_MAX_BLOCK_SIZE: 2000000,
  GRAPHENE_DEFAULT_MAX_TIME_UNTIL_EXPIRATION: 86400,
  GRAPHENE_DEFAULT_MAINTENANCE_INTERVAL: 86400,
  GRAPHENE_DEFAULT_MAINTENANCE_SKIP_SLOTS: 3,
  GRAPHENE_MIN_UNDO_HISTORY: 10,
  GRAPHENE_MAX_UNDO_HISTORY: 10000,
  GRAPHENE_MIN_BLOCK_SIZE_LIMIT: 5120,
  GRAPHENE_BLOCKCHAIN_PRECISION: 100000,
  GRAPHENE_BLOCKCHAIN_PRECISION_DIGITS: 5,
  GRAPHENE_100_PERCENT: 10000,
  GRAPHENE_1_PERCENT: 100,
  GRAPHENE_MAX_MARKET_FEE_PERCENT: 10000,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_DELAY: 86400,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_OFFSET: 0,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_MAX_VOLUME: 2000,
  GRAPHENE_DEFAULT_PRICE_FEED_LIFETIME: 86400,
  GRAPHENE_DEFAULT_MAX_AUTHORITY_MEMBERSHIP: 10,
  GRAPHENE_DEFAULT_MAX_ASSET_WHITELIST_AUTHORITIES: 10,
  GRAPHENE_DEFAULT_MAX_ASSET_FEED_PUBLISHERS: 10,
  GRAPHENE_COLLATERAL_RATIO_DENOM: 1000,
  GRAPHENE_MIN_COLLATERAL_RATIO: 1001,
  GRAPHENE_MAX_COLLATERAL_RATIO: 32000,
  GRAPHENE_DEFAULT_MAINTENANCE_COLLATERAL_RATIO: 1750,
  GRAPHENE_DEFAULT_MAX_SHORT_SQUEEZE_RATIO: 1500,
  GRAPHENE_DEFAULT_MAX_WITNESSES: 1001,
  GRAPHENE_DEFAULT_MAX_COMMITTEE: 1001,
  GRAPHENE_DEFAULT_MAX_PROPOSAL_LIFETIME_SEC: 2419200,
  GRAPHENE_DEFAULT_COMMITTEE_PROPOSAL_REVIEW_PERIOD_SEC: 1209600,
  GRAPHENE_DEFAULT_NETWORK_PERCENT_OF_FEE: 2000,
  GRAPHENE_DEFAULT_LIFETIME_REFERRER_PERCENT_OF_FEE: 3000,
  GRAPHENE_DEFAULT_CASHBACK_VESTING_PERIOD_SEC: 31536000,
  GRAPHENE_DEFAULT_CASHBACK_VESTING_THRESHOLD: 10000000,
  GRAPHENE_DEFAULT_BURN_PERCENT_OF_FEE: 2000,
  GRAPHENE_DEFAULT_MAX_ASSERT_OPCODE: 1,
  GRAPHENE_DEFAULT_FEE_LIQUIDATION_THRESHOLD: 10000000,
  GRAPHENE_DEFAULT_ACCOUNTS_PER_FEE_SCALE: 1000,
  GRAPHENE_DEFAULT_ACCOUNT_FEE_SCALE_BITSHIFTS: 4,
  GRAPHENE_MAX_WORKER_NAME_LENGTH: 63,
  GRAPHENE_MAX_URL_LENGTH: 127,
  GRAPHENE_CORE_ASSET_CYCLE_RATE: 17,
  GRAPHENE_CORE_ASSET_CYCLE_RATE_BITS: 32,
  GRAPHENE_DEFAULT_WITNESS_PAY_PER_BLOCK: 1000000,
  GRAPHENE_DEFAULT_WITNESS_PAY_VESTING_SECONDS: 86400,
  GRAPHENE_DEFAULT_WORKER_BUDGET_PER_DAY: '50000000000',
  GRAPHENE_COMMITTEE_ACCOUNT: '1.2.0',
  GRAPHENE_WITNESS_ACCOUNT: '1.2.1',
  GRAPHENE_RELAXED_COMMITTEE_ACCOUNT: '1.2.2',
  GRAPHENE_NULL_ACCOUNT: '1.2.3',
  GRAPHENE_TEMP_ACCOUNT: '1.2.4',
};
const CONFIG_REST = JSON.stringify(CONFIG).slice(1);

/** get_config's text: the chain's symbol and prefix, then the build's constants. */
function configJson(ctx: WorkerContext): string {
  const symbol = (mustParse<{ symbol: string }>(ctx, [1, 3, 0])).symbol;
  return `{"GRAPHENE_SYMBOL":${JSON.stringify(symbol)},"GRAPHENE_ADDRESS_PREFIX":${JSON.stringify(addressPrefix())},${CONFIG_REST}`;
}

export const globalHandlers = {
  get_chain_properties(ctx, _params, out) {
    const stored = ctx.store.meta.get('immutable_parameters');
    out.json({ id: '2.11.0', chain_id: chainId(ctx), immutable_parameters: stored === undefined ? IMMUTABLE_PARAMETERS : JSON.parse(stored) });
  },

  get_global_properties(ctx, _params, out) {
    out.raw(rawObject(ctx, [2, 0, 0]) ?? NULL);
  },

  get_config(ctx, _params, out) {
    out.text(configJson(ctx));
  },

  get_chain_id(ctx, _params, out) {
    out.json(chainId(ctx));
  },

  get_dynamic_global_properties(ctx, _params, out) {
    out.raw(rawObject(ctx, [2, 1, 0]) ?? NULL);
  },

  get_next_object_id(ctx, [space, type, withPending], out) {
    const s = Number(asUint64(space) & 0xffn);
    const t = Number(asUint64(type) & 0xffn);
    out.json(nextObjectId(ctx, 'get_next_object_id', s, t, asBool(withPending)));
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;

// The limit-lists layer, after admit: the length of the id and name lists a call carries, where Core sets no limit
// (get_objects, get_accounts, lookup_account_names, …: 75,000 ids made one call take 2 s and a
// 74 MiB reply). Above --max-ids-per-call the call is refused before it reaches a worker, with an
// execution error shaped as Core's own list limits are ("can not be greater than N").
// Lists Core does bound (get_full_accounts, get_key_references, lookup_vote_ids, get_liquidity_pools…)
// are left to their api-limit-* checks, so those keep Core's messages.
import type { Config } from '../config.js';
import { RpcError, assertError } from '../errors.js';
import type { MethodsIn } from '../api/types.js';
import type { databaseApi } from '../api/sets/database.js';
import type { historyApi } from '../api/sets/history.js';
import { failure } from './failure.js';
import { listLength } from '../protocol/read-in-pool.js';
import type { Layer } from './types.js';

/** By set and method: the position of the list argument Core leaves unbounded, and what it lists. */
const UNBOUNDED: {
  readonly database: { readonly [M in MethodsIn<typeof databaseApi, 'pool'>]?: readonly [index: number, what: string] };
  readonly history: { readonly [M in MethodsIn<typeof historyApi, 'pool'>]?: readonly [index: number, what: string] };
} = {
  database: {
    get_objects: [0, 'ids'],
    get_accounts: [0, 'account_names_or_ids'],
    lookup_account_names: [0, 'account_names'],
    get_account_balances: [1, 'assets'],
    get_named_account_balances: [1, 'assets'],
    get_balance_objects: [0, 'addrs'],
    get_vested_balances: [0, 'objs'],
    get_assets: [0, 'asset_symbols_or_ids'],
    lookup_asset_symbols: [0, 'symbols_or_ids'],
    get_block_header_batch: [0, 'block_nums'],
    get_witnesses: [0, 'witness_ids'],
    get_committee_members: [0, 'committee_member_ids'],
    get_required_fees: [0, 'ops'],
  },
  history: {
    get_account_history_by_operations: [1, 'operation_types'],
  },
};

export function limitLists(config: Pick<Config, 'maxIdsPerCall'>): Layer {
  const table = UNBOUNDED as Readonly<Record<string, Readonly<Record<string, readonly [number, string]>>>>;
  return (call, next) => {
    const t = call.target!;
    const set = Object.hasOwn(table, t.setKey) ? table[t.setKey] : undefined;
    const entry = set && Object.hasOwn(set, t.method) ? set[t.method] : undefined;
    if (entry) {
      const list = t.args[entry[0]];
      // Read at each call: the option reloads on SIGHUP.
      const max = config.maxIdsPerCall;
      if (listLength(list) > max) {
        const error = new RpcError(
          assertError(
            '${what}.size() <= max_ids_per_call: Number of ${what} in one call can not be greater than ${configured_limit} (--max-ids-per-call)',
            { what: entry[1], configured_limit: max },
            { file: t.set.accessName, method: t.method },
          ),
        );
        call.outcome = { kind: 'error', error: failure(call, error) };
        call.limit = 'max-ids-per-call';
        return;
      }
    }
    return next(call);
  };
}

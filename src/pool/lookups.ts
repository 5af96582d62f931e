// The chain reads the front end needs for its own calls, answered by the worker pool as plain values
// (a task without a reply head: the worker writes the result JSON alone).
import { RpcError } from '../errors.js';
import type { Owner, Scheduler } from './scheduler.js';
import { idInstance } from '../chain/fc/object-id.js';
import { releaseReply } from '../protocol/reply-slab.js';
import type { PoolAnswer } from '../protocol/thread-messages.js';

/** Chain reads the front end needs for its own calls. */
export interface ChainLookups {
  /** `get_asset_id_from_string`: an asset's id from its symbol or id, or the call's error thrown */
  assetId(symbolOrId: string): Promise<string>;
  /**
   * The account instances of names or ids (names through `lookup_account_names`), in order; an
   * unknown one is undefined. For callers that have checked the list with a call that refuses
   * unknown accounts.
   */
  accountInstances(namesOrIds: readonly string[]): Promise<(number | undefined)[]>;
  /**
   * deposits.get_transfers for `owner` (a session: its calls are served in its share, and wait while
   * it does not read), the answer's JSON text; the call's error thrown as an RpcError.
   */
  transferPage(owner: Owner, params: unknown[], heavy: boolean): Promise<string>;
}

const decoder = new TextDecoder();

/** An answer's text (the reply's bytes are let go once read), or its error thrown. */
function textOf(answer: PoolAnswer): string {
  if (!(answer instanceof Uint8Array) && 'error' in answer) throw new RpcError(answer.error);
  const bytes = answer instanceof Uint8Array ? answer : answer.bytes;
  const text = decoder.decode(bytes);
  releaseReply(bytes);
  return text;
}

/** The front end's own calls share the fair queue as one owner. */
const FRONT_END = { isClosed: false, isPaused: false };

export function chainLookups(scheduler: Scheduler): ChainLookups {
  const value = async (set: string, method: string, params: unknown[]): Promise<unknown> => {
    return JSON.parse(textOf(await scheduler.submit(FRONT_END, 'light', { set, method, params })));
  };
  return {
    assetId: async (symbolOrId) => (await value('database', 'get_asset_id_from_string', [symbolOrId])) as string,
    async accountInstances(namesOrIds) {
      const isId = (s: string) => s.charCodeAt(0) >= 48 && s.charCodeAt(0) <= 57;
      const names = namesOrIds.filter((s) => !isId(s));
      const found = names.length === 0 ? [] : ((await value('database', 'lookup_account_names', [names])) as ({ id: string } | null)[]);
      const byName = new Map(names.map((n, i) => [n, found[i] ? idInstance(found[i].id) : undefined]));
      return namesOrIds.map((s) => (isId(s) ? idInstance(s) : byName.get(s)));
    },
    async transferPage(owner, params, heavy) {
      return textOf(await scheduler.submit(owner, heavy ? 'heavy' : 'light', { set: 'deposits', method: 'get_transfers', params }));
    },
  };
}

// The chain reads the front end needs for its own calls, answered by the worker pool as plain values
// (a task without a reply head: the worker writes the result JSON alone).
import { RpcError } from '../errors.js';
import type { Scheduler } from './scheduler.js';

/** Chain reads the front end needs for its own calls. */
export interface ChainLookups {
  /** `get_asset_id_from_string`: an asset's id from its symbol or id, or the call's error thrown */
  assetId(symbolOrId: string): Promise<string>;
}

const decoder = new TextDecoder();

/** The front end's own calls share the fair queue as one owner. */
const FRONT_END = { isClosed: false, isPaused: false };

export function chainLookups(scheduler: Scheduler): ChainLookups {
  const value = async (set: string, method: string, params: unknown[]): Promise<unknown> => {
    const answer = await scheduler.submit(FRONT_END, 'light', { set, method, params });
    if (!(answer instanceof Uint8Array) && 'error' in answer) throw new RpcError(answer.error);
    return JSON.parse(decoder.decode(answer instanceof Uint8Array ? answer : answer.bytes));
  };
  return {
    assetId: async (symbolOrId) => (await value('database', 'get_asset_id_from_string', [symbolOrId])) as string,
  };
}

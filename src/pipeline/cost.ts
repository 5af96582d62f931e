// The cost class of a pool call, from its method and the size of its arguments, before it runs:
// heavy calls are scheduled one to a task and never take the last worker (src/pool/scheduler.ts).
// Cheap to compute on purpose: a look at the arguments, no parsing of their contents.
import type { Target } from '../dispatch/route.js';
import type { CostClass } from '../pool/scheduler.js';
import { LIGHT_LIST_MAX, LIGHT_LIMIT_MAX } from '../tuning.js';
import { PackedArg } from '../protocol/read-in-pool.js';

/** Calls that are heavy whatever their arguments: they run authority searches. */
const HEAVY_METHODS: ReadonlySet<string> = new Set([
  'get_required_signatures',
  'get_potential_signatures',
  'get_potential_address_signatures',
  'verify_authority',
  'verify_account_authority',
  'get_required_fees',
]);

/**
 * Methods whose list items each cost many plain reads: an item counts this many times against
 * LIGHT_LIST_MAX. A get_full_accounts name reads the account with its balances, orders, history
 * head and more (about as much as 25 objects); without this, 50 names passed as light, and four
 * connections pipelining such calls held a prober's call behind dozens of them in one task (p99
 * 592 ms in adv-pipelined).
 */
export const LIST_ITEM_WEIGHT: Readonly<Record<string, number>> = { get_full_accounts: 25 };

/** Whether a value, as fc would read it as a number, is above `max` (numbers and numeric strings). */
function above(v: unknown, max: number): boolean {
  if (typeof v === 'number') return v > max;
  if (typeof v === 'string' && v.length > 0 && v.length < 22) {
    const n = Number(v);
    return Number.isFinite(n) && n > max;
  }
  return false;
}

export function costOf(t: Target): CostClass {
  if (HEAVY_METHODS.has(t.method)) return 'heavy';
  const { params } = t.spec;
  const weight = LIST_ITEM_WEIGHT[t.method] ?? 1;
  for (let i = 0; i < t.args.length; i++) {
    const a = t.args[i];
    // An argument left packed is one of a large request (src/protocol/read-in-pool.ts).
    if (a instanceof PackedArg) return 'heavy';
    if (Array.isArray(a)) {
      if (a.length * weight > LIGHT_LIST_MAX) return 'heavy';
    } else if (params[i]?.name.includes('limit') && above(a, LIGHT_LIMIT_MAX)) {
      return 'heavy';
    }
  }
  // get_blocks(from, to) and the block header batch ask for a range of blocks.
  if (t.method === 'get_blocks' && typeof t.args[0] === 'number' && typeof t.args[1] === 'number' && t.args[1] - t.args[0] > LIGHT_LIMIT_MAX) return 'heavy';
  return 'light';
}

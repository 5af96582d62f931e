// What an account holds and issued, read by get_full_accounts as well as by the balance and asset
// calls.
import type { WorkerContext } from '../../context.js';
import { instancesOf } from './store-reads.js';

/** The assets an account issued, ascending by id (Core's by_issuer index); found by a scan. */
export function assetsIssuedBy(ctx: WorkerContext, account: number, from = 0): number[] {
  const needle = `"issuer":"1.2.${account}"`;
  const out: number[] = [];
  for (const i of instancesOf(ctx, 1, 3, from)) {
    const b = ctx.store.objects.getBinaryFast([1, 3, i]);
    if (b && Buffer.from(b.buffer, b.byteOffset, b.length).includes(needle)) out.push(i);
  }
  return out;
}

/** The account's balance objects (2.5.x instances) in asset order. */
export function balanceInstances(ctx: WorkerContext, account: number, limit?: number): { asset: number; instance: number }[] {
  const out: { asset: number; instance: number }[] = [];
  for (const { key, value } of ctx.store.balances.getRange({ start: [account, 0], end: [account, Number.MAX_SAFE_INTEGER], limit })) out.push({ asset: key[1], instance: value });
  return out;
}

/** The `balance` member of a stored 2.5.x object, as served (already fc-formatted). */
export function balanceText(ctx: WorkerContext, instance: number): string {
  const b = ctx.store.objects.get([2, 5, instance]);
  const m = b ? /"balance":("?-?\d+"?)/.exec(b.toString('utf8')) : null;
  return m ? m[1]! : '0';
}

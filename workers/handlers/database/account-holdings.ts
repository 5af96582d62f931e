// What an account holds and issued, read by get_full_accounts as well as by the balance and asset
// calls.
import type { WorkerContext } from '../../context.js';
import { instancesOf, parseObject } from './store-reads.js';

/**
 * The assets an account issued, ascending by id (Core's by_issuer index). The store keeps no issuer
 * index, so every asset from `from` on is looked at. Each is decided by its parsed `issuer`; the
 * bytes are first searched for the member as the writer serialises it (JSON.stringify, no spaces), so
 * only the account's own assets are parsed: parsing all of them made get_full_accounts a third
 * slower with the 4 assets of the bench's quick chain, and it grows with the asset count.
 */
export function assetsIssuedBy(ctx: WorkerContext, account: number, from = 0): number[] {
  const issuer = `1.2.${account}`;
  const member = Buffer.from(`"issuer":"${issuer}"`);
  const out: number[] = [];
  for (const i of instancesOf(ctx, 1, 3, from)) {
    const b = ctx.store.objects.getBinaryFast([1, 3, i]);
    if (!b || !Buffer.from(b.buffer, b.byteOffset, b.length).includes(member)) continue;
    if (parseObject<{ issuer: string }>(ctx, [1, 3, i])?.issuer === issuer) out.push(i);
  }
  return out;
}

/** The account's balance objects (2.5.x instances) in asset order. */
export function balanceInstances(ctx: WorkerContext, account: number, limit?: number): { asset: number; instance: number }[] {
  const out: { asset: number; instance: number }[] = [];
  for (const { key, value } of ctx.store.balances.getRange({ start: [account, 0], end: [account, Number.MAX_SAFE_INTEGER], limit })) out.push({ asset: key[1], instance: value });
  return out;
}

/** The `balance` member of a stored 2.5.x object, as served (already fc-formatted: a number, or a string beyond 32 bits). */
export function balanceText(ctx: WorkerContext, instance: number): string {
  const balance = parseObject<{ balance: number | string }>(ctx, [2, 5, instance])?.balance;
  return balance === undefined ? '0' : JSON.stringify(balance);
}

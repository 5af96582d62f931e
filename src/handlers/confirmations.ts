// Waiters for transactions to appear in a block: broadcast_transaction_with_callback sends a notice,
// broadcast_transaction_synchronous resolves its reply. Built once per block from the producer's
// report, in the block's order.
import type { ProducedBlock } from '../chain/node/producer.js';
import type { WireError } from '../errors.js';
import { RECENT_OUTCOMES } from '../tuning.js';

/** transaction_confirmation, reflected as (id)(block_num)(trx_num)(trx). */
export interface Confirmation {
  id: string;
  block_num: number;
  trx_num: number;
  trx: Record<string, unknown>;
}

/**
 * Called with the confirmation, or with the reason the transaction will never be confirmed (and the
 * error to answer with, when it is not the usual assertion: the node shutting down).
 */
export type Waiter = (c: Confirmation | { dropped: string; error?: WireError }) => void;

export class Confirmations {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly recent = new Map<string, Parameters<Waiter>[0]>();

  /** Calls `w` once, when the transaction is in an applied block (at once if it was, just now). */
  wait(txid: string, w: Waiter): void {
    const known = this.recent.get(txid);
    if (known !== undefined) {
      w(known);
      return;
    }
    const list = this.waiters.get(txid);
    if (list) list.push(w);
    else this.waiters.set(txid, [w]);
  }

  /** Forgets every waiter for which `keep` says no (a closed connection's). */
  drop(w: Waiter): void {
    for (const [id, list] of this.waiters) {
      const left = list.filter((x) => x !== w);
      if (left.length === 0) this.waiters.delete(id);
      else this.waiters.set(id, left);
    }
  }

  private remember(txid: string, outcome: Parameters<Waiter>[0]): void {
    this.recent.set(txid, outcome);
    if (this.recent.size > RECENT_OUTCOMES) this.recent.delete(this.recent.keys().next().value!);
  }

  onBlock(block: ProducedBlock): void {
    block.transactionIds.forEach((id, i) => {
      const c: Confirmation = { id, block_num: block.blockNum, trx_num: i, trx: block.transactions[i]! };
      this.remember(id, c);
      const list = this.waiters.get(id);
      if (!list) return;
      this.waiters.delete(id);
      for (const w of list) w(c);
    });
  }

  /** A pending transaction was dropped: its waiters learn why. */
  onDropped(txid: string, reason: string): void {
    this.remember(txid, { dropped: reason });
    const list = this.waiters.get(txid);
    if (!list) return;
    this.waiters.delete(txid);
    for (const w of list) w({ dropped: reason });
  }

  /** No block will come any more (the node is stopping): every waiter gets `error`, now. */
  abandonAll(error: WireError): void {
    const lists = [...this.waiters.values()];
    this.waiters.clear();
    for (const list of lists) for (const w of list) w({ dropped: error.message, error });
  }

  get size(): number {
    return this.waiters.size;
  }
}

// The devnet's block producer: it holds the pending transactions, produces a block every
// `--block-interval` seconds (or on demand), and tells listeners what each block changed.
//
// One producer per node, in the main thread, owning the only writable handle on chain state.
// Applying a block is one LMDB write transaction (writer.ts): after a crash the store holds the last
// complete block and nothing of a partial one.

import { EventEmitter } from 'node:events';
import type { ChainStore } from './store.js';
import { applyBlock, reportedBlockInterval, setBlockInterval, type AppliedBlock, type SignedTransactionJson } from './writer.js';
import { validateTransaction } from './validate.js';
import { ChainState } from './state.js';
import { overlayStore, type OverlayStore } from './state-store.js';
import { evaluate, ChainError } from './evaluators.js';
import { RpcError, assertError } from '../errors.js';
import { fcTime, parseFcTime } from './fc-json.js';
import type { Logger } from '../log.js';
import { publicKeyOf } from './keys.js';

/** A block as the producer announces it: what the writer applied, transactions included. */
export type ProducedBlock = AppliedBlock;

export interface ProducerEvents {
  block: [ProducedBlock];
  pending: [SignedTransactionJson];
  /** a pending transaction that will never be in a block, and why */
  dropped: [string, string];
}

export class BlockProducer extends EventEmitter<ProducerEvents> {
  private readonly pending: { id: string; trx: SignedTransactionJson }[] = [];
  private readonly pendingIds = new Set<string>();
  /** the committed state with every pending transaction applied, in memory; dropped with each block */
  private pendingState: OverlayStore | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** the public key of the signing key, as the witness object names it */
  readonly signingPublicKey: string;

  constructor(
    private readonly store: ChainStore,
    private readonly signingKey: Uint8Array,
    private readonly intervalSeconds: number,
    private readonly log: Logger,
  ) {
    super();
    this.signingPublicKey = publicKeyOf(signingKey);
    // Before any worker or client reads the global properties: they must give the interval used now.
    if (setBlockInterval(store, intervalSeconds)) log.info({ blockInterval: reportedBlockInterval(intervalSeconds) }, 'global properties updated to the block interval in use');
    if (intervalSeconds > 255) log.warn({ blockInterval: intervalSeconds }, 'the global properties can report at most 255 s (block_interval is a uint8)');
  }

  /** Starts producing on the interval (an interval of 0 produces only on demand). */
  start(): void {
    if (this.intervalSeconds > 0) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private schedule(): void {
    if (this.stopped) return;
    const ms = this.intervalSeconds * 1000;
    // Blocks fall on slot boundaries (multiples of the interval), as a witness's do.
    const wait = ms - (Date.now() % ms);
    this.timer = setTimeout(() => {
      try {
        this.produce(Math.round(Date.now() / 1000));
      } catch (err) {
        this.log.error({ err }, 'block production failed');
      }
      this.schedule();
    }, wait);
  }

  /**
   * Checks a transaction and queues it for the next block; returns its id. Refusals are RpcErrors
   * that say what is wrong. The transaction is applied in memory on top of everything queued before
   * it (state-store.ts), so that it cannot fail in the block; only if it applies is its effect kept
   * for the transactions after it.
   */
  push(trx: unknown): string {
    const checked = validateTransaction(this.store, trx, this.pendingIds);
    const dgp = JSON.parse(this.store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string };
    this.pendingState ??= overlayStore(this.store);
    const attempt = overlayStore(this.pendingState);
    try {
      const state = new ChainState(attempt);
      const ctx = { state, blockNum: dgp.head_block_number + 1, blockTime: parseFcTime(dgp.time) };
      for (const op of checked.trx.operations) evaluate(ctx, op);
      state.flush();
    } catch (err) {
      if (err instanceof ChainError) throw new RpcError(assertError(err.message, {}, { file: 'evaluator', method: 'apply' }));
      throw err;
    }
    attempt.commit();
    this.pending.push(checked);
    this.pendingIds.add(checked.id);
    this.emit('pending', checked.trx);
    return checked.id;
  }

  /** Produces one block now with what is pending. `time` (seconds) defaults to now. */
  produce(time = Math.round(Date.now() / 1000)): ProducedBlock {
    const dgp = JSON.parse(this.store.objects.get([2, 1, 0])!.toString('utf8')) as { time: string };
    const timestamp = Math.max(time, parseFcTime(dgp.time) + 1);
    const queued = this.pending.splice(0);
    this.pendingIds.clear();
    this.pendingState = undefined;
    // A transaction that no longer applies (it expired, say) is dropped rather than failing the block.
    const transactions: SignedTransactionJson[] = [];
    for (const p of queued) {
      if (parseFcTime(p.trx.expiration) < timestamp) {
        this.log.info({ trx: p.id }, 'pending transaction expired before it could be included');
        this.emit('dropped', p.id, `the transaction expired at ${p.trx.expiration}, before block time ${fcTime(timestamp)}`);
        continue;
      }
      transactions.push(p.trx);
    }
    let applied: AppliedBlock;
    try {
      applied = applyBlock(this.store, { timestamp, transactions }, this.signingKey);
    } catch (err) {
      // A transaction that failed only now (the dry run passed) is dropped and the block retried.
      this.log.warn({ err }, 'a pending transaction failed in the block; producing without the pending set');
      for (const p of queued) this.emit('dropped', p.id, `the transaction failed when its block was applied: ${(err as Error).message}`);
      applied = applyBlock(this.store, { timestamp, transactions: [] }, this.signingKey);
    }
    this.log.debug({ block: applied.blockNum, transactions: transactions.length }, 'produced block');
    this.emit('block', applied);
    return applied;
  }
}

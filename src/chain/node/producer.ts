// The devnet's block producer: it holds the pending transactions, produces a block every
// `--block-interval` seconds (or on demand), and tells listeners what each block changed.
//
// One producer per node, in the main thread, owning the only writable handle on chain state.
// Applying a block is one LMDB write transaction (block-applier.ts): after a crash the store holds the last
// complete block and nothing of a partial one.
//
// When the store refuses a block (disk full, map full, I/O error), nothing of the block is kept (the
// transaction is aborted), the pending transactions stay for the next attempt, the failure is logged
// as an error and shown by `blockWriteFailure` (readiness, metrics), and new transactions are refused
// with -32015 rather than queued for blocks that cannot be written. Timed production then tries
// again with a growing delay (STORE_RETRY_FIRST_MS doubling to STORE_RETRY_MAX_MS) and returns to its
// slots with the first block written.

import { EventEmitter } from 'node:events';
import { ABORT } from 'lmdb';
import { statfsSync } from 'node:fs';
import { storeWriteError, type ChainStore } from '../store/store.js';
import { applyBlock, DEFAULT_PLUGINS, reportedBlockInterval, setBlockInterval, type AppliedBlock, type BlockPlugins, type SignedTransactionJson } from './block-applier.js';
import { validateTransaction } from './validate.js';
import { ChainState } from '../store/state.js';
import { rewindPending, undoRecordingStore } from '../store/pending-undo.js';
import { evaluate, ChainError } from '../evaluators/evaluators.js';
import { RPC, RpcError, assertError, limitError } from '../../errors.js';
import { fcTime, parseFcTime } from '../fc/fc-json.js';
import type { Logger } from '../../log.js';
import { publicKeyOf } from '../crypto/keys.js';
import { recordPotentialPeer } from './peers.js';
import type { ChainWriter, ChainWriterEvents } from './chain-writer.js';

/** A block as the producer announces it: what the writer applied, transactions included. */
export type ProducedBlock = AppliedBlock;

/**
 * The writer's events, and `blockWriteFailure`: the store began or stopped refusing blocks (what
 * readiness and metrics show), for serving processes of --processes, which learn it from the writer.
 */
export type ProducerEvents = ChainWriterEvents & { blockWriteFailure: [BlockWriteFailure | undefined] };

/** The first retry after the store refused a block, in ms; each further failure doubles it. */
export const STORE_RETRY_FIRST_MS = 1000;
/** The longest wait between two attempts to write a block the store refused, in ms. */
export const STORE_RETRY_MAX_MS = 30_000;

/** The store refuses blocks: since when, how often it was tried, and what it said the last time. */
export interface BlockWriteFailure {
  /** what the store said, in a few words: "ENOSPC (No space left on device)" */
  readonly error: string;
  /** ms since the epoch of the first refused write */
  readonly since: number;
  /** writes refused in a row */
  readonly attempts: number;
}

/**
 * The disk under the store, looked at before each block is written. Below `minFreeBytes` free, the
 * block is refused as a full disk refuses it, without asking LMDB: a write LMDB itself fails with
 * ENOSPC can leave lmdb-js' native state damaged (kriszyp/lmdb-js#40: a crash later in the process),
 * so the node stops short of it.
 */
export interface DiskWatch {
  readonly dataDir: string;
  /** bytes that must stay free (--min-free-disk-bytes; read at each block, so a reload applies at once) */
  readonly minFreeBytes: () => number;
}

/** Why the disk is too full for a block, or undefined when it is not. */
export function diskTooFull(disk: DiskWatch): string | undefined {
  const min = disk.minFreeBytes();
  if (min <= 0) return undefined;
  const s = statfsSync(disk.dataDir);
  const free = s.bavail * s.bsize;
  return free < min ? `ENOSPC (${Math.floor(free / 1024 / 1024)} MiB free, under --min-free-disk-bytes)` : undefined;
}

/** ms to wait before the next attempt after `attempts` refused writes in a row. */
export const storeRetryDelay = (attempts: number): number => Math.min(STORE_RETRY_MAX_MS, STORE_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));

export class BlockProducer extends EventEmitter<ProducerEvents> {
  private readonly pending: { id: string; trx: SignedTransactionJson }[] = [];
  private readonly pendingIds = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private failure: BlockWriteFailure | undefined;

  /** the public key of the signing key, as the witness object names it */
  readonly signingPublicKey: string;

  constructor(
    private readonly store: ChainStore,
    private readonly signingKey: Uint8Array,
    private readonly intervalSeconds: number,
    private readonly log: Logger,
    /** the disk to look at before each block (none: only LMDB's own refusals count) */
    private readonly disk?: DiskWatch,
    /** the plugins that take part in applying blocks (--custom-operations-plugin) */
    private readonly plugins: BlockPlugins = DEFAULT_PLUGINS,
  ) {
    super();
    this.signingPublicKey = publicKeyOf(signingKey);
    // Before any worker or client reads the global properties: they must give the interval used now.
    if (setBlockInterval(store, intervalSeconds)) log.info({ blockInterval: reportedBlockInterval(intervalSeconds) }, 'global properties updated to the block interval in use');
    // Pending transactions of a previous run that ended without a block (a crash, kill -9) are
    // still in the store; like Core, which keeps its pending state in memory, the node forgets them.
    const rewound = store.root.transactionSync(() => rewindPending(store));
    if (rewound > 0) log.warn({ undoEntries: rewound }, 'the store held pending changes of a previous run; they were rolled back to the head block');
  }

  /**
   * network_node.add_node: records `endpoint` as a potential peer. The peer list is node-local state,
   * not chain state (peers.ts), but it is written here, by the holder of the store's one writable
   * handle, like everything else the node writes.
   */
  recordPeer(endpoint: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    return recordPotentialPeer(this.store, endpoint, nowSeconds);
  }

  /** The producer as the front end sees the chain's writer (chain-block-applier.ts), in this process. */
  asWriter(): ChainWriter {
    return {
      push: async (trx) => this.push(trx),
      validate: async (trx) => this.validate(trx),
      recordPeer: (endpoint) => this.recordPeer(endpoint),
      producing: {
        signingPublicKey: this.signingPublicKey,
        produce: async (count) => {
          for (let i = 0; i < count; i++) this.produce();
        },
      },
      // EventEmitter's conditional listener type does not narrow on a generic key; the key and the
      // listener come in matching pairs from the interface's signature.
      on: (event, listener) => this.on(event, listener as never),
    };
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

  /** False while the store refuses blocks: from a refused write until the next block is written. */
  get storeWritable(): boolean {
    return this.failure === undefined;
  }

  /** Why blocks cannot be written now, or undefined when they can. */
  get blockWriteFailure(): BlockWriteFailure | undefined {
    return this.failure;
  }

  private schedule(): void {
    if (this.stopped) return;
    const ms = this.intervalSeconds * 1000;
    // Blocks fall on slot boundaries (multiples of the interval), as a witness's do; after a refused
    // write, the next attempt waits for the backoff instead.
    const wait = this.failure ? storeRetryDelay(this.failure.attempts) : ms - (Date.now() % ms);
    this.timer = setTimeout(() => {
      try {
        this.produce(Math.round(Date.now() / 1000));
      } catch (err) {
        // A refused write was logged where it happened.
        if (!(err instanceof RpcError && err.wire.code === RPC.BLOCKS_NOT_WRITABLE.code)) this.log.error({ err }, 'block production failed');
      }
      this.schedule();
    }, wait);
  }

  /** The refusal a transaction or a block request gets while blocks cannot be written. */
  private notWritable(failure: BlockWriteFailure): RpcError {
    return new RpcError(limitError(RPC.BLOCKS_NOT_WRITABLE, `the store refused the last block: ${failure.error}`));
  }

  /** Records a write the store refused and logs it; returns the error for the caller. */
  private writeRefused(err: unknown, error: string, blockNum: number): RpcError {
    const attempts = (this.failure?.attempts ?? 0) + 1;
    this.failure = { error, since: this.failure?.since ?? Date.now(), attempts };
    this.emit('blockWriteFailure', this.failure);
    const retryMs = this.intervalSeconds > 0 ? storeRetryDelay(attempts) : undefined;
    if (attempts === 1) {
      this.log.error({ err, error, block: blockNum, retryMs }, 'block write failed: the store refuses writes; transactions are refused until a block is written');
    } else {
      this.log.error({ error, block: blockNum, attempts, since: new Date(this.failure.since).toISOString(), retryMs }, 'block write failed again');
    }
    return this.notWritable(this.failure);
  }

  /** The head block's number and time (seconds). */
  private head(): { num: number; time: number } {
    const dgp = JSON.parse(this.store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string };
    return { num: dgp.head_block_number, time: parseFcTime(dgp.time) };
  }

  /**
   * Checks a transaction and applies it on top of the pending state, in one write transaction: kept
   * with its undo entries (pending-undo.ts) when `keep`, aborted when not. Returns the checked transaction
   * and its operation results; refusals are RpcErrors that say what is wrong, and leave no trace.
   */
  private apply(trx: unknown, keep: boolean): { checked: { id: string; trx: SignedTransactionJson }; results: unknown[] } {
    const checked = validateTransaction(this.store, trx, this.pendingIds);
    const head = this.head();
    const results: unknown[] = [];
    try {
      this.store.root.transactionSync(() => {
        const state = new ChainState(keep ? undoRecordingStore(this.store) : this.store);
        const ctx = { state, blockNum: head.num + 1, blockTime: head.time };
        for (const op of checked.trx.operations) results.push(evaluate(ctx, op).result);
        state.flush();
        return keep ? undefined : ABORT;
      });
    } catch (err) {
      if (err instanceof ChainError) throw new RpcError(assertError(err.message, {}, { file: 'evaluator', method: 'apply' }));
      const error = storeWriteError(err);
      if (error !== undefined) throw new RpcError(limitError(RPC.BLOCKS_NOT_WRITABLE, `the store refused the pending transaction: ${error}`));
      throw err;
    }
    return { checked, results };
  }

  /**
   * Checks a transaction, applies it to the pending state and queues it for the next block; returns
   * its id. The transaction is applied to the store on top of everything pending before it, in its
   * own write transaction, so every read sees it at once, as in Core; one that fails leaves no trace.
   */
  push(trx: unknown): string {
    // It could only wait for a block that cannot be written; the client may send it to another node.
    if (this.failure) throw this.notWritable(this.failure);
    // Stopped (the node is shutting down): no block will take it, and pending transactions are not kept.
    if (this.stopped) throw new RpcError(limitError(RPC.SHUTTING_DOWN, 'transactions are not accepted while it stops'));
    const { checked } = this.apply(trx, true);
    this.pending.push(checked);
    this.pendingIds.add(checked.id);
    this.emit('pending', checked.trx);
    return checked.id;
  }

  /**
   * database_api.validate_transaction: applies a transaction to the pending state as `push` does,
   * with every check, and undoes it; returns the transaction as Core's processed_transaction, with
   * its operation results.
   */
  validate(trx: unknown): Record<string, unknown> {
    const { checked, results } = this.apply(trx, false);
    const t = checked.trx;
    return {
      ref_block_num: t.ref_block_num,
      ref_block_prefix: t.ref_block_prefix,
      expiration: t.expiration,
      operations: t.operations,
      extensions: t.extensions,
      signatures: t.signatures,
      operation_results: results,
    };
  }

  /**
   * Produces one block now with what is pending. `time` (seconds) defaults to now. When the store
   * refuses the block, throws -32015 and keeps the pending transactions for the next attempt.
   */
  produce(time = Math.round(Date.now() / 1000)): ProducedBlock {
    const head = this.head();
    const timestamp = Math.max(time, head.time + 1);
    const blockNum = head.num + 1;
    // A transaction that no longer applies (it expired, say) is dropped rather than failing the block.
    const expired = this.pending.filter((p) => parseFcTime(p.trx.expiration) < timestamp);
    const included = this.pending.filter((p) => parseFcTime(p.trx.expiration) >= timestamp);
    const full = this.disk ? diskTooFull(this.disk) : undefined;
    if (full !== undefined) throw this.writeRefused(undefined, full, blockNum);
    let applied: AppliedBlock;
    let failedTransactions: unknown;
    try {
      // One write transaction: the pending state is rewound to the head, then the block applied (in
      // a child transaction, so that a block whose transactions fail is dropped alone). A refused
      // write keeps both the head and the pending state as they were.
      applied = this.store.root.transactionSync(() => {
        rewindPending(this.store);
        try {
          return applyBlock(this.store, { timestamp, transactions: included.map((p) => p.trx) }, this.signingKey, this.plugins);
        } catch (err) {
          if (storeWriteError(err) !== undefined) throw err;
          // A transaction that failed only now (it applied when pending) is dropped with the rest.
          this.log.warn({ err }, 'a pending transaction failed in the block; producing without the pending set');
          failedTransactions = err;
          return applyBlock(this.store, { timestamp, transactions: [] }, this.signingKey, this.plugins);
        }
      });
    } catch (err) {
      const error = storeWriteError(err);
      throw error === undefined ? err : this.writeRefused(err, error, blockNum);
    }
    // The block is in the store: the pending pool starts again from it.
    this.pending.splice(0);
    this.pendingIds.clear();
    if (this.failure) {
      this.log.info({ block: applied.blockNum, attempts: this.failure.attempts, since: new Date(this.failure.since).toISOString() }, 'block writes resumed');
      this.failure = undefined;
      this.emit('blockWriteFailure', undefined);
    }
    for (const p of expired) {
      this.log.info({ trx: p.id }, 'pending transaction expired before it could be included');
      this.emit('dropped', p.id, `the transaction expired at ${p.trx.expiration}, before block time ${fcTime(timestamp)}`);
    }
    if (failedTransactions !== undefined) {
      for (const p of included) this.emit('dropped', p.id, `the transaction failed when its block was applied: ${(failedTransactions as Error).message}`);
    }
    // As Core's plugin warns: only the API node knows that a payload was not applied.
    for (const n of applied.pluginNotes) this.log.warn({ block: applied.blockNum, trxInBlock: n.trxInBlock, opInTrx: n.opInTrx, reason: n.message }, 'custom_operations plugin: payload not applied');
    this.log.debug({ block: applied.blockNum, transactions: failedTransactions === undefined ? included.length : 0 }, 'produced block');
    this.emit('block', applied);
    return applied;
  }
}

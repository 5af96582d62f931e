// A follower (`serve --follow ws://HOST:PORT`): the chain's writer in a node that does not produce.
// It builds its own store from an upstream node through the public API only, the calls BitShares
// Core has (get_chain_id, get_global_properties, get_dynamic_global_properties, get_block,
// set_block_applied_callback, broadcast_transaction, validate_transaction), so the upstream may be
// this node or Core. The idea is Core's delayed_node, which follows a trusted node over its API.
//
// Catch-up: get_block of every block after our head, up to --follow-blocks-in-flight requests in
// flight, applied in order. Live: each block-applied notice raises the upstream's head and wakes the
// same loop. After a reconnect it catches up again from its own head, so a missed notice leaves no
// gap. Each block is applied by block-applier.ts's applyBlock with the upstream's header, in one write
// transaction: the block's previous must be our head, and its merkle root (which covers every
// operation result) must be what our evaluation gives, so after a crash (kill -9) the store holds
// whole blocks only, and a follower resumes from its head with no gap and no duplicate.
//
// It never diverges silently: a block that does not fit (another previous block: the upstream forked
// or is another chain; other operation results; a bad signature; a block id the upstream's own
// notice or block_id contradicts; a malformed block; a frame over --follow-max-frame-bytes) stops
// following for good, with an error in the log and /ready at 503, until an operator restarts it. Core
// upstreams can switch forks (pop blocks); this follower cannot pop blocks, so a fork below its head
// stops it the same way.
//
// Reads and subscriptions are served from its own store. Broadcasts are forwarded upstream and their
// confirmations come from the follower's own copy of the block, so a broadcast_transaction_synchronous
// answered here can be read here at once. There is no pending state on a follower: a transaction
// forwarded upstream is visible here once its block arrives, not before.
import { EventEmitter } from 'node:events';
import type { ChainStore } from '../chain/store/store.js';
import { storeWriteError } from '../chain/store/store.js';
import { applyBlock, BlockMismatch, DEFAULT_PLUGINS, setBlockInterval, type AppliedBlock, type BlockPlugins, type SignedBlockHeaderJson } from '../chain/node/block-applier.js';
import { rewindPending } from '../chain/store/pending-undo.js';
import { recordPotentialPeer } from '../chain/node/peers.js';
import { blockId, canonicalSignedTransaction, numFromId, transactionId } from '../chain/protocol/serializer.js';
import { fcTime, parseFcTime } from '../chain/fc/fc-json.js';
import type { SignedTransactionJson } from '../chain/protocol/types.js';
import type { ChainWriter, ChainWriterEvents } from '../chain/node/chain-writer.js';
import { RPC, RpcError, limitError } from '../errors.js';
import type { Logger } from '../log.js';
import { UpstreamCallError, UpstreamClient, UpstreamConnectionError } from './upstream-client.js';
import { FOLLOW_HEAD_POLL_MS, FOLLOW_RETRY_FIRST_MS, UPSTREAM_TIMEOUT_MS } from '../tuning.js';

export interface FollowerOptions {
  /** ws://HOST:PORT of the upstream (--follow) */
  readonly url: string;
  /** blocks behind the upstream before /ready says 503 (--follow-max-lag-blocks) */
  readonly maxLagBlocks: number;
  /** get_block requests in flight during catch-up (--follow-blocks-in-flight) */
  readonly blocksInFlight: number;
  /** the largest message taken from the upstream, bytes (--follow-max-frame-bytes) */
  readonly maxFrameBytes: number;
  /** the longest wait between two connection attempts, ms (--follow-retry-max-ms) */
  readonly retryMaxMs: number;
  readonly plugins?: BlockPlugins;
}

/** The callback id this follower gives set_block_applied_callback. */
const BLOCK_CALLBACK = 1;

export interface FollowStatus {
  /** connected to the upstream, subscribed to its blocks, and its head known */
  readonly connected: boolean;
  readonly upstreamHead: number;
  readonly lagBlocks: number;
  readonly lagSeconds: number;
  /** connections made after the first */
  readonly reconnects: number;
  /** why following stopped for good, when it did */
  readonly stopped: string | undefined;
}

/** Following stops for good: the upstream is not a chain this node can follow without diverging. */
class FollowStopped extends Error {}

/** A transient failure: the connection is dropped and made again (after a wait). */
class Reconnect extends Error {}

export class Follower extends EventEmitter<ChainWriterEvents> {
  private client: UpstreamClient | undefined;
  private connected = false;
  private closing = false;
  private stoppedBy: string | undefined;
  private reconnects = 0;
  private connections = 0;
  private upstreamHead = 0;
  private upstreamHeadTime = 0;
  private upstreamLib = 0;
  /** block ids the upstream announced (block-applied notices), by number, until applied */
  private readonly announced = new Map<number, string>();
  /** transactions forwarded upstream and not yet in a block: their expiration (seconds) */
  private readonly forwarded = new Map<string, number>();
  private wake: (() => void) | undefined;
  private retryTimer: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  private running: Promise<void> | undefined;
  private abortConnect: (() => void) | undefined;
  private readonly plugins: BlockPlugins;

  constructor(
    private readonly store: ChainStore,
    private readonly chainId: string,
    private readonly o: FollowerOptions,
    private readonly log: Logger,
  ) {
    super();
    this.plugins = o.plugins ?? DEFAULT_PLUGINS;
    // A data directory a producer left with pending changes (a crash) holds them still; a follower
    // has no pending state, and its blocks must apply on the head block alone.
    const rewound = store.root.transactionSync(() => rewindPending(store));
    if (rewound > 0) log.warn({ undoEntries: rewound }, 'the store held pending changes of a previous run; they were rolled back to the head block');
  }

  /**
   * Starts following. Resolves once the first connection either works (the upstream serves our
   * chain) or fails (then it retries in the background, and /ready says 503 meanwhile); rejects when
   * the upstream serves another chain, so that the node refuses to start.
   */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.running = this.run({ resolve, reject });
    });
  }

  /** Stops following (the node is shutting down): the connection is closed between blocks. */
  async stop(): Promise<void> {
    this.closing = true;
    this.abortConnect?.();
    this.client?.close();
    if (this.retryTimer) {
      clearTimeout(this.retryTimer.timer);
      this.retryTimer.resolve();
    }
    this.wake?.();
    await this.running;
  }

  status(): FollowStatus {
    const head = this.head();
    const lagBlocks = Math.max(0, this.upstreamHead - head.num);
    return {
      connected: this.connected,
      upstreamHead: this.upstreamHead,
      lagBlocks,
      lagSeconds: lagBlocks === 0 ? 0 : Math.max(0, this.upstreamHeadTime - head.time),
      reconnects: this.reconnects,
      stopped: this.stoppedBy,
    };
  }

  /** Why this node should get no traffic now, or undefined: /ready's view of following. */
  notReady(): string | undefined {
    if (this.stoppedBy !== undefined) return `following ${this.o.url} stopped: ${this.stoppedBy}`;
    if (!this.connected) return `not connected to the upstream ${this.o.url}`;
    const s = this.status();
    if (s.lagBlocks > this.o.maxLagBlocks) return `${s.lagBlocks} blocks behind the upstream (--follow-max-lag-blocks ${this.o.maxLagBlocks})`;
    return undefined;
  }

  /** The follower as the front end sees the chain's writer (chain-block-applier.ts): it does not produce. */
  asWriter(): ChainWriter {
    return {
      push: (trx) => this.push(trx),
      validate: (trx) => this.validate(trx),
      recordPeer: (endpoint) => recordPotentialPeer(this.store, endpoint, Math.floor(Date.now() / 1000)),
      on: (event, listener) => this.on(event, listener as never),
    };
  }

  /**
   * network_broadcast_api: forwards the transaction upstream (broadcast_transaction) and answers as
   * the upstream did, its error object passed on as it is. Its confirmation comes from the block as
   * this node applies it. The upstream answers a broadcast before it can announce a block holding
   * the transaction (one connection, in order; the block is fetched after its notice), so the
   * caller's waiter is in place before the block is applied here.
   */
  private async push(trx: unknown): Promise<string> {
    const client = this.upstreamFor('transactions are not accepted while it stops');
    try {
      await client.call('network_broadcast', 'broadcast_transaction', [trx]);
    } catch (err) {
      throw forwardedError(err);
    }
    const t = canonicalSignedTransaction(trx) as unknown as SignedTransactionJson;
    const id = transactionId(t);
    this.forwarded.set(id, parseFcTime(t.expiration));
    return id;
  }

  /** database_api.validate_transaction: the upstream's pending state is the one that counts; forwarded. */
  private async validate(trx: unknown): Promise<Record<string, unknown>> {
    const client = this.upstreamFor('it is shutting down');
    try {
      return (await client.call('database', 'validate_transaction', [trx])) as Record<string, unknown>;
    } catch (err) {
      throw forwardedError(err);
    }
  }

  private upstreamFor(stopping: string): UpstreamClient {
    if (this.closing) throw new RpcError(limitError(RPC.SHUTTING_DOWN, stopping));
    const client = this.client;
    if (!client || !this.connected) {
      throw new RpcError(limitError(RPC.UPSTREAM_UNAVAILABLE, this.stoppedBy !== undefined ? `following stopped: ${this.stoppedBy}` : `not connected to ${this.o.url}`));
    }
    return client;
  }

  private head(): { num: number; time: number; id: string } {
    const dgp = JSON.parse(this.store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; head_block_id: string; time: string };
    return { num: dgp.head_block_number, time: parseFcTime(dgp.time), id: dgp.head_block_id };
  }

  private async run(first: { resolve: () => void; reject: (err: Error) => void }): Promise<void> {
    let failures = 0;
    let started = false;
    const begun = () => {
      if (started) return;
      started = true;
      first.resolve();
    };
    while (!this.closing && this.stoppedBy === undefined) {
      let client: UpstreamClient;
      try {
        client = await UpstreamClient.connect(this.o.url, { maxFrameBytes: this.o.maxFrameBytes, timeoutMs: UPSTREAM_TIMEOUT_MS }, (abort) => (this.abortConnect = abort));
        this.abortConnect = undefined;
      } catch (err) {
        this.abortConnect = undefined;
        if (this.closing) break;
        failures++;
        const retryMs = Math.min(this.o.retryMaxMs, FOLLOW_RETRY_FIRST_MS * 2 ** (failures - 1));
        this.log.warn({ upstream: this.o.url, error: (err as Error).message, attempts: failures, retryMs }, 'cannot reach the upstream; trying again (/ready says 503 meanwhile)');
        begun();
        await this.sleep(retryMs);
        continue;
      }
      if (this.closing) {
        client.close();
        break;
      }
      if (this.connections++ > 0) this.reconnects++;
      this.client = client;
      try {
        await this.follow(client, () => {
          failures = 0;
          begun();
        });
      } catch (err) {
        if (err instanceof FollowStopped) {
          this.stoppedBy = err.message;
          this.log.error({ upstream: this.o.url, error: err.message, head: this.head().num }, 'following stopped: the upstream cannot be followed without diverging; the node serves what it has, /ready says 503, restart it once the cause is fixed');
          if (!started) {
            started = true;
            first.reject(new Error(`--follow ${this.o.url}: ${err.message}`));
          }
        } else if (!this.closing) {
          this.connected = false;
          this.client = undefined;
          client.close();
          failures++;
          const retryMs = Math.min(this.o.retryMaxMs, FOLLOW_RETRY_FIRST_MS * 2 ** (failures - 1));
          this.log.warn({ upstream: this.o.url, error: (err as Error).message, head: this.head().num, retryMs }, 'lost the upstream; reconnecting, then catching up from our head');
          begun();
          await this.sleep(retryMs);
        }
      } finally {
        this.connected = false;
        this.client = undefined;
        client.close();
      }
    }
    begun();
  }

  private sleep(ms: number): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.retryTimer = undefined;
        resolve();
      }, ms);
      this.retryTimer = { timer, resolve };
    });
  }

  /** One connection's life: checks, subscription, then catch-up and live following until it fails. */
  private async follow(client: UpstreamClient, working: () => void): Promise<never> {
    const call = (api: string, method: string, params: unknown[]) =>
      client.call(api, method, params).catch((err: unknown) => {
        if (err instanceof UpstreamConnectionError && err.protocolFault) throw new FollowStopped(err.message);
        if (err instanceof UpstreamConnectionError) throw new Reconnect(err.message);
        throw new FollowStopped(`${api}.${method} failed upstream: ${(err as Error).message}`);
      });
    const theirs = await call('database', 'get_chain_id', []);
    if (theirs !== this.chainId) {
      throw new FollowStopped(`the upstream serves chain ${String(theirs)}, but this node's genesis gives chain ${this.chainId}; start the follower with the upstream's --genesis-json and a new --data-dir`);
    }
    // The block interval the upstream reports (it sets it from its own --block-interval; no block
    // carries it), so that clients of the follower wait as long as clients of the upstream.
    const gp = (await call('database', 'get_global_properties', [])) as { parameters?: { block_interval?: unknown } } | null;
    const interval = gp?.parameters?.block_interval;
    if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1 || interval > 255) throw new FollowStopped(`the upstream's global properties give block_interval ${JSON.stringify(interval)}`);
    setBlockInterval(this.store, interval);

    client.on('notice', (cb, args) => {
      if (cb !== BLOCK_CALLBACK) return;
      const id = args[0];
      if (typeof id !== 'string' || !HEX40.test(id)) return client.refuse(`the upstream sent a block-applied notice that is not a block id: ${JSON.stringify(args).slice(0, 200)}`);
      const num = numFromId(id);
      // Kept only ahead of our head, and never for more blocks than a catch-up window holds.
      if (num > this.head().num && this.announced.size < 10_000) this.announced.set(num, id);
      if (num > this.upstreamHead) this.upstreamHead = num;
      this.wake?.();
    });
    const gone = new Promise<never>((_resolve, reject) => {
      const onClosed = (err: UpstreamConnectionError) => reject(err.protocolFault ? new FollowStopped(err.message) : new Reconnect(err.message));
      if (client.closedBy) onClosed(client.closedBy);
      else client.once('closed', onClosed);
    });
    gone.catch(() => undefined);
    await call('database', 'set_block_applied_callback', [BLOCK_CALLBACK]);

    for (let round = 0; ; round++) {
      const dgp = (await call('database', 'get_dynamic_global_properties', [])) as Record<string, unknown> | null;
      const head = dgp?.head_block_number;
      const lib = dgp?.last_irreversible_block_num;
      const time = typeof dgp?.time === 'string' ? safeTime(dgp.time) : undefined;
      if (!isUint32(head) || !isUint32(lib) || time === undefined || lib > head) throw new FollowStopped(`the upstream's dynamic global properties are malformed: ${JSON.stringify(dgp).slice(0, 200)}`);
      if (round === 0) {
        // A new connection, perhaps to an upstream restarted from an older copy: what the last one
        // said (its head, its announced ids) no longer holds.
        this.upstreamHead = head;
        this.upstreamHeadTime = time;
        this.upstreamLib = lib;
        this.announced.clear();
      }
      this.upstreamHead = Math.max(head, this.upstreamHead);
      this.upstreamHeadTime = Math.max(time, this.upstreamHeadTime);
      this.upstreamLib = Math.max(lib, this.upstreamLib);
      if (round === 0) {
        const ours = this.head().num;
        this.connected = true;
        working();
        this.log.info({ upstream: this.o.url, upstreamHead: head, head: ours, reconnects: this.reconnects }, ours < head ? 'following the upstream: catching up' : 'following the upstream');
        if (head < ours) this.log.warn({ upstreamHead: head, head: ours }, 'the upstream is behind this node: waiting for it to reach our head (a block that does not follow ours stops following)');
      }
      const applied = await Promise.race([this.catchUp(client), gone]);
      if (applied > 1) this.log.info({ blocks: applied, head: this.head().num }, 'caught up with the upstream');
      // Wait for the next notice, or for the connection to fail.
      // Or, at the latest after FOLLOW_HEAD_POLL_MS, look at the upstream's head again: a notice
      // lost on the way (or not sent for blocks made as we subscribed) must not leave us behind.
      if (this.upstreamHead <= this.head().num) {
        let poll: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            this.wake = resolve;
            poll = setTimeout(resolve, FOLLOW_HEAD_POLL_MS);
            poll.unref();
          }),
          gone,
        ]).finally(() => clearTimeout(poll));
        this.wake = undefined;
      }
      if (this.closing) throw new Reconnect('stopping');
    }
  }

  /** Applies every block up to the upstream's head, with bounded get_block requests in flight; returns how many. */
  private async catchUp(client: UpstreamClient): Promise<number> {
    let next = this.head().num + 1;
    const window: { num: number; block: Promise<unknown> }[] = [];
    let applied = 0;
    for (;;) {
      if (this.closing) return applied;
      while (window.length < this.o.blocksInFlight && next <= this.upstreamHead) {
        const block = client.call('database', 'get_block', [next]);
        // A failure is seen when this block's turn comes; until then it must not count as unhandled.
        block.catch(() => undefined);
        window.push({ num: next++, block });
      }
      const first = window.shift();
      if (!first) return applied;
      let raw: unknown;
      try {
        raw = await first.block;
      } catch (err) {
        if (err instanceof UpstreamConnectionError) throw err.protocolFault ? new FollowStopped(err.message) : new Reconnect(err.message);
        throw new FollowStopped(`get_block(${first.num}) failed upstream: ${(err as Error).message}`);
      }
      // The upstream announced this block but no longer has it (Core switched forks): catch up again.
      if (raw === null) throw new Reconnect(`the upstream has no block ${first.num} (it reported head ${this.upstreamHead})`);
      if (this.closing) return applied;
      this.apply(first.num, raw);
      applied++;
    }
  }

  /** Checks and applies one upstream block, in one write transaction; tells listeners. */
  private apply(num: number, raw: unknown): void {
    const { header, transactions, claimedId } = readBlock(num, raw);
    const id = blockId(header, num);
    if (claimedId !== undefined && claimedId !== id) throw new FollowStopped(`block ${num}: the upstream gives block_id ${claimedId}, but its header gives ${id}`);
    const announced = this.announced.get(num);
    if (announced !== undefined && announced !== id) throw new FollowStopped(`block ${num}: the upstream announced block ${announced}, then served ${id} (it switched forks)`);
    let applied: AppliedBlock;
    try {
      applied = applyBlock(this.store, { timestamp: parseFcTime(header.timestamp), transactions }, { header, lastIrreversibleBlockNum: this.upstreamLib }, this.plugins);
    } catch (err) {
      const stored = storeWriteError(err);
      if (stored !== undefined) throw new Reconnect(`the store refused block ${num}: ${stored}`);
      if (err instanceof BlockMismatch) throw new FollowStopped(err.message);
      throw new FollowStopped(`block ${num} does not apply here: ${(err as Error).message}`);
    }
    for (const n of this.announced.keys()) if (n <= num) this.announced.delete(n);
    this.log.debug({ block: num, transactions: transactions.length }, 'applied upstream block');
    for (const n of applied.pluginNotes) this.log.warn({ block: num, trxInBlock: n.trxInBlock, opInTrx: n.opInTrx, reason: n.message }, 'custom_operations plugin: payload not applied');
    this.emit('block', applied);
    this.dropExpired(applied);
  }

  /** Forwarded transactions that this block holds are done; those that expired before it never will be. */
  private dropExpired(block: AppliedBlock): void {
    for (const id of block.transactionIds) this.forwarded.delete(id);
    const time = parseFcTime(block.timestamp);
    for (const [id, expiration] of this.forwarded) {
      if (expiration >= time) continue;
      this.forwarded.delete(id);
      this.emit('dropped', id, `the transaction expired at ${fcTime(expiration)}, before block time ${block.timestamp}, without being included`);
    }
  }
}

/** An upstream's answer to a forwarded call, as the client gets it: the upstream's error as it is. */
function forwardedError(err: unknown): RpcError {
  if (err instanceof UpstreamCallError) return new RpcError(err.wire);
  return new RpcError(limitError(RPC.UPSTREAM_UNAVAILABLE, (err as Error).message));
}

const isUint32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
const HEX40 = /^[0-9a-f]{40}$/;

function safeTime(text: string): number | undefined {
  try {
    return parseFcTime(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads Core's signed_block JSON (get_block): the header fields, the transactions as signed
 * transactions (their operation_results are recomputed here, and the merkle root proves them), and
 * the block_id Core 6+ adds (signing_key and transaction_ids, which it adds too, follow from the rest).
 */
function readBlock(num: number, raw: unknown): { header: SignedBlockHeaderJson; transactions: SignedTransactionJson[]; claimedId: string | undefined } {
  const bad = (why: string): never => {
    throw new FollowStopped(`block ${num} from the upstream is malformed: ${why}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('not an object');
  const b = raw as Record<string, unknown>;
  if (typeof b.previous !== 'string' || !HEX40.test(b.previous)) bad('previous is not a block id');
  if (typeof b.timestamp !== 'string' || safeTime(b.timestamp) === undefined) bad('timestamp is not a time');
  if (typeof b.witness !== 'string' || !/^1\.6\.\d+$/.test(b.witness)) bad('witness is not a witness id');
  if (typeof b.transaction_merkle_root !== 'string' || !HEX40.test(b.transaction_merkle_root)) bad('transaction_merkle_root is not 40 hex digits');
  if (!Array.isArray(b.extensions)) bad('extensions is not an array');
  if (typeof b.witness_signature !== 'string' || !/^[0-9a-f]{130}$/.test(b.witness_signature)) bad('witness_signature is not 65 bytes of hex');
  if (!Array.isArray(b.transactions)) bad('transactions is not an array');
  if (b.block_id !== undefined && (typeof b.block_id !== 'string' || !HEX40.test(b.block_id))) bad('block_id is not a block id');
  // Our timestamps are whole seconds in fc's form; the header must pack back to what was signed.
  const timestamp = fcTime(parseFcTime(b.timestamp as string));
  if (timestamp !== b.timestamp) bad(`timestamp ${String(b.timestamp)} is not in fc's form`);
  const transactions = (b.transactions as unknown[]).map((t, i) => {
    try {
      return canonicalSignedTransaction(t) as unknown as SignedTransactionJson;
    } catch (err) {
      return bad(`transaction ${i}: ${(err as Error).message}`);
    }
  });
  const header: SignedBlockHeaderJson = {
    previous: b.previous as string,
    timestamp,
    witness: b.witness as string,
    transaction_merkle_root: b.transaction_merkle_root as string,
    extensions: b.extensions as unknown[],
    witness_signature: b.witness_signature as string,
  };
  try {
    blockId(header, num);
  } catch (err) {
    bad(`its header does not pack: ${(err as Error).message}`);
  }
  return { header, transactions, claimedId: b.block_id as string | undefined };
}

// What the writer and its front ends say to each other: serving processes (--processes N > 1) over
// the IPC channel child_process.fork opens, serving threads (--serving-threads N > 1) over their
// Worker's MessagePort. Both are structured clone (the fork uses `serialization: 'advanced'`): an
// AppliedBlock carries Maps and Sets. Errors cross as data (an RpcError's wire form),
// never as Error objects, which lose their class and fields on the way (STYLE.md, point 3).
import type { Config } from '../config.js';
import type { AppliedBlock, SignedTransactionJson } from '../chain/node/block-applier.js';
import type { BlockWriteFailure } from '../chain/node/producer.js';
import type { FollowStatus } from '../follow/follower.js';
import type { WireError } from '../errors.js';
import type { MetricsJson } from '../metrics/node-metrics.js';

export type { MetricsJson };

/** The writer's state that a serving process' /ready and /metrics show. */
export interface WriterState {
  /** why blocks cannot be written now (the producer's blockWriteFailure), or undefined */
  readonly blockWriteFailure: BlockWriteFailure | undefined;
  /** on a follower: why it is not ready (cut off from its upstream, lagging, stopped), or undefined */
  readonly following?: string | undefined;
  /** on a follower: its view of the upstream, for the follow metrics */
  readonly follow?: FollowStatus;
}

/** What a serving process asks of the writer: ChainWriter's calls, by name. */
export type WriterOp = { op: 'push'; trx: unknown } | { op: 'validate'; trx: unknown } | { op: 'recordPeer'; endpoint: string } | { op: 'produce'; count: number };

export type ToServing =
  /** the first message: everything the serving process needs to open the store and listen */
  | {
      t: 'init';
      index: number;
      config: Config;
      /** listen without first checking the port is free: a sibling process holds it already */
      sharedPort: boolean;
      /** the writer's log level now (it may differ from the configured one: a test's logger, a reload) */
      logLevel: string;
      /** the public key blocks are signed with, when the writer produces on demand (debug_generate_blocks) */
      signingPublicKey: string | undefined;
      state: WriterState;
    }
  /**
   * the writer's events, each sent after its commit, in the order they happened; those that changed
   * the store carry a sequence number the serving process acks ('applied') once its workers read
   * the new state
   */
  | { t: 'block'; seq: number; block: AppliedBlock }
  | { t: 'pending'; seq: number; trx: SignedTransactionJson }
  /** node-local state written (add_node's peer list) */
  | { t: 'stored'; seq: number }
  | { t: 'dropped'; id: string; reason: string }
  | { t: 'state'; state: WriterState }
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; wire: WireError | undefined; message: string }
  /** send this process' metrics (a 'metrics-json' back with the same id) */
  | { t: 'metrics'; id: number }
  /** the node's aggregated scrape, for the process that asked */
  | { t: 'scraped'; id: number; contentType: string; text: string }
  | { t: 'reload-options'; config: Config }
  | { t: 'reload-access' }
  /** shut down gracefully (/ready 503, drain, stop) and exit */
  | { t: 'close' }
  /** a serving thread: close every socket at once and end (the node's process is about to exit) */
  | { t: 'halt' }
  /**
   * a serving thread: fail on purpose, as a drill (tests), since a thread cannot be killed from outside
   * as a process can: `throw` as an error it did not catch would, or `hang`: hold its event loop for `ms`
   */
  | { t: 'drill'; fault: 'throw' | 'hang'; ms: number };

export type ToWriter =
  /** `tid`: the kernel's id of a serving thread's front-end thread (the log names it, for the bench's CPU split) */
  | { t: 'listening'; port: number; tlsPort: number | undefined; tid?: number }
  | { t: 'start-failed'; message: string }
  | ({ t: 'call'; id: number } & WriterOp)
  | { t: 'applied'; seq: number }
  /** a log line (pino JSON) for the writer to write: the node's log is one stream, in the writer's format */
  | { t: 'log'; line: string }
  | { t: 'metrics-json'; id: number; json: MetricsJson }
  /** a scrape of /metrics reached this process: the writer answers with every process' metrics aggregated */
  | { t: 'scrape'; id: number };

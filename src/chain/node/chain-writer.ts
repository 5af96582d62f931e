// What the front end asks of the one writer of chain state, whoever that is: the block producer in
// this process (a devnet node), a producer in another process (a serving process of --processes),
// or an upstream node that a follower forwards to. Handlers, subscriptions and confirmations see
// only this, so the same front end serves in every kind of node.
import type { AppliedBlock, SignedTransactionJson } from './block-applier.js';

export interface ChainWriterEvents {
  /** a block is in the store: readers see it before anyone is told */
  block: [AppliedBlock];
  /** a transaction was accepted into the pending state (in the store already) */
  pending: [SignedTransactionJson];
  /** a pending transaction that will never be in a block, and why */
  dropped: [string, string];
}

export interface ChainWriter {
  /**
   * network_broadcast_api: checks a transaction, applies it to the pending state and queues it for a
   * block; resolves with its id once every reader can see it. Refusals reject with an RpcError.
   */
  push(trx: unknown): Promise<string>;
  /** database_api.validate_transaction: as `push`, undone; Core's processed_transaction */
  validate(trx: unknown): Promise<Record<string, unknown>>;
  /** network_node_api.add_node: records a potential peer (node-local state kept in the store) */
  recordPeer(endpoint: string): Promise<void>;
  /**
   * debug_generate_blocks: the public key blocks are signed with, and production on demand; absent
   * on a node that does not produce (a follower).
   */
  readonly producing?: { readonly signingPublicKey: string; produce(count: number): Promise<void> };
  on<K extends keyof ChainWriterEvents>(event: K, listener: (...args: ChainWriterEvents[K]) => void): unknown;
}

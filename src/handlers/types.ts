// What a front-end handler gets: the calling session (connection state), the request, and the node's
// services. Handlers that run here read or change connection state (login, subscriptions) or node
// state that has one owner in the front end's thread (the block producer, the chain writer).
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ChainWriter } from '../chain/node/chain-writer.js';
import type { RpcRequest } from '../protocol/jsonrpc.js';
import type { Session } from '../session/session.js';
import type { SubscriptionHub } from '../subscriptions/hub.js';
import type { TransferFeed } from '../subscriptions/transfer-feed.js';
import type { ChainLookups } from '../pool/lookups.js';
import type { Confirmations } from './confirmations.js';
import type { LoginServices } from './login-flow.js';

export interface Services {
  readonly config: Config;
  /** the login check (with the access rules in force), its throttle and the per-user session counts */
  readonly login: LoginServices;
  /** the chain's one writer: broadcasts, validate_transaction, add_node, debug block production */
  readonly writer: ChainWriter;
  readonly confirmations: Confirmations;
  readonly subscriptions: SubscriptionHub;
  /** the deposit feed's subscriptions (subscribe_transfers) */
  readonly transfers: TransferFeed;
  readonly chain: ChainLookups;
  /** tells the workers that the store changed, so their next reads see it */
  readonly storeChanged: () => void;
  readonly log: Logger;
}

export interface FrontCall {
  readonly session: Session;
  readonly request: RpcRequest;
  readonly services: Services;
}

/** A front-end handler: returns the result's JSON value (or a promise of it); throws RpcError to fail. */
export type FrontHandler = (call: FrontCall, args: unknown[]) => unknown;

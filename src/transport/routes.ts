// What the transport's routes share: the apps they are registered on, the status lines they answer
// with, how a request's credentials and client address are read, and what they report to the node.

import type { Config } from '../config.js';
import type { LogBudget, Logger } from '../log.js';
import { parseBasicAuth } from '../access.js';
import type { ConnectionFactory, Credentials } from '../pipeline/connection.js';
import type { ConnectionLimits, Refusal } from './connection-limits.js';
import type { Ingress } from './ingress.js';
import type { BufferedBytes } from './buffered-bytes.js';
import type * as uWS from './uws.js';
import { TRANSPORT_REFUSAL_LOG_EVERY_MS } from '../tuning.js';

/**
 * What the transport reports to the node's metrics, and the text it serves at GET /metrics. The
 * composition root wires it; the transport knows no metric names.
 */
export interface TransportMonitor {
  /** GET /metrics: the Prometheus text and its content type */
  scrape(): Promise<{ readonly contentType: string; readonly text: string }>;
  /** a connection, or a message, refused by one of the transport's limits */
  refused(limit: Refusal['limit'] | 'max-request-bytes' | 'max-ingress-bytes'): void;
  /** a connection closed for not reading its replies, or for sending far past its calls in flight */
  closed(limit: 'max-buffered-bytes' | 'ws-max-buffered-bytes' | 'max-pending-calls-per-connection' | 'ws-max-pings-per-second'): void;
  /** requests a connection sent that were still waiting to be read (large ones, and those behind them) when it closed: never read */
  unread(requests: number): void;
}

/** What the routes are registered with: every listener's app, so that both serve the same routes. */
export type Routes = Pick<uWS.TemplatedApp, 'ws' | 'get' | 'any'>;

/** Registers each route on every app (the plain one, and the TLS one when there is one). */
export function onEvery(apps: readonly uWS.TemplatedApp[]): Routes {
  return {
    ws(pattern, behavior) {
      for (const a of apps) a.ws(pattern, behavior);
      return apps[0]!;
    },
    get(pattern, handler) {
      for (const a of apps) a.get(pattern, handler);
      return apps[0]!;
    },
    any(pattern, handler) {
      for (const a of apps) a.any(pattern, handler);
      return apps[0]!;
    },
  };
}

/** The state and reporting the WebSocket and HTTP routes share, made once by startServer. */
export interface RouteContext {
  readonly config: Config;
  readonly log: Logger;
  readonly newConnection: ConnectionFactory;
  readonly buffered: BufferedBytes;
  readonly monitor: TransportMonitor;
  readonly limits: ConnectionLimits;
  /** Large requests wait their turn to be read, the connections in turn (src/transport/ingress.ts). */
  readonly waitingRequests: Ingress;
  /** refused connections and oversized HTTP requests, logged at most once a second node-wide */
  readonly refusalLog: LogBudget;
  /** Counts and logs (within `refusalLog`) a connection refused by one of the connection limits. */
  refusedConnection(address: string, refusal: Refusal): void;
}

export const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  400: '400 Bad Request',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/**
 * Credentials of a request. As in Core, a header of another scheme (a proxy's Bearer token, say)
 * means no credentials: the wildcard user. A Basic header that cannot be decoded is a failed login.
 */
export function credentialsFrom(header: string): Credentials {
  if (!/^basic /i.test(header)) return undefined;
  return parseBasicAuth(header) ?? 'malformed';
}

export const decoder = new TextDecoder();

/** The client address a request counts under in the connection limits (X-Forwarded-For from trusted proxies). */
export const addressOf = (limits: ConnectionLimits, res: uWS.HttpResponse, req: uWS.HttpRequest): string =>
  limits.clientAddress(decoder.decode(res.getRemoteAddressAsText()), req.getHeader('x-forwarded-for'));

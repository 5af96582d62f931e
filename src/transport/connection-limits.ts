// How many connections the node holds, in all and per client address. Without a bound, one client
// opening sockets in a loop takes descriptors and memory from everyone. A WebSocket counts from
// its upgrade to its close; an HTTP request from its arrival to its reply (uWebSockets.js does not
// show keep-alive connections themselves; an idle one costs little and it closes them after 10 s).
//
// The client address is the peer's, or, when the peer is a trusted proxy (--trusted-proxies), the
// address that proxy appended last to X-Forwarded-For: a node behind a load balancer then limits
// each client rather than the balancer.
import type { Config } from '../config.js';
import { RPC, limitError, type WireError } from '../errors.js';

/** Why a connection was refused: the error its client gets, and the option that refused it. */
export interface Refusal {
  readonly error: WireError;
  readonly limit: 'max-connections' | 'max-connections-per-ip';
}

export interface ConnectionLimits {
  /** The client address of a request, from its peer address and X-Forwarded-For header. */
  clientAddress(peer: string, forwardedFor: string): string;
  /** Takes a place for a connection from `address`, or returns why it is refused. */
  open(address: string): Refusal | undefined;
  /** Gives back a place `open` took. */
  close(address: string): void;
  readonly total: number;
}

/** Writes an address as one string per host: IPv4-mapped IPv6 addresses as their IPv4 form. */
const canonical = (address: string): string => {
  // The common case (a plain IPv4 peer address) is returned as it is, without a regular expression.
  if (!address.includes(':') && address.trim() === address) return address;
  return address.trim().toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
};

export function connectionLimits(config: Pick<Config, 'maxConnections' | 'maxConnectionsPerIp' | 'trustedProxies'>): ConnectionLimits {
  const trusted = new Set(config.trustedProxies.map(canonical));
  const perAddress = new Map<string, number>();
  let total = 0;
  // Made once: a client refused in a loop costs no allocation.
  const overTotal: Refusal = { error: limitError(RPC.TOO_MANY_CONNECTIONS, `${config.maxConnections} in all: --max-connections`), limit: 'max-connections' };
  const overAddress: Refusal = {
    error: limitError(RPC.TOO_MANY_CONNECTIONS, `${config.maxConnectionsPerIp} from this address: --max-connections-per-ip`),
    limit: 'max-connections-per-ip',
  };
  return {
    clientAddress(peer, forwardedFor) {
      const address = canonical(peer);
      if (!trusted.has(address) || forwardedFor === '') return address;
      // The last hop is the one the trusted proxy appended; earlier ones are the client's word.
      const hops = forwardedFor.split(',');
      return canonical(hops[hops.length - 1]!) || address;
    },
    open(address) {
      if (total >= config.maxConnections) return overTotal;
      const n = perAddress.get(address) ?? 0;
      if (n >= config.maxConnectionsPerIp) return overAddress;
      perAddress.set(address, n + 1);
      total++;
      return undefined;
    },
    close(address) {
      const n = perAddress.get(address);
      if (n === undefined) return;
      if (n <= 1) perAddress.delete(address);
      else perAddress.set(address, n - 1);
      total--;
    },
    get total() {
      return total;
    },
  };
}

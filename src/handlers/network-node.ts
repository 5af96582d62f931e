// network_node_api.add_node: the one network_node call that writes. It runs in the front end and
// writes through the block producer, which holds the store's only writable handle; the reading calls
// run in the pool.
import { ASSERT, RpcError, assertError } from '../errors.js';
import { asString } from '../api/params.js';
import type { networkNodeApi } from '../api/sets/network-node.js';
import type { HandlerTable } from '../api/types.js';
import type { FrontHandler } from './types.js';

/** fc::ip::endpoint::from_string: dotted IPv4 address and a port. */
function parseEndpoint(text: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(text.trim());
  const ok = m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 65535;
  if (!ok) throw new RpcError(assertError(ASSERT.ENDPOINT, { endpoint: text }, { file: 'network_node_api', method: 'add_node' }));
  return `${m.slice(1, 5).map(Number).join('.')}:${Number(m[5])}`;
}

export const networkNodeHandlers = {
  async add_node({ services }, [ep]) {
    const endpoint = parseEndpoint(asString(ep));
    await services.writer.recordPeer(endpoint);
    services.storeChanged();
    return null;
  },
} satisfies HandlerTable<typeof networkNodeApi, 'front', FrontHandler>;

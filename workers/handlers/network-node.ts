// network_node_api handlers. This node has no P2P layer: add_node records the peer as a potential
// peer (what Core's node does before it connects), and get_potential_peers lists those records.
import { networkNodeApi } from '../../src/api/sets/network-node.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { fcTime, TIME_EPOCH } from '../../src/chain/fc-json.js';
import { asString } from '../../src/api/params.js';
import type { HandlersFor } from './types.js';

/** fc::ip::endpoint::from_string: dotted IPv4 address and a port. */
function parseEndpoint(text: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(text.trim());
  const ok = m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 65535;
  if (!ok) throw new RpcError(assertError(ASSERT.ENDPOINT, { endpoint: text }, { file: 'network_node_api', method: 'add_node' }));
  return `${m.slice(1, 5).map(Number).join('.')}:${Number(m[5])}`;
}

export const networkNodeHandlers = {
  async add_node(ctx, [ep], out) {
    const endpoint = parseEndpoint(asString(ep));
    // potential_peer_record, as graphene::net reflects it; last_error is unset and so left out.
    const record = {
      endpoint,
      last_seen_time: fcTime(Math.floor(Date.now() / 1000)),
      last_connection_disposition: 'never_attempted_to_connect',
      last_connection_attempt_time: TIME_EPOCH,
      number_of_successful_connection_attempts: 0,
      number_of_failed_connection_attempts: 0,
    };
    await ctx.store.peers.put(endpoint, Buffer.from(JSON.stringify(record)));
    out.text('null');
  },

  get_potential_peers(ctx, _params, out) {
    const records = [...ctx.store.peers.getRange({})].map(({ value }) => value.toString('utf8'));
    // Newest first, as Core's peer database orders by last_seen_time.
    const seen = (r: string) => (JSON.parse(r) as { last_seen_time: string }).last_seen_time;
    records.sort((a, b) => (seen(a) < seen(b) ? 1 : seen(a) > seen(b) ? -1 : 0));
    out.text(`[${records.join(',')}]`);
  },
} satisfies HandlersFor<typeof networkNodeApi>;

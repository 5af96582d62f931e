// network_node_api handlers that read. This node has no P2P layer: add_node (front end, it writes)
// records the peer as a potential peer, and get_potential_peers lists those records.
// The other calls answer as Core's network_node_api does when `_app.p2p_node()` is null (api.cpp):
// get_connected_peers is empty, and get_info and the advanced parameters assert "No P2P network!".
import { networkNodeApi } from '../../src/api/sets/network-node.js';
import { FC, RpcError, assertError, fcError } from '../../src/errors.js';
import type { HandlersFor } from './types.js';

const FILE = 'network_node_api';
const NO_P2P = '_app.p2p_node() != nullptr: No P2P network!';

const noP2p = (method: string): RpcError => new RpcError(assertError(NO_P2P, {}, { file: FILE, method }));

/** fc's variant type names, as `variant::get_object()` reports a wrong one. */
const variantType = (v: unknown): string =>
  v === null || v === undefined ? 'null_type' : Array.isArray(v) ? 'array_type' : typeof v === 'object' ? 'object_type' : typeof v === 'string' ? 'string_type' : typeof v === 'boolean' ? 'bool_type' : typeof v === 'number' && !Number.isInteger(v) ? 'double_type' : typeof v === 'number' && v < 0 ? 'int64_type' : 'uint64_type';

export const networkNodeHandlers = {
  get_info() {
    throw noP2p('get_info');
  },

  get_potential_peers(ctx, _params, out) {
    const records = [...ctx.store.peers.getRange({})].map(({ value }) => value.toString('utf8'));
    // Newest first, as Core's peer database orders by last_seen_time.
    const seen = (r: string) => (JSON.parse(r) as { last_seen_time: string }).last_seen_time;
    records.sort((a, b) => (seen(a) < seen(b) ? 1 : seen(a) > seen(b) ? -1 : 0));
    out.text(`[${records.join(',')}]`);
  },

  get_connected_peers(_ctx, _params, out) {
    out.text('[]');
  },

  get_advanced_node_parameters() {
    throw noP2p('get_advanced_node_parameters');
  },

  set_advanced_node_parameters(_ctx, [params]) {
    // The fc::variant_object argument converts first, so a non-object fails as a bad cast.
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Object', { type: variantType(params) }, { file: FILE, method: 'set_advanced_node_parameters' }));
    }
    throw noP2p('set_advanced_node_parameters');
  },
} satisfies HandlersFor<typeof networkNodeApi>;

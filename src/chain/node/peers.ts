// The peer list of network_node: node-local state, not chain state, kept in its own sub-database.
// Written only through the block producer (BlockProducer.recordPeer), in the front end's thread, which
// holds the store's one writable handle; the workers open the store read-only and serve
// get_potential_peers from what this wrote.
import type { ChainStore } from '../store/store.js';
import { fcTime, TIME_EPOCH } from '../fc/fc-json.js';

/** Records `endpoint` as a potential peer seen at `nowSeconds` (what Core's node does before it connects). */
export async function recordPotentialPeer(store: ChainStore, endpoint: string, nowSeconds: number): Promise<void> {
  // potential_peer_record, as graphene::net reflects it; last_error is unset and so left out.
  const record = {
    endpoint,
    last_seen_time: fcTime(nowSeconds),
    last_connection_disposition: 'never_attempted_to_connect',
    last_connection_attempt_time: TIME_EPOCH,
    number_of_successful_connection_attempts: 0,
    number_of_failed_connection_attempts: 0,
  };
  await store.peers.put(endpoint, Buffer.from(JSON.stringify(record)));
}

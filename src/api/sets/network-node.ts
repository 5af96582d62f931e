// network_node_api (reference §4.4), in Core's FC_API order. Restricted: the default access policy
// does not grant it.
import { defineApiSet, frontEnd, method, req } from '../types.js';

export const networkNodeApi = defineApiSet({
  name: 'network_node',
  accessName: 'network_node_api',
  runsIn: 'pool',
  methods: {
    get_info: method(),
    // It writes (the peer list), and only the front end's chain writer writes to the store.
    add_node: frontEnd(req('ep')),
    get_connected_peers: method(),
    get_potential_peers: method(),
    get_advanced_node_parameters: method(),
    set_advanced_node_parameters: method(req('params')),
  },
});

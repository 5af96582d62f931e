// network_node_api (reference §4.4), in Core's FC_API order. Restricted: the default access policy
// does not grant it.
import { defineApiSet, method, req } from '../types.js';

export const networkNodeApi = defineApiSet({
  name: 'network_node',
  accessName: 'network_node_api',
  runsIn: 'pool',
  methods: {
    get_info: method(),
    add_node: method(req('ep')),
    get_connected_peers: method(),
    get_potential_peers: method(),
    get_advanced_node_parameters: method(),
    set_advanced_node_parameters: method(req('params')),
  },
});

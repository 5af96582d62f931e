// network_node_api (reference §4.4). Restricted: the default access policy does not grant it.
import { defineApiSet, method, req } from '../types.js';

export const networkNodeApi = defineApiSet({
  name: 'network_node',
  accessName: 'network_node_api',
  runsIn: 'pool',
  methods: {
    add_node: method(req('ep')),
    get_potential_peers: method(),
  },
});

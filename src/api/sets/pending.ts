// API sets that a login getter can hand out but whose functions this node does not serve yet. The
// getters work (clients such as bitsharesjs-ws and btsdex ask for them at connect); any call on them
// answers "Method not found", as the reference does for a name the set does not have.
import { defineApiSet } from '../types.js';

const empty = (name: string) => defineApiSet({ name, accessName: `${name}_api`, runsIn: 'pool', methods: {} });

export const blockApi = empty('block');
export const networkBroadcastApi = empty('network_broadcast');
export const cryptoApi = empty('crypto');
export const assetApi = empty('asset');
export const ordersApi = empty('orders');

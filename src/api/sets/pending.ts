// API sets that a login getter can hand out but whose functions arrive with the live chain (issue 4).
// The getter works (bitsharesjs-ws asks for network_broadcast at connect); a call on it answers
// "Method not found", as the reference does for a name the set does not have.
import { defineApiSet } from '../types.js';

export const networkBroadcastApi = defineApiSet({ name: 'network_broadcast', accessName: 'network_broadcast_api', runsIn: 'pool', methods: {} });

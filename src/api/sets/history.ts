// history_api (reference §4.2).
import { defineApiSet, method, req } from '../types.js';

export const historyApi = defineApiSet({
  name: 'history',
  accessName: 'history_api',
  runsIn: 'pool',
  methods: {
    // Over RPC all four are required: C++ default arguments are not applied (reference §3.2).
    get_account_history: method(req('account_name_or_id'), req('stop'), req('limit'), req('start')),
  },
});

// history_api (reference §4.2), in Core's FC_API order (api.hpp), which fixes each method's index.
import { defineApiSet, method, opt, req } from '../types.js';

export const historyApi = defineApiSet({
  name: 'history',
  accessName: 'history_api',
  runsIn: 'pool',
  methods: {
    // Over RPC all four are required: C++ default arguments are not applied (reference §3.2).
    get_account_history: method(req('account_name_or_id'), req('stop'), req('limit'), req('start')),
    get_account_history_by_time: method(req('account_name_or_id'), opt('limit'), opt('start')),
    get_account_history_by_operations: method(req('account_name_or_id'), req('operation_types'), req('start'), req('limit')),
    // Note the order: type, start, stop, limit (unlike get_account_history's stop, limit, start).
    get_account_history_operations: method(req('account_name_or_id'), req('operation_type'), req('start'), req('stop'), req('limit')),
    get_relative_account_history: method(req('account_name_or_id'), req('stop'), req('limit'), req('start')),
    get_block_operation_history: method(req('block_num'), opt('trx_in_block')),
    get_block_operations_by_time: method(opt('start')),
    // The market_history plugin's calls: this node has no such plugin and answers as Core does without it.
    get_fill_order_history: method(req('a'), req('b'), req('limit')),
    get_market_history: method(req('a'), req('b'), req('bucket_seconds'), req('start'), req('end')),
    get_market_history_buckets: method(),
    get_liquidity_pool_history: method(req('pool_id'), opt('start'), opt('stop'), opt('limit'), opt('operation_type')),
    get_liquidity_pool_history_by_sequence: method(req('pool_id'), opt('start'), opt('stop'), opt('limit'), opt('operation_type')),
  },
});

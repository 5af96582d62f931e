// database_api (reference §4.1): the functions this node serves, in BitShares Core's FC_API order.
import { defineApiSet, method, opt, req } from '../types.js';

export const databaseApi = defineApiSet({
  name: 'database',
  accessName: 'database_api',
  runsIn: 'pool',
  methods: {
    get_objects: method(req('ids'), opt('subscribe')),
    get_chain_id: method(),
    get_dynamic_global_properties: method(),
    get_accounts: method(req('account_names_or_ids'), opt('subscribe')),
    get_account_by_name: method(req('name')),
  },
});

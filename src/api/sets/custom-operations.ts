// custom_operations_api (reference §4.9). Its data comes from the custom_operations plugin's account
// storage (src/chain/plugins/account-storage.ts); workers/handlers/custom-operations.ts answers as Core does.
import { defineApiSet, method, opt } from '../types.js';

export const customOperationsApi = defineApiSet({
  name: 'custom_operations',
  accessName: 'custom_operations_api',
  runsIn: 'pool',
  methods: {
    get_storage_info: method(opt('account_name_or_id'), opt('catalog'), opt('key'), opt('limit'), opt('start_id')),
  },
});

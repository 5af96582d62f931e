// asset_api (reference §4.7). Method table; the handlers are in workers/handlers/asset.ts.
import { defineApiSet, method, req } from '../types.js';

export const assetApi = defineApiSet({
  name: 'asset',
  accessName: 'asset_api',
  runsIn: 'pool',
  methods: {
    get_asset_holders: method(req('asset_symbol_or_id'), req('start'), req('limit')),
    get_asset_holders_count: method(req('asset_symbol_or_id')),
    get_all_asset_holders: method(),
  },
});

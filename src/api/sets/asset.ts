// asset_api (reference §4). Method table; the handlers are in workers/handlers/asset.ts.
import { defineApiSet } from '../types.js';

export const assetApi = defineApiSet({
  name: 'asset',
  accessName: 'asset_api',
  runsIn: 'pool',
  methods: {},
});

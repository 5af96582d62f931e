// asset_api handlers.
import { assetApi } from '../../src/api/sets/asset.js';
import type { HandlersFor } from './types.js';

export const assetHandlers = {} satisfies HandlersFor<typeof assetApi>;

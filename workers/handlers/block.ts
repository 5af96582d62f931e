// block_api handlers.
import { blockApi } from '../../src/api/sets/block.js';
import type { HandlersFor } from './types.js';

export const blockHandlers = {} satisfies HandlersFor<typeof blockApi>;

// crypto_api handlers.
import { cryptoApi } from '../../src/api/sets/crypto.js';
import type { HandlersFor } from './types.js';

export const cryptoHandlers = {} satisfies HandlersFor<typeof cryptoApi>;

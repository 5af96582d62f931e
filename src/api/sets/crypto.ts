// crypto_api (reference §4). Method table; the handlers are in workers/handlers/crypto.ts.
import { defineApiSet } from '../types.js';

export const cryptoApi = defineApiSet({
  name: 'crypto',
  accessName: 'crypto_api',
  runsIn: 'pool',
  methods: {},
});

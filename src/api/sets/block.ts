// block_api (reference §4). Method table; the handlers are in workers/handlers/block.ts.
import { defineApiSet } from '../types.js';

export const blockApi = defineApiSet({
  name: 'block',
  accessName: 'block_api',
  runsIn: 'pool',
  methods: {},
});

// block_api (reference §4.5). Method table; the handlers are in workers/handlers/block.ts.
import { defineApiSet, method, req } from '../types.js';

export const blockApi = defineApiSet({
  name: 'block',
  accessName: 'block_api',
  runsIn: 'pool',
  methods: {
    get_blocks: method(req('block_num_from'), req('block_num_to')),
  },
});

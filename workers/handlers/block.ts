// block_api handlers (reference §4.5; api.cpp block_api::get_blocks).
import { blockApi } from '../../src/api/sets/block.js';
import { RpcError, assertError } from '../../src/errors.js';
import { asUint32 } from '../../src/api/params.js';
import type { HandlersFor } from './types.js';

const FILE = 'block_api';
/** FC_ASSERT( block_num_to >= block_num_from ) without a message: `#TEST ": "`. */
const RANGE_ORDER = 'block_num_to >= block_num_from: ';
/**
 * Core has no limit on the range, so get_blocks(0, 4294967295) would build four billion entries; this
 * node refuses ranges longer than this many blocks (our deviation, so that one call cannot hold a
 * worker and gigabytes of reply).
 */
const RANGE_SIZE = 'block_num_to - block_num_from < max_blocks: get_blocks returns at most ${max_blocks} blocks per call';

export const blockHandlers = {
  get_blocks(ctx, [fromArg, toArg], out) {
    const from = asUint32(fromArg);
    const to = asUint32(toArg);
    if (!(to >= from)) throw new RpcError(assertError(RANGE_ORDER, {}, { file: FILE, method: 'get_blocks' }));
    const max = ctx.config.maxGetBlocksRange;
    if (to - from >= max) throw new RpcError(assertError(RANGE_SIZE, { max_blocks: max }, { file: FILE, method: 'get_blocks' }));
    // Inclusive range; a block this node does not have (block 0, or beyond the head) is null.
    out.text('[');
    for (let n = from; n <= to; n++) {
      if (n > from) out.text(',');
      const bytes = ctx.store.blocks.getBinaryFast(n);
      if (bytes) out.raw(bytes);
      else out.text('null');
    }
    out.text(']');
  },
} satisfies HandlersFor<typeof blockApi>;

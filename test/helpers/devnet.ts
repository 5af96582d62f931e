// A devnet for tests that make blocks themselves: a real node (helpers/node.ts) with the fixture's
// access file, whose user `anypass` may call the debug API, and debug_generate_blocks signed with
// the development key. Blocks come only on demand unless a test sets --block-interval.
import type { ExecutionContext } from 'ava';
import type { Logger } from '../../src/log.js';
import { basic, rpc } from './clients.js';
import { DEV_WIF } from './chain.js';
import { fixture, startTestNode, type TestNode } from './node.js';

/** Headers for the fixture's `anypass` (any password): the one user given debug_api and custom_operations_api. */
export const DEBUG_USER = { authorization: basic('anypass', 'x') };

/** debug_generate_blocks: `n` blocks now, signed with the development key; the reply parsed. */
export const generateBlocks = (url: string, n = 1): Promise<any> => rpc(url, 'debug', 'debug_generate_blocks', [DEV_WIF, n], DEBUG_USER);

/**
 * A node serving test/fixtures/api-access.json; `options` and `log` as for startTestNode. `blocks` are
 * made at once: the genesis head time is in the past, and one block brings it to now, so that
 * transactions built from the head do not expire on arrival.
 */
export async function startDevnet(t: ExecutionContext, options: Record<string, string> = {}, { log, blocks = 0 }: { log?: Logger; blocks?: number } = {}): Promise<TestNode> {
  const node = await startTestNode(t, { 'api-access': fixture('api-access.json'), ...options }, log);
  if (blocks > 0) {
    const reply = await generateBlocks(node.httpUrl, blocks);
    if (reply.error) throw new Error(`debug_generate_blocks: ${reply.error.message}`);
  }
  return node;
}

// Waiting for the chain to move: the block producer's own events, not sleeps and polls.
import { once } from 'node:events';
import type { ProducedBlock } from '../../src/chain/node/producer.js';
import { rpc } from './clients.js';
import type { TestNode } from './node.js';

/**
 * Resolves with the head block number once it is at least `n`. The bound only turns a chain that
 * never gets there into a failure.
 */
export function headAtLeast(node: TestNode, n: number, ms = 15_000): Promise<number> {
  const producer = node.node.producer!;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err: Error | undefined, head?: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      producer.off('block', onBlock);
      if (err) reject(err);
      else resolve(head!);
    };
    const onBlock = (block: ProducedBlock) => {
      if (block.blockNum >= n) finish(undefined, block.blockNum);
    };
    const timer = setTimeout(() => finish(new Error(`head block below ${n} after ${ms} ms`)), ms);
    // Listen first, then look: a block produced in between is seen either way.
    producer.on('block', onBlock);
    rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', []).then(
      (reply: { result: { head_block_number: number } }) => {
        // Seen already (a block came first): the test may have stopped the node, whose answer is then an error.
        if (done) return;
        if (reply.result.head_block_number >= n) finish(undefined, reply.result.head_block_number);
      },
      (err: Error) => finish(err),
    );
  });
}

/** Resolves once the node takes a transaction into its pending list (the next one, from now). */
export async function nextPending(node: TestNode, ms = 10_000): Promise<void> {
  await once(node.node.producer!, 'pending', { signal: AbortSignal.timeout(ms) });
}

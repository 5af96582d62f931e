// What a node of several front ends (serving processes or serving threads) must do as one node,
// checked the same way for both: test/processes.test.ts and test/serving-threads.test.ts.
import type { ExecutionContext } from 'ava';
import type { TestNode } from './node.js';
import { httpPost, type WsClient } from './clients.js';
import { DEV_WIF, op } from './chain.js';
import { signedTx } from './tx.js';
import { generateBlocks } from './devnet.js';

/** A call in the `call` form, on a named API set. */
export const callIn = (ws: WsClient, id: number | string, set: string, method: string, params: unknown[]) => ws.call({ id, method: 'call', params: [set, method, params] });

/**
 * Transactions broadcast through one front end (`a`, `b`: connections on two different ones) are read
 * at once through the other, both ways, and blocks made through either reach both. `symbols` prefixes
 * the assets created (four capitals), `what` names a front end in the messages.
 */
export async function broadcastsReadAcross(t: ExecutionContext, node: TestNode, a: WsClient, b: WsClient, symbols: string, what: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const [via, reader] = i % 2 === 0 ? [a, b] : [b, a];
    const symbol = `${symbols}${String.fromCharCode(65 + i)}`;
    const trx = await signedTx(node.httpUrl, [op.assetCreate(symbol)], [DEV_WIF]);
    const sent = await callIn(via, `send-${i}`, 'network_broadcast', 'broadcast_transaction', [trx]);
    t.is(sent.error, undefined, JSON.stringify(sent.error));
    // No wait of any kind between the reply and the read on the other front end.
    const [found] = (await callIn(reader, `read-${i}`, 'database', 'lookup_asset_symbols', [[symbol]])).result;
    t.is(found?.symbol, symbol, `read through the other ${what} after broadcast ${i}`);
  }
  // debug_generate_blocks through whichever front end the request reaches: both read the new head at once.
  const heads = async () => Promise.all([a, b].map(async (ws, i) => (await callIn(ws, `h${i}`, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number));
  const [before] = await heads();
  t.is((await generateBlocks(node.httpUrl, 2)).error, undefined);
  t.deepEqual(await heads(), [before! + 2, before! + 2]);
}

/** Clients calling in a loop, each its next call when the last is answered, until stopped. */
export interface CallingClients {
  /** per client: calls answered with the result, and what failed (a failure that throws ends its loop) */
  readonly stats: Map<WsClient, { ok: number; failed: string[] }>;
  /** calls answered so far by each of `clients`, in order */
  okOf(clients: readonly WsClient[]): number[];
  /** Ends every loop after its call in flight. */
  stop(): Promise<void>;
}

/** Starts `clients` calling get_dynamic_global_properties in a loop (load on each front end). */
export function keepCalling(clients: readonly WsClient[]): CallingClients {
  const stats = new Map<WsClient, { ok: number; failed: string[] }>();
  let stopped = false;
  const loops = clients.map(async (ws, n) => {
    const s = { ok: 0, failed: [] as string[] };
    stats.set(ws, s);
    for (let i = 0; !stopped; i++) {
      try {
        const r = await callIn(ws, `${n}-${i}`, 'database', 'get_dynamic_global_properties', []);
        if (r.result?.id === '2.1.0') s.ok++;
        else s.failed.push(JSON.stringify(r));
      } catch (err) {
        s.failed.push((err as Error).message);
        return;
      }
    }
  });
  return {
    stats,
    okOf: (list) => list.map((ws) => stats.get(ws)?.ok ?? 0),
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/**
 * Block-applied and pending-transaction callbacks set on connections of every front end each get
 * their notice: a broadcast of an asset named `symbol`, then a block.
 */
export async function noticesOnEach(t: ExecutionContext, node: TestNode, clients: readonly WsClient[], symbol: string): Promise<void> {
  for (const ws of clients) {
    t.is((await callIn(ws, 1, 'database', 'set_block_applied_callback', [7])).result, null);
    t.is((await callIn(ws, 2, 'database', 'set_pending_transaction_callback', [8])).result, null);
  }
  const trx = await signedTx(node.httpUrl, [op.assetCreate(symbol)], [DEV_WIF]);
  const sent = JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['network_broadcast', 'broadcast_transaction', [trx]] }))).text);
  t.is(sent.error, undefined);
  for (const ws of clients) t.deepEqual(JSON.parse(await ws.next(15_000)).params.slice(0, 1), [8]);
  t.is((await generateBlocks(node.httpUrl, 1)).error, undefined);
  const head = JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['database', 'get_dynamic_global_properties', []] }))).text).result;
  for (const ws of clients) t.deepEqual(JSON.parse(await ws.next(15_000)).params, [7, [head.head_block_id]]);
}

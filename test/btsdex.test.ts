// btsdex 0.7.11, the JavaScript library many BitShares trading bots use, replayed from the exact frames
// it exchanged with this node (test/fixtures/btsdex-flow.txt; test/helpers/capture-btsdex.ts captures
// them again from examples/btsdex-bot-flow.cjs): a bot's flow from login to a partly filled and then
// cancelled order, with the block and account events btsdex builds from subscription notices. btsdex
// is not installed to run these.
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { fixture, startTestNode } from './helpers/node.js';
import { WsClient } from './helpers/clients.js';

type Step = { kind: 'block'; time: number; line: number } | { kind: 'send'; text: string; line: number } | { kind: 'receive'; text: string; line: number };

function load(): Step[] {
  const steps: Step[] = [];
  readFileSync(fixture('btsdex-flow.txt'), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const line = i + 1;
      if (text.startsWith('@block ')) steps.push({ kind: 'block', time: Number(text.slice(7)), line });
      else if (text.startsWith('--> ')) steps.push({ kind: 'send', text: text.slice(4), line });
      else if (text.startsWith('<-- ')) steps.push({ kind: 'receive', text: text.slice(4), line });
    });
  return steps;
}

const steps = load();

/** An error's log context carries the time it was raised; everything else is the chain's. */
const untimed = (frame: string): string => frame.replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"');

interface Frame {
  id?: number;
  method?: string;
  params?: [number, unknown[]];
  result?: any;
  error?: { message: string };
}

/**
 * Replays the capture on a fresh node over one WebSocket: sends the client's frames in their order,
 * produces the captured blocks at their times, and waits for each frame the node sent then. Frames are
 * matched as a set between two client frames (the node may interleave replies and notices
 * differently from the capture without a client seeing a difference, since btsdex matches them by id).
 * Returns every frame this node sent and the mismatches.
 */
async function replay(t: ExecutionContext): Promise<{ frames: string[]; failures: string[] }> {
  const node = await startTestNode(t);
  const ws = await WsClient.connect(node.wsUrl);
  ws.ws.on('error', () => {}); // a node that closes on us fails the waits below with the reason
  t.teardown(() => ws.ws.close());
  const frames: string[] = [];
  const failures: string[] = [];
  let pool: string[] = [];
  const take = async (expected: string, line: number) => {
    for (;;) {
      const i = pool.indexOf(untimed(expected));
      if (i >= 0) {
        pool.splice(i, 1);
        return;
      }
      let next: string;
      try {
        next = await ws.next(10_000);
      } catch (err) {
        const id = (JSON.parse(expected) as Frame).id;
        const sameId = pool.filter((f) => id !== undefined && (JSON.parse(f) as Frame).id === id);
        failures.push(`line ${line}: ${(err as Error).message}\n  expected: ${expected.slice(0, 600)}\n  got instead: ${sameId.join('\n') || '(nothing with that id)'}`);
        return;
      }
      frames.push(next);
      pool.push(untimed(next));
    }
  };
  for (const step of steps) {
    if (step.kind === 'block') node.node.producer!.produce(step.time);
    else if (step.kind === 'send') ws.send(step.text);
    else await take(step.text, step.line);
  }
  // Nothing more than captured: a last request's reply must be the next frame to arrive.
  const probe = '{"id":1000000,"jsonrpc":"2.0","method":"call","params":[0,"get_chain_id",[]]}';
  ws.send(probe);
  for (;;) {
    const next = await ws.next(10_000);
    if ((JSON.parse(next) as Frame).id === 1_000_000) break;
    pool.push(next);
  }
  if (pool.length > 0) failures.push(`frames the capture does not have:\n${pool.join('\n')}`);
  pool = [];
  return { frames, failures };
}

const parsed = (frames: string[]): Frame[] => frames.map((f) => JSON.parse(f) as Frame);

/** The client's request matching `pattern` (the first, or the last), with its id. */
function request(pattern: RegExp, which: 'first' | 'last' = 'first'): { id: number; params: unknown[] } {
  const sends = steps.filter((s): s is Extract<Step, { kind: 'send' }> => s.kind === 'send' && pattern.test(s.text));
  const s = which === 'first' ? sends[0] : sends.at(-1);
  if (!s) throw new Error(`the capture has no request matching ${pattern}`);
  const r = JSON.parse(s.text) as { id: number; params: [number, string, unknown[]] };
  return { id: r.id, params: r.params[2] };
}

function resultOf(frames: Frame[], pattern: RegExp, which: 'first' | 'last' = 'first'): any {
  const { id } = request(pattern, which);
  const reply = frames.find((f) => f.id === id);
  if (!reply) throw new Error(`no reply to request ${id} (${pattern})`);
  if (reply.error) throw new Error(`request ${id} (${pattern}) failed: ${reply.error.message}`);
  return reply.result;
}

/** The notices for callback `cb`, each notice's payload. */
const noticesOf = (frames: Frame[], cb: number): unknown[][] => frames.filter((f) => f.method === 'notice' && f.params![0] === cb).map((f) => f.params![1]);

test('every frame the node sent btsdex is the one it sent when captured', async (t) => {
  t.true(steps.filter((s) => s.kind === 'send').length >= 50, 'the capture holds the whole flow');
  const { failures } = await replay(t);
  t.deepEqual(failures, []);
});

test('btsdex logs in and gets the API sets BitShares Core grants without an access file; block, asset and crypto are refused as Core refuses them', async (t) => {
  const frames = parsed((await replay(t)).frames);
  t.is(resultOf(frames, /"login",\["",""\]/), true);
  for (const set of ['database', 'network_broadcast', 'history', 'orders']) t.is(typeof resultOf(frames, new RegExp(`\\[1,"${set}",\\[\\]\\]`)), 'number', set);
  for (const set of ['block', 'asset', 'crypto']) {
    const { id } = request(new RegExp(`\\[1,"${set}",\\[\\]\\]`));
    t.regex(frames.find((f) => f.id === id)!.error!.message, /is_allowed: Access denied/, set);
  }
});

test('a bot\'s flow with btsdex: an order placed with buy() is in the book, in get_account_limit_orders and get_full_accounts, partly filled by another account\'s sell(), the fill reaches the bot as an account event and shows in history, fill history, market history, trades and ticker, and the rest is cancelled', async (t) => {
  const frames = parsed((await replay(t)).frames);
  // buy(): broadcast_transaction_with_callback answers null, then the callback notice carries the
  // processed transaction, whose operation_results btsdex reads the new order's id from.
  const buy = request(/"broadcast_transaction_with_callback",\[\d+,\{.*"operations":\[\[1,\{"fee":\{[^}]*\},"seller":"1\.2\.7"/);
  t.is(frames.find((f) => f.id === buy.id)!.result, null);
  const [confirmation] = noticesOf(frames, buy.params[0] as number)[0] as [{ block_num: number; trx: { operation_results: [number, string][] } }];
  t.deepEqual(confirmation.trx.operation_results, [[1, '1.7.0']]);
  t.like(resultOf(frames, /"get_objects",\[\["1\.7\.0"\]\]/), [{ id: '1.7.0', seller: '1.2.7', for_sale: 1_000_000 }]);
  // Seen in the book (base GOLD, so alice's BTS offer is an ask), her open orders and get_limit_orders.
  const book = resultOf(frames, /"get_order_book",\["1\.3\.1","1\.3\.0",10\]/);
  t.deepEqual(book.asks.map((o: Record<string, string>) => [o.id, o.price, o.quote, o.base, o.owner_name]), [['1.7.0', '0.05', '10', '0.5000', 'alice']]);
  t.deepEqual(resultOf(frames, /"get_account_limit_orders",\["alice","BTS","GOLD",10\]/).map((o: { id: string }) => o.id), ['1.7.0']);
  t.deepEqual(resultOf(frames, /"get_full_accounts",\[\["1\.2\.7"\],false\]/)[0][1].limit_orders.map((o: { id: string }) => o.id), ['1.7.0']);
  t.deepEqual(resultOf(frames, /"get_limit_orders",\["1\.3\.1","1\.3\.0",10\]/).map((o: { id: string }) => o.id), ['1.7.0']);
  // nathan's sell fills 0.2 GOLD of her 0.5 at her price: 4 of her 10 BTS.
  t.like(resultOf(frames, /"get_objects",\[\["1\.7\.0"\]\]/, 'last'), [{ id: '1.7.0', for_sale: 600_000, filled_amount: '400000' }]);
  t.deepEqual(resultOf(frames, /"get_order_book"/, 'last').asks.map((o: Record<string, string>) => [o.id, o.base]), [['1.7.0', '0.3000']]);
  // The account event: a subscription notice about alice's objects, after which btsdex asked for her
  // newest history, which starts with the fill.
  const accountNotice = noticesOf(frames, request(/"set_subscribe_callback"/).params[0] as number).find((n) => JSON.stringify(n).includes('"owner":"1.2.7","asset_type":"1.3.1"'));
  t.truthy(accountNotice, 'a notice with alice\'s new GOLD balance');
  // btsdex asks after each account event; which event comes first depends on block timing, so the
  // check takes the first answer that starts with a fill.
  const newestPattern = /"get_account_history",\["1\.2\.7","1\.11\.[1-9]\d*",100,"1\.11\.0"\]/;
  const asked = steps.filter((x): x is Extract<Step, { kind: 'send' }> => x.kind === 'send' && newestPattern.test(x.text)).map((x) => (JSON.parse(x.text) as { id: number }).id);
  const newest = asked.map((id) => frames.find((f) => f.id === id)?.result as { op: unknown[] }[] | undefined).find((r) => r?.[0]?.op[0] === 4);
  t.truthy(newest, `one of the ${asked.length} newest-history answers starts with the fill`);
  t.like(newest![0]!.op, [4, { order_id: '1.7.0', account_id: '1.2.7', pays: { amount: 400_000, asset_id: '1.3.0' }, receives: { amount: 2000, asset_id: '1.3.1' }, is_maker: true }]);
  t.is(resultOf(frames, /"get_account_history",\["1\.2\.7","1\.11\.0",10,"1\.11\.0"\]/)[0].op[0], 4);
  t.deepEqual(
    resultOf(frames, /"get_fill_order_history"/).map((f: { op: { order_id: string; is_maker: boolean } }) => [f.op.order_id, f.op.is_maker]),
    [['1.7.0', true], ['1.7.1', false]],
  );
  const [bucket] = resultOf(frames, /"get_market_history"/);
  t.like(bucket, { key: { base: '1.3.0', quote: '1.3.1', seconds: 60 }, base_volume: 400_000, quote_volume: 2000 });
  t.like(resultOf(frames, /"get_trade_history"/)[0], { sequence: 1, price: '20', amount: '0.2000', value: '4', type: 'buy', side1_account_id: '1.2.7', side2_account_id: '1.2.6' });
  t.like(resultOf(frames, /"get_ticker",\["BTS","GOLD"\]/), { latest: '20', highest_bid: '20', base_volume: '4', quote_volume: '0.2' });
  t.like(resultOf(frames, /"get_24_volume",\["BTS","GOLD"\]/), { base_volume: '4', quote_volume: '0.2' });
  // cancelOrder(): the rest, 6 BTS, comes back; the order is gone from her account and, as a removed
  // object, from her subscription.
  const cancel = request(/"broadcast_transaction_with_callback",\[\d+,\{.*"operations":\[\[2,/);
  const [cancelled] = noticesOf(frames, cancel.params[0] as number)[0] as [{ trx: { operation_results: unknown[] } }];
  t.deepEqual(cancelled.trx.operation_results, [[2, { amount: 600_000, asset_id: '1.3.0' }]]);
  t.deepEqual(resultOf(frames, /"get_full_accounts",\[\["1\.2\.7"\],false\]/, 'last')[0][1].limit_orders, []);
  t.true(noticesOf(frames, request(/"set_subscribe_callback"/).params[0] as number).some((n) => JSON.stringify(n) === '[["1.7.0"]]'));
  t.deepEqual(resultOf(frames, /"get_account_balances",\["1\.2\.7"/, 'last'), [{ amount: 9_100_000, asset_id: '1.3.0' }, { amount: 2000, asset_id: '1.3.1' }]);
});

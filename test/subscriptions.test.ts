// Subscriptions and notices over real WebSocket connections (reference §3.6, clients.md §1.4).
import test, { type ExecutionContext } from 'ava';
import { WsClient, connectWs } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { generateBlocks, startDevnet } from './helpers/devnet.js';

const devnet = (t: ExecutionContext, options: Record<string, string> = {}) => startDevnet(t, options, { blocks: 1 });

const client = connectWs;

/** Reads messages until one is a notice; returns it parsed. */
async function nextNotice(ws: WsClient): Promise<{ method: string; params: [number, unknown[]] }> {
  for (;;) {
    const m = JSON.parse(await ws.next());
    if (m.method === 'notice') return m;
  }
}

const transfer = async (url: string, to = '1.2.0', amount = 1000) =>
  rpc(url, 'network_broadcast', 'broadcast_transaction', [await signedTx(url, [op.transfer('1.2.6', to, amount)], [DEV_WIF])]);

test('get_full_accounts with subscribe sends the account\'s changed objects after each block that concerns it', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const ws = await client(t, wsUrl);
  t.deepEqual(await ws.call({ id: 5, method: 'call', params: [0, 'set_subscribe_callback', [5, false]] }), { id: 5, result: null });
  const full = await ws.call({ id: 6, method: 'call', params: [0, 'get_full_accounts', [['nathan'], true]] });
  t.is(full.result[0][0], 'nathan');
  await transfer(httpUrl, '1.2.0', 4321);
  await generateBlocks(httpUrl);
  // As in Core: one notice for the new objects of the block, then one for the changed ones.
  const created = await nextNotice(ws);
  const changed = await nextNotice(ws);
  for (const n of [created, changed]) {
    t.is(n.params[0], 5);
    t.false('id' in n);
  }
  const createdIds = (created.params[1][0] as { id: string }[]).map((o) => o.id);
  const changedIds = (changed.params[1][0] as { id: string }[]).map((o) => o.id);
  t.true(createdIds.some((id) => id.startsWith('1.11.')), `the transfer's history object among ${createdIds}`);
  t.true(changedIds.includes('2.6.6'), `statistics of nathan among ${changedIds}`);
  t.true(changedIds.some((id) => id.startsWith('2.5.')), 'nathan\'s balance among the changed objects');
});

test('get_objects subscribes to each id by default once a callback is set; set_auto_subscription(false) stops that', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const ws = await client(t, wsUrl);
  await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  await ws.call({ id: 2, method: 'get_objects', params: [['2.1.0']] });
  await generateBlocks(httpUrl);
  const n = await nextNotice(ws);
  t.is(n.params[0], 1);
  t.deepEqual((n.params[1][0] as { id: string }[]).map((o) => o.id), ['2.1.0']);

  const other = await client(t, wsUrl);
  await other.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [9, false]] });
  await other.call({ id: 2, method: 'call', params: [0, 'set_auto_subscription', [false]] });
  await other.call({ id: 3, method: 'get_objects', params: [['2.1.0']] });
  await generateBlocks(httpUrl);
  await nextNotice(ws);
  t.true(await other.quiet(300), 'no notice without subscription');
  // An explicit flag still subscribes.
  await other.call({ id: 4, method: 'get_objects', params: [['2.1.0'], true] });
  await generateBlocks(httpUrl);
  t.is((await nextNotice(other)).params[0], 9);
});

test('without a subscribe callback nothing subscribes, and other connections never get this one\'s notices', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const quiet = await client(t, wsUrl);
  await quiet.call({ id: 1, method: 'get_objects', params: [['2.1.0'], true] });
  const loud = await client(t, wsUrl);
  await loud.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [77, false]] });
  await loud.call({ id: 2, method: 'get_objects', params: [['2.1.0']] });
  await generateBlocks(httpUrl);
  t.is((await nextNotice(loud)).params[0], 77);
  t.true(await quiet.quiet(300));
});

test('set_block_applied_callback sends each new block id', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const ws = await client(t, wsUrl);
  t.deepEqual(await ws.call({ id: 3, method: 'call', params: [0, 'set_block_applied_callback', [3]] }), { id: 3, result: null });
  await generateBlocks(httpUrl, 2);
  const a = await nextNotice(ws);
  const b = await nextNotice(ws);
  const head = (await rpc(httpUrl, 'database', 'get_dynamic_global_properties', [])).result;
  t.deepEqual(a.params[0], 3);
  t.regex(a.params[1][0] as string, /^00000002[0-9a-f]{32}$/);
  t.deepEqual(b.params[1], [head.head_block_id]);
});

test('set_pending_transaction_callback sends each accepted transaction', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const ws = await client(t, wsUrl);
  await ws.call({ id: 4, method: 'call', params: [0, 'set_pending_transaction_callback', [4]] });
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.1', 55)], [DEV_WIF]);
  await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [trx]);
  const n = await nextNotice(ws);
  t.is(n.params[0], 4);
  t.deepEqual(n.params[1][0], trx);
});

test('after cancel_all_subscriptions no object notices arrive', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  const ws = await client(t, wsUrl);
  await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  await ws.call({ id: 2, method: 'call', params: [0, 'get_full_accounts', [['nathan'], true]] });
  await ws.call({ id: 3, method: 'get_objects', params: [['2.1.0']] });
  await generateBlocks(httpUrl);
  await nextNotice(ws);
  t.deepEqual(await ws.call({ id: 4, method: 'call', params: [0, 'cancel_all_subscriptions', []] }), { id: 4, result: null });
  await transfer(httpUrl);
  await generateBlocks(httpUrl, 2);
  t.true(await ws.quiet(400), 'silent after cancel_all_subscriptions');
});

test('subscribing to all creations needs enable-subscribe-to-all', async (t) => {
  const off = await devnet(t);
  const ws = await client(t, off.wsUrl);
  const r = await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, true]] });
  t.regex(r.error.message, /Subscribing to universal object creation and removal is disallowed in this server\./);

  const on = await devnet(t, { 'enable-subscribe-to-all': 'true' });
  const all = await client(t, on.wsUrl);
  await all.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [8, true]] });
  await transfer(on.httpUrl, '1.2.3', 10);
  await generateBlocks(on.httpUrl);
  const created = await nextNotice(all);
  t.is(created.params[0], 8);
  t.true((created.params[1][0] as { id: string }[]).some((o) => o.id.startsWith('1.11.')), 'the new operation history object');
});

test('api-limit-get-full-accounts-subscribe caps the accounts one connection subscribes to', async (t) => {
  const { httpUrl, wsUrl, port } = await devnet(t, { 'api-limit-get-full-accounts-subscribe': '1' });
  const ws = await client(t, wsUrl);
  await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  // Only committee-account (first) is subscribed; witness-account is over the cap. The call answers both (Core's rule).
  const both = await ws.call({ id: 2, method: 'call', params: [0, 'get_full_accounts', [['committee-account', 'witness-account'], true]] });
  t.is(both.result.length, 2);
  t.is(await metric(port, 'graphene_rpc_subscriptions_refused_total', { kind: 'accounts' }), 1);
  await transfer(httpUrl, '1.2.1', 10);
  await generateBlocks(httpUrl);
  t.true(await ws.quiet(400), 'a change to the uncapped account sends nothing');
  await transfer(httpUrl, '1.2.0', 10);
  await generateBlocks(httpUrl);
  t.is((await nextNotice(ws)).params[0], 1);
});

test('subscription calls are refused over HTTP with a clear error', async (t) => {
  const { httpUrl } = await devnet(t);
  for (const [method, params] of [
    ['set_subscribe_callback', [1, false]],
    ['set_block_applied_callback', [1]],
    ['set_pending_transaction_callback', [1]],
    ['cancel_all_subscriptions', []],
  ] as const) {
    t.regex((await rpc(httpUrl, 'database', method, [...params])).error.message, /needs a WebSocket connection/, method);
  }
});

test('a notice never precedes the reply that registered its callback', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t, { 'block-interval': '1' });
  const ws = await client(t, wsUrl);
  // Pipelined: the callback and many reads; every reply comes before any notice they cause.
  ws.send(JSON.stringify({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] }));
  for (let i = 2; i < 40; i++) ws.send(JSON.stringify({ id: i, method: 'get_objects', params: [['2.1.0']] }));
  let lastReply = 0;
  for (let seen = 0; seen < 45; seen++) {
    const m = JSON.parse(await ws.next(5000));
    if (m.method === 'notice') {
      t.true(lastReply >= 2, 'the notice came after the replies that subscribed');
      break;
    }
    t.is(m.id, lastReply + 1);
    lastReply = m.id;
  }
  void httpUrl;
});

test('subscribe_to_market checks its assets and is kept; unsubscribe_from_market removes it (no market exists to fire)', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [await signedTx(httpUrl, [op.assetCreate('XUSD')], [DEV_WIF])]);
  await generateBlocks(httpUrl);
  const ws = await client(t, wsUrl);
  t.deepEqual(await ws.call({ id: 1, method: 'call', params: [0, 'subscribe_to_market', [1, 'BTS', 'XUSD']] }), { id: 1, result: null });
  t.regex((await ws.call({ id: 2, method: 'call', params: [0, 'subscribe_to_market', [2, 'BTS', 'NOPE']] })).error.message, /no such asset/);
  t.regex((await ws.call({ id: 3, method: 'call', params: [0, 'subscribe_to_market', [3, 'BTS', '1.3.0']] })).error.message, /asset_a_id != asset_b_id/);
  t.deepEqual(await ws.call({ id: 4, method: 'call', params: [0, 'unsubscribe_from_market', ['XUSD', 'BTS']] }), { id: 4, result: null });
});

/** Reads messages until one is a notice; returns its text as sent, before any JSON.parse rounds it. */
async function nextNoticeText(ws: WsClient): Promise<string> {
  for (;;) {
    const text = await ws.next();
    if ((JSON.parse(text) as { method?: string }).method === 'notice') return text;
  }
}

test('callback ids above 2^32-1 come back in notices as fc prints a uint64: a string with every digit; up to 2^32-1 a number', async (t) => {
  const { httpUrl, wsUrl } = await devnet(t);
  // Written by hand: JSON.stringify would round 12345678901234567890 before it left the test.
  const cases: [string, string][] = [
    ['4294967295', '4294967295'],
    ['4294967296', '"4294967296"'],
    ['5000000000', '"5000000000"'],
    ['12345678901234567890', '"12345678901234567890"'],
    // as_uint64 reads a numeric string too; the notice prints the number as fc holds it
    ['"12345678901234567890"', '"12345678901234567890"'],
  ];
  const sessions: [WsClient, string][] = [];
  for (const [sent, printed] of cases) {
    const ws = await client(t, wsUrl);
    ws.send(`{"id":1,"method":"call","params":[0,"set_subscribe_callback",[${sent},false]]}`);
    t.deepEqual(JSON.parse(await ws.next()), { id: 1, result: null });
    t.deepEqual(await ws.call({ id: 2, method: 'get_objects', params: [['2.1.0']] }).then((r) => r.result[0].id), '2.1.0');
    sessions.push([ws, printed]);
  }
  // set_block_applied_callback takes its id the same way.
  const blocks = await client(t, wsUrl);
  blocks.send('{"id":1,"method":"call","params":[0,"set_block_applied_callback",[12345678901234567890]]}');
  t.deepEqual(JSON.parse(await blocks.next()), { id: 1, result: null });

  await generateBlocks(httpUrl);
  for (const [ws, printed] of sessions) t.true((await nextNoticeText(ws)).startsWith(`{"method":"notice","params":[${printed},[`), `callback id printed as ${printed}`);
  t.regex(await nextNoticeText(blocks), /^\{"method":"notice","params":\["12345678901234567890",\["[0-9a-f]{40}"\]\]\}$/);
});

/** A counter of the node's metrics, read as Prometheus reads it. */
async function metric(port: number, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const { parsePromText, valueOf } = await import('../bench/prom-text.js');
  return valueOf(parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()), name, labels);
}

test('max-subscribed-objects-per-connection: past the cap a call still answers in full, its ids are not subscribed, and the metrics count them', async (t) => {
  const { httpUrl, wsUrl, port } = await devnet(t, { 'max-subscribed-objects-per-connection': '3' });
  const ws = await client(t, wsUrl);
  await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  // Ids of objects that exist and of ones that do not (Core subscribes to both) fill the cap.
  const filled = await ws.call({ id: 2, method: 'get_objects', params: [['1.2.0', '1.2.1', '1.2.99999']] });
  t.deepEqual(
    filled.result.map((o: { id: string } | null) => o?.id ?? null),
    ['1.2.0', '1.2.1', null],
  );
  // Asking again for a held id costs no place; a new id past the cap is answered, not subscribed.
  const past = await ws.call({ id: 3, method: 'get_objects', params: [['1.2.0', '2.1.0', '1.2.99998']] });
  t.deepEqual(
    past.result.map((o: { id: string } | null) => o?.id ?? null),
    ['1.2.0', '2.1.0', null],
  );
  await generateBlocks(httpUrl);
  t.true(await ws.quiet(400), 'a new block changes 2.1.0, which the cap left out: no notice');
  t.is(await metric(port, 'graphene_rpc_subscriptions_refused_total', { kind: 'objects' }), 2);
  // The cap is per connection: another one subscribes as usual.
  const other = await client(t, wsUrl);
  await other.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [7, false]] });
  await other.call({ id: 2, method: 'get_objects', params: [['2.1.0']] });
  // set_subscribe_callback clears the subscriptions (as in Core), which frees the places.
  await ws.call({ id: 4, method: 'call', params: [0, 'set_subscribe_callback', [8, false]] });
  await ws.call({ id: 5, method: 'get_objects', params: [['2.1.0']] });
  await generateBlocks(httpUrl);
  t.is((await nextNotice(other)).params[0], 7);
  t.is((await nextNotice(ws)).params[0], 8);
});

test('max-subscribed-objects-per-connection: one connection asking for many absent ids holds at most the cap', async (t) => {
  const { wsUrl, port } = await devnet(t, { 'max-subscribed-objects-per-connection': '1000', 'max-ids-per-call': '1000' });
  const ws = await client(t, wsUrl);
  await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  const calls = 20;
  for (let c = 0; c < calls; c++) ws.send(JSON.stringify({ id: 10 + c, method: 'get_objects', params: [Array.from({ length: 1000 }, (_, i) => `1.2.${100_000 + c * 1000 + i}`)] }));
  for (let c = 0; c < calls; c++) t.is(JSON.parse(await ws.next(20_000)).result.length, 1000);
  t.is(await metric(port, 'graphene_rpc_subscriptions_refused_total', { kind: 'objects' }), (calls - 1) * 1000, 'all but the first call\'s ids were left out');
});

test('max-market-subscriptions-per-connection: one market more is refused with an execution error naming the option; a held market may change its callback', async (t) => {
  const { httpUrl, wsUrl, port } = await devnet(t, { 'max-market-subscriptions-per-connection': '1' });
  await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [await signedTx(httpUrl, [op.assetCreate('XUSD'), op.assetCreate('XEUR')], [DEV_WIF])]);
  await generateBlocks(httpUrl);
  const ws = await client(t, wsUrl);
  t.deepEqual(await ws.call({ id: 1, method: 'call', params: [0, 'subscribe_to_market', [1, 'BTS', 'XUSD']] }), { id: 1, result: null });
  t.deepEqual(await ws.call({ id: 2, method: 'call', params: [0, 'subscribe_to_market', [2, 'XUSD', 'BTS']] }), { id: 2, result: null }, 'the same market, a new callback');
  const refused = await ws.call({ id: 3, method: 'call', params: [0, 'subscribe_to_market', [3, 'BTS', 'XEUR']] });
  t.is(refused.error.code, 10);
  t.is(
    refused.error.message,
    'Execution error: Assert Exception: _market_subscriptions.size() < max_market_subscriptions_per_connection: Number of markets one connection subscribes to can not be greater than 1 (--max-market-subscriptions-per-connection)',
  );
  t.is(await metric(port, 'graphene_rpc_subscriptions_refused_total', { kind: 'markets' }), 1);
  // A freed place is given again.
  await ws.call({ id: 4, method: 'call', params: [0, 'unsubscribe_from_market', ['BTS', 'XUSD']] });
  t.deepEqual(await ws.call({ id: 5, method: 'call', params: [0, 'subscribe_to_market', [5, 'BTS', 'XEUR']] }), { id: 5, result: null });
});

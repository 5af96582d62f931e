// python-bitshares 0.7.1 (with python-graphenelib 1.6.1), the library most exchanges and bots use,
// replayed from the exact frames it sent (test/fixtures/python-bitshares-flows.txt says how they were
// captured, test/helpers/capture-python-bitshares.ts captures them again): memo nonces as bare JSON
// numbers above 2^53, authorities without address_auths, a trading bot's market flow, and the
// operations the devnet refuses. No Python is needed to run these.
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { fixture, startTestNode } from './helpers/node.js';
import { WsClient, httpPost } from './helpers/clients.js';
import { decryptMemo } from '../src/chain/crypto/memo.js';
import { privateKeyFromWif, publicKeyOf } from '../src/chain/crypto/keys.js';

type Step = { kind: 'block'; time: number } | { kind: 'call'; request: string; reply: string };

function load(): { keys: Record<string, string>; steps: Step[] } {
  let keys: Record<string, string> = {};
  const steps: Step[] = [];
  for (const line of readFileSync(fixture('python-bitshares-flows.txt'), 'utf8').split('\n')) {
    if (line.startsWith('@keys ')) keys = JSON.parse(line.slice(6)) as Record<string, string>;
    else if (line.startsWith('@block ')) steps.push({ kind: 'block', time: Number(line.slice(7)) });
    else if (line.startsWith('--> ')) steps.push({ kind: 'call', request: line.slice(4), reply: '' });
    else if (line.startsWith('<-- ')) (steps[steps.length - 1] as { reply: string }).reply = line.slice(4);
  }
  return { keys, steps };
}

const { keys, steps } = load();
const calls = steps.filter((s): s is Extract<Step, { kind: 'call' }> => s.kind === 'call');

/** An error's log context carries the time it was raised; everything else is the chain's. */
const untimed = (reply: string): string => reply.replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"');

/** Replays the capture on a fresh node over one WebSocket; returns the node's replies in order. */
async function replay(t: ExecutionContext): Promise<{ replies: string[]; ws: WsClient; httpUrl: string }> {
  const node = await startTestNode(t);
  const ws = await WsClient.connect(node.wsUrl);
  t.teardown(() => ws.ws.close());
  const replies: string[] = [];
  for (const step of steps) {
    if (step.kind === 'block') {
      node.node.producer!.produce(step.time);
      continue;
    }
    ws.send(step.request);
    replies.push(await ws.next());
  }
  return { replies, ws, httpUrl: node.httpUrl };
}

const callIndex = (pattern: RegExp): number => {
  const i = calls.findIndex((c) => pattern.test(c.request));
  if (i < 0) throw new Error(`the capture has no request matching ${pattern}`);
  return i;
};

test('every reply to the real client is the one it got when captured', async (t) => {
  const { replies } = await replay(t);
  t.is(replies.length, calls.length);
  calls.forEach((c, i) => t.is(untimed(replies[i]!), untimed(c.reply), c.request.slice(0, 120)));
});

test('a memo transfer with the nonce as a bare JSON number above 2^53 lands, and its memo decrypts with the recipient\'s memo key', async (t) => {
  const broadcast = callIndex(/"broadcast_transaction".*"from": "1\.2\.6", "to": "1\.2\.7".*"nonce": \d{17,}/);
  const sent = /"nonce": (\d+)/.exec(calls[broadcast]!.request)![1]!;
  t.true(BigInt(sent) > 2n ** 53n, 'the capture holds what the issue is about');
  const { replies } = await replay(t);
  t.is(replies[broadcast], `{"id":${JSON.parse(calls[broadcast]!.request).id},"jsonrpc":"2.0","result":null}`);
  const history = JSON.parse(replies[callIndex(/"get_account_history", \["1\.2\.7"/)]!).result as { op: [number, { memo?: { from: string; to: string; nonce: string; message: string } }] }[];
  const transfer = history.find((h) => h.op[0] === 0 && h.op[1].memo)!;
  const memo = transfer.op[1].memo!;
  t.is(memo.nonce, sent, 'every digit kept, and printed as fc prints a uint64 above 2^32: a string');
  t.is(memo.to, publicKeyOf(privateKeyFromWif(keys.memo!)));
  t.is(decryptMemo(privateKeyFromWif(keys.memo!), memo), 'hello alice');
});

test('create_account with python-bitshares\' authority shape (no address_auths, an extensions key) lands with Core\'s defaults', async (t) => {
  const create = callIndex(/"broadcast_transaction".*\[\[5, /);
  t.notRegex(calls[create]!.request, /address_auths/);
  const { replies } = await replay(t);
  t.is(JSON.parse(replies[create]!).result, null);
  const alice = (JSON.parse(replies[callIndex(/"lookup_account_names", \[\["alice"\]\]\], "jsonrpc": "2.0", "id": 13/)]!).result as Record<string, { key_auths: unknown[]; address_auths: unknown[] }>[])[0]!;
  t.deepEqual(alice.owner, { weight_threshold: 1, account_auths: [], key_auths: [[publicKeyOf(privateKeyFromWif(keys.owner!)), 1]], address_auths: [] });
  t.deepEqual(alice.active!.key_auths, [[publicKeyOf(privateKeyFromWif(keys.active!)), 1]]);
});

test('account_update of the memo key, the votes and the active keys lands', async (t) => {
  const { ws } = await replay(t);
  ws.send('{"id":1000,"method":"call","params":[0,"get_objects",[["1.2.7"]]]}');
  const alice = (JSON.parse(await ws.next()).result as Record<string, any>[])[0]!;
  t.is(alice.options.memo_key, publicKeyOf(privateKeyFromWif(keys.memo2!)));
  t.deepEqual(alice.options.votes, ['1:0']);
  t.is(alice.options.num_witness, 1);
  const active = (alice.active.key_auths as [string, number][]).map(([k]) => k).sort();
  t.deepEqual(active, [publicKeyOf(privateKeyFromWif(keys.active!)), publicKeyOf(privateKeyFromWif(keys.extra!))].sort());
});

test('the client prices its lifetime upgrade and its proposal as Core prices them, and the upgrade alice cannot pay is refused for her balance', async (t) => {
  const { replies } = await replay(t);
  const answer = (pattern: RegExp): { result?: unknown; error?: { message: string } } => JSON.parse(replies[callIndex(pattern)]!);
  // A lifetime membership at the schedule's fee; a proposal at its own, with its proposed transfer's.
  t.deepEqual(answer(/"get_required_fees", \[\[\[8, /).result, [{ amount: 1000000000, asset_id: '1.3.0' }]);
  t.deepEqual(answer(/"get_required_fees", \[\[\[22, /).result, [[{ amount: 2000000, asset_id: '1.3.0' }, [{ amount: 86869, asset_id: '1.3.0' }]]]);
  // The client set the proposed transfer's fee from that answer before it signed.
  t.regex(calls[callIndex(/"broadcast_transaction".*\[\[22, /)]!.request, /"proposed_ops": \[\{"op": \[0, \{"fee": \{"amount": 86869, "asset_id": "1\.3\.0"\}/);
  // account_upgrade is evaluated: alice cannot pay the lifetime fee, and Core refuses it so.
  t.is(answer(/"broadcast_transaction".*\[\[8, /).error!.message, "Execution error: Assert Exception: Insufficient Balance: alice's balance of 794970 of asset 1.3.0 is less than required 1000000000");
});

test("the client's proposal is accepted: a 1.10.x object proposed by alice, holding her transfer with the fee the client set", async (t) => {
  const { replies, ws } = await replay(t);
  const broadcast = callIndex(/"broadcast_transaction".*\[\[22, /);
  t.is(JSON.parse(replies[broadcast]!).result, null);
  const sent = JSON.parse(calls[broadcast]!.request).params[2][0].operations[0][1];
  ws.send(JSON.stringify({ id: 1, method: 'call', params: [0, 'get_proposed_transactions', ['alice']] }));
  const [proposal] = JSON.parse(await ws.next()).result;
  t.is(proposal.proposer, '1.2.7');
  t.is(proposal.expiration_time, sent.expiration_time);
  t.deepEqual(proposal.proposed_transaction.operations, [sent.proposed_ops[0].op]);
  t.deepEqual(proposal.required_active_approvals, ['1.2.7']);
  t.deepEqual(proposal.available_active_approvals, []);
});

test('verify_authority, get_required_signatures and get_transaction_hex read the client\'s transactions exactly, long nonce included', async (t) => {
  const node = await startTestNode(t);
  const ws = await WsClient.connect(node.wsUrl);
  t.teardown(() => ws.ws.close());
  // The transaction objects exactly as the client wrote them inside its broadcasts.
  const trxText = (i: number): string => {
    const request = calls[i]!.request;
    const start = request.indexOf('"broadcast_transaction", [') + '"broadcast_transaction", ['.length;
    return request.slice(start, request.lastIndexOf(']], "jsonrpc"'));
  };
  const ask = async (method: string, args: string): Promise<any> => {
    ws.send(`{"method": "call", "params": [0, "${method}", [${args}]], "jsonrpc": "2.0", "id": 1}`);
    return JSON.parse(await ws.next());
  };
  const create = trxText(callIndex(/"broadcast_transaction".*\[\[5, /));
  const memoTransfer = trxText(callIndex(/"broadcast_transaction".*"from": "1\.2\.6", "to": "1\.2\.7".*"nonce": \d{17,}/));
  for (const trx of [create, memoTransfer]) {
    t.deepEqual(await ask('verify_authority', trx), { id: 1, jsonrpc: '2.0', result: true });
    t.deepEqual((await ask('get_required_signatures', `${trx.replace(/"signatures": \[[^\]]*\]/, '"signatures": []')}, ["BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV"]`)).result, ['BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV']);
  }
  // The same over HTTP, where requests take the same parsing path.
  const overHttp = await httpPost(node.httpUrl, `{"method": "call", "params": [0, "verify_authority", [${memoTransfer}]], "jsonrpc": "2.0", "id": 12345678901234567890}`);
  t.is(overHttp.text, '{"id":"12345678901234567890","jsonrpc":"2.0","result":true}');
  const nonce = BigInt(/"nonce": (\d+)/.exec(memoTransfer)![1]!);
  const le = Buffer.alloc(8);
  le.writeBigUInt64LE(nonce);
  t.true(((await ask('get_transaction_hex', memoTransfer)).result as string).includes(le.toString('hex')), 'the nonce packed with every digit');
});

test('a trading bot\'s flow: an order placed with Market.buy is seen in the book and the open orders, partly filled by another account\'s Market.sell, shown in trades, ticker and market history, and cancelled', async (t) => {
  const { replies } = await replay(t);
  const reply = (pattern: RegExp): any => {
    const r = JSON.parse(replies[callIndex(pattern)]!) as { result?: unknown; error?: { message: string } };
    if (r.error) throw new Error(r.error.message);
    return r.result;
  };
  const broadcastOf = (code: number): any => reply(new RegExp(`"broadcast_transaction", \\[\\{[^\\]]*"operations": \\[\\[${code}, `));
  t.is(broadcastOf(1), null, 'alice\'s limit_order_create is accepted');
  t.deepEqual(
    reply(/"get_account_limit_orders", \["alice", "BTS", "GOLD", 10\]/).map((o: { id: string; for_sale: number }) => [o.id, o.for_sale]),
    [['1.7.0', 1_000_000]],
  );
  // After nathan's sell: the book holds the rest of alice's order, 6 of her 10 BTS.
  const lastBook = calls.map((c) => /"get_order_book"/.test(c.request)).lastIndexOf(true);
  const book = JSON.parse(replies[lastBook]!).result;
  t.deepEqual(book.bids.map((b: Record<string, string>) => [b.price, b.quote, b.base, b.id, b.owner_name]), [['20', '0.3000', '6', '1.7.0', 'alice']]);
  const [trade] = reply(/"get_trade_history", \["BTS", "GOLD"/);
  t.like(trade, { sequence: 1, price: '20', amount: '0.2000', value: '4', type: 'buy', side1_account_id: '1.2.7', side2_account_id: '1.2.6' });
  t.deepEqual(reply(/"get_trade_history_by_sequence", \["BTS", "GOLD", 1,/), [], 'the next page, after sequence 1, is empty');
  t.like(reply(/"get_ticker", \["1\.3\.0", "1\.3\.1"\]/), { latest: '20', highest_bid: '20', base_volume: '4', quote_volume: '0.2', mto_id: '5.2.0' });
  const [bucket] = reply(/"get_market_history", \["BTS", "GOLD", 60,/);
  t.like(bucket, { key: { base: '1.3.0', quote: '1.3.1', seconds: 60 }, base_volume: 400_000, quote_volume: 2_000 });
  const fills = reply(/"get_fill_order_history", \["1\.3\.0", "1\.3\.1", 50\]/);
  t.deepEqual(fills.map((f: { op: { order_id: string; is_maker: boolean } }) => [f.op.order_id, f.op.is_maker]), [['1.7.0', true], ['1.7.1', false]]);
  t.is(broadcastOf(2), null, 'the cancel of the rest is accepted');
  // The client read alice's open orders from get_full_accounts before and after the cancel.
  const fulls = calls.map((c, i) => (/"get_full_accounts", \[\["1\.2\.7"\]/.test(c.request) ? JSON.parse(replies[i]!).result[0][1] : undefined)).filter(Boolean);
  t.deepEqual(fulls.at(-2).limit_orders.map((o: { id: string; for_sale: number }) => [o.id, o.for_sale]), [['1.7.0', 600_000]]);
  t.deepEqual(fulls.at(-1).limit_orders, []);
});

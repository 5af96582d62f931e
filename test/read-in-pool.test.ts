// Large requests are read in the worker pool, not on the front end's thread (src/protocol/read-in-pool.ts),
// against a real node: a request padded past READ_IN_POOL_FROM_BYTES (JSON allows whitespace
// anywhere between tokens) is answered byte for byte as the same request unpadded, which the front
// end reads itself; refusals, limits, front-end handlers and reply order hold for it; and the node
// counts it in /metrics.
import test from 'ava';
import { startTestNode } from './helpers/node.js';
import { connectWs, httpPost } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';
import { startDevnet } from './helpers/devnet.js';
import { READ_IN_POOL_FROM_BYTES, PACKED_ARG_FROM_BYTES } from '../src/tuning.js';
import { PackedArg, readRequest, takeReadAnswer, argSize } from '../src/protocol/read-in-pool.js';
import { packTasks, decodeTasks } from '../src/protocol/codec.js';

/** `text` with whitespace after its first character, so that it is READ_IN_POOL_FROM_BYTES or more. */
const padded = (text: string) => `${text[0]}${' '.repeat(READ_IN_POOL_FROM_BYTES)}${text.slice(1)}`;

async function readInPool(port: number): Promise<number> {
  const { parsePromText, valueOf } = await import('../bench/prom-text.js');
  const families = parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
  return valueOf(families, 'graphene_rpc_requests_read_in_pool_total', {}) ?? 0;
}

const transfer = { fee: { amount: 100, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.7', amount: { amount: 1, asset_id: '1.3.0' }, extensions: [] };
const trxOf = (n: number) => ({ ref_block_num: 0, ref_block_prefix: 0, expiration: '2030-01-01T00:00:00', operations: Array.from({ length: n }, () => [0, transfer]), extensions: [], signatures: [] });
const bigTrx = trxOf(300);
/** Under READ_IN_POOL_FROM_BYTES as JSON, over PACKED_ARG_FROM_BYTES packed. */
const mediumTrx = trxOf(100);


/** A reply with its error stack's timestamps blanked: two answers a second apart differ only there. */
const untimed = (reply: string) => reply.replace(/"timestamp":"[^"]*"/g, '"timestamp":""');

test('a large request is read in a worker and answered byte for byte as the same request read on the front end, over WebSocket and HTTP', async (t) => {
  const { wsUrl, httpUrl, port } = await startTestNode(t);
  const ws = await connectWs(t, wsUrl);
  const requests = [
    // an argument that stays packed (a transaction of 100 operations), in the direct and the call form
    JSON.stringify({ id: 1, method: 'get_transaction_hex', params: [mediumTrx] }),
    JSON.stringify({ id: 2, method: 'call', params: ['database', 'get_transaction_hex', [mediumTrx]] }),
    JSON.stringify({ id: 3, method: 'call', params: [0, 'get_objects', [['1.2.0', '1.2.6', '2.1.0'], false]] }),
    // ids as fc echoes them: a literal beyond 2^53, a string, JSON-RPC 2.0
    '{"jsonrpc":"2.0","id":18446744073709551615,"method":"get_chain_id","params":[]}',
    '{"jsonrpc":"2.0","id":"x","method":"get_accounts","params":[["nathan","1.2.0"]]}',
    // refusals: an unknown method, too few arguments, named parameters, a batch, a reply to a server call
    JSON.stringify({ id: 4, method: 'no_such_method', params: [] }),
    JSON.stringify({ id: 5, method: 'call', params: ['database', 'get_accounts', []] }),
    JSON.stringify({ id: 6, method: 'get_objects', params: { ids: ['1.2.0'] } }),
    JSON.stringify([{ id: 7, method: 'get_chain_id', params: [] }]),
    JSON.stringify({ id: 8, result: 1 }),
  ];
  const before = await readInPool(port);
  for (const text of requests) {
    t.true(text.length < READ_IN_POOL_FROM_BYTES, 'unpadded, read on the front end');
    // Sent as text: the test's own JSON.parse would round the id beyond 2^53.
    if (!text.includes('"result"')) {
      ws.send(text);
      const small = await ws.next();
      ws.send(padded(text));
      t.is(untimed(await ws.next()), untimed(small), text);
    } else ws.send(padded(text));
    const [httpSmall, httpLarge] = [await httpPost(httpUrl, text), await httpPost(httpUrl, padded(text))];
    t.is(untimed(httpLarge.text), untimed(httpSmall.text), text);
    t.is(httpLarge.status, httpSmall.status, text);
  }
  t.is(await readInPool(port), before + 2 * requests.length, 'every padded request was read in the pool');
  // The reply to a reply (id 8) is nothing, and the connection went on.
  t.true(await ws.quiet());
  t.is((await ws.call({ id: 9, method: 'get_chain_id', params: [] })).id, 9);
});

test('a large message that is not JSON, or too deep, is refused as a small one is: the JSON error echoes the request, and the connection stays up', async (t) => {
  const { wsUrl, httpUrl } = await startTestNode(t, { 'max-json-depth': '10' });
  const ws = await connectWs(t, wsUrl);
  const broken = padded('{"id":1,"method":"get_chain_id","params":[}');
  ws.send(broken);
  const reply = JSON.parse(await ws.next());
  t.is(reply.id, null);
  t.is(reply.error.code, -32700);
  // fc's from_string rethrows with the text it was given: the whole request, padding included.
  t.is(reply.error.data.stack.at(-1).data.str, broken);
  const deep = padded(JSON.stringify({ id: 2, method: 'get_objects', params: [[[[[[[[[[[['1.2.0']]]]]]]]]]]] }));
  ws.send(deep);
  const tooDeep = JSON.parse(await ws.next());
  t.is(tooDeep.error.code, -32700);
  t.regex(tooDeep.error.message, /too deep/);
  const overHttp = await httpPost(httpUrl, broken);
  t.is(overHttp.status, 400);
  t.is(JSON.parse(overHttp.text).error.data.stack.at(-1).data.str, broken);
  t.is((await ws.call({ id: 3, method: 'get_chain_id', params: [] })).id, 3);
});

test('--max-ids-per-call counts a list the worker left packed', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-ids-per-call': '100' });
  const ws = await connectWs(t, wsUrl);
  const ids = Array.from({ length: 3000 }, (_, i) => `1.2.${i}`);
  const text = JSON.stringify({ id: 1, method: 'get_accounts', params: [ids] });
  t.true(text.length >= READ_IN_POOL_FROM_BYTES);
  const reply = await ws.call(JSON.parse(text));
  t.is(reply.error.message, 'Execution error: Assert Exception: account_names_or_ids.size() <= max_ids_per_call: Number of account_names_or_ids in one call can not be greater than 100 (--max-ids-per-call)');
});

test('a front-end method gets a large request\'s arguments unpacked: a transaction of 30 transfers broadcast in a large request is accepted', async (t) => {
  const node = await startDevnet(t);
  const ws = await connectWs(t, node.wsUrl);
  // A devnet transaction is at most 2,048 bytes packed; 30 transfers pack to about 700 and their JSON to 4 KB.
  const trx = await signedTx(node.httpUrl, Array.from({ length: 30 }, (_, i) => op.transfer('1.2.6', '1.2.0', i + 1)), [DEV_WIF]);
  const text = JSON.stringify({ id: 1, method: 'call', params: ['network_broadcast', 'broadcast_transaction', [trx]] });
  ws.send(padded(text));
  const reply = JSON.parse(await ws.next(20_000));
  t.deepEqual(reply, { id: 1, result: null });
  t.is(await readInPool(node.port), 1);
});

test('a connection\'s replies keep their order when some of its requests are read in the pool', async (t) => {
  const { wsUrl } = await startTestNode(t);
  const ws = await connectWs(t, wsUrl);
  const texts = Array.from({ length: 12 }, (_, i) =>
    i % 3 === 0 ? padded(JSON.stringify({ id: i, method: 'get_transaction_hex', params: [bigTrx] })) : JSON.stringify({ id: i, method: 'get_chain_id', params: [] }),
  );
  for (const text of texts) ws.send(text);
  const ids: number[] = [];
  for (let i = 0; i < texts.length; i++) ids.push(JSON.parse(await ws.next()).id);
  t.deepEqual(ids, texts.map((_, i) => i));
});

test('read in the pool: large arguments stay packed, with their list length and shape size, and cross to the worker that runs the call as their bytes', (t) => {
  const ids = Array.from({ length: 500 }, (_, i) => `1.2.${i}`);
  const text = JSON.stringify({ id: 7, method: 'call', params: ['database', 'get_accounts', [ids, true]] });
  const answer = takeReadAnswer(readRequest(new TextEncoder().encode(text), 100, PACKED_ARG_FROM_BYTES));
  if (answer.kind !== 'request') return t.fail(answer.kind);
  const args = answer.request.params[2] as unknown[];
  t.true(args[0] instanceof PackedArg, 'the list of 500 ids stays packed');
  t.is((args[0] as PackedArg).length, 500);
  t.is(argSize(args[0]), 500);
  t.is(args[1], true, 'a small argument is a value');
  t.is(answer.request.params[0], 'database');
  // The task carries the bytes, and the worker's decoding gives the list back.
  const [task] = decodeTasks(packTasks([{ set: 'database', method: 'get_accounts', params: args, packed: [0] }]));
  t.deepEqual(task!.params, [ids, true]);
  // A transaction's size counts its operations, as shapeOf does for an unpacked one.
  const trxText = JSON.stringify({ id: 1, method: 'get_transaction_hex', params: [bigTrx] });
  const trx = takeReadAnswer(readRequest(new TextEncoder().encode(trxText), 100, PACKED_ARG_FROM_BYTES));
  if (trx.kind !== 'request') return t.fail(trx.kind);
  t.is(argSize(trx.request.params[0]), 300);
  t.is((trx.request.params[0] as PackedArg).length, -1);
});

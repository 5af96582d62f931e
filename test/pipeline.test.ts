// The call pipeline's layers, one behaviour at a time, over a fake pool and captured logs. (The
// limits that admit and schedule enforce are tested in limits.test.ts; whole calls through real
// servers in the transcripts and the API tests.)
import test from 'ava';
import { resultPrefix } from '../src/protocol/jsonrpc.js';
import { RpcError, assertError } from '../src/errors.js';
import { compose, type Call, type Layer } from '../src/pipeline/types.js';
import { FRONT_HANDLERS } from '../src/handlers/index.js';
import { fakeNode, settle, type FakeNodeOptions } from './helpers/pipeline.js';

/** A node whose pool answers every call with the string "from the pool". */
function node(opts: FakeNodeOptions = {}) {
  const n = fakeNode({ answer: (task) => new TextEncoder().encode(`${task.head}"from the pool"}`), ...opts });
  return { ...n, tasks: { get length() { return n.tasks.flat().length; }, at: (i: number) => n.tasks.flat()[i] } };
}

test('compose runs layers outermost first, and each one after its inner layers on the way out', async (t) => {
  const seen: string[] = [];
  const layer =
    (name: string): Layer =>
    (call, next) => {
      seen.push(`in ${name}`);
      const step = next(call);
      return step instanceof Promise ? step.then(() => void seen.push(`out ${name}`)) : void seen.push(`out ${name}`);
    };
  const handle = compose([layer('a'), layer('b')], async () => void seen.push('run'));
  await handle({} as Call);
  t.deepEqual(seen, ['in a', 'in b', 'run', 'out b', 'out a']);
});

test('decode: a message that is not a readable request is answered with id null and reaches no handler', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":1,"method":');
  conn.receive('[{"id":1,"method":"get_chain_id"}]');
  await settle();
  t.is(tasks.length, 0);
  t.regex(replies[0]!, /^\{"id":null,"jsonrpc":"2\.0","error":\{"code":-32700,"message":"Invalid JSON message"/);
  t.is(replies[1], '{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"Batch requests not supported"}}');
});

test('decode: a client\'s reply to a server call gets no answer at all', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":7,"result":true}');
  conn.receive('{"id":8,"method":"get_chain_id","params":[]}');
  await settle();
  t.is(tasks.length, 1);
  t.deepEqual(replies, [null, '{"id":8,"result":"from the pool"}']);
});

test('authorize: an API ID this connection was not handed is refused before anything runs', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":1,"method":"call","params":[2,"get_account_history",["1.2.0","1.11.0",1,"1.11.0"]]}');
  await settle();
  t.is(tasks.length, 0);
  t.regex(replies[0]!, /^\{"id":1,"error":\{"code":10,"message":"Execution error: Assert Exception: _local_apis\.size\(\) > api_id: "/);
});

test('authorize: a named API in the call form asks its login getter for the ID, which the session keeps', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":1,"method":"call","params":["history","get_account_history",["1.2.0","1.11.0",1,"1.11.0"]]}');
  conn.receive('{"id":2,"method":"call","params":[1,"history",[]]}');
  await settle();
  t.is(tasks.at(0)?.set, 'history');
  t.deepEqual(replies, ['{"id":1,"result":"from the pool"}', '{"id":2,"result":2}']);
});

test('authorize: inherited object properties are not methods ("constructor" is not found)', async (t) => {
  const { conn, replies } = node();
  conn.receive('{"id":1,"method":"constructor","params":[]}');
  conn.receive('{"id":2,"method":"call","params":[1,"__proto__",[]]}');
  await settle();
  t.regex(replies[0]!, /^\{"id":1,"error":\{"code":-32601,"message":"Method not found".*"data":\{"name":"constructor"/);
  t.regex(replies[1]!, /^\{"id":2,"error":\{"code":-32601,"message":"Method not found".*"data":\{"name":"__proto__"/);
});

test('authorize: too few arguments are refused with Core\'s assertion', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":1,"method":"get_accounts","params":[]}');
  await settle();
  t.is(tasks.length, 0);
  t.regex(replies[0]!, /^\{"id":1,"error":\{"code":10,"message":"Execution error: Assert Exception: a0 != e \|\| optional_args: too few arguments/);
});

test('run: a pool call carries its reply head, and the worker\'s bytes are sent as they are', async (t) => {
  const bytes = new TextEncoder().encode('{"id":"x","result":[1,2,3]}');
  const { conn, replies, tasks } = node({ answer: () => bytes });
  conn.receive('{"id":"x","method":"get_objects","params":[["1.2.0"]]}');
  await settle();
  t.is(tasks.at(0)!.head, resultPrefix({ id: 'x', jsonrpc: false }));
  t.deepEqual(tasks.at(0)!.params, [['1.2.0']]);
  t.is(replies[0], '{"id":"x","result":[1,2,3]}');
});

test('run: front-end methods never reach the pool', async (t) => {
  const { conn, replies, tasks } = node();
  conn.receive('{"id":1,"method":"call","params":[1,"get_available_api_sets",[]]}');
  await settle();
  t.is(tasks.length, 0);
  t.is(replies[0], '{"id":1,"result":["custom_operations_api","database_api","history_api","network_broadcast_api","orders_api"]}');
});

test('run: a handler\'s RpcError is the call\'s error, with the request id, and is not logged as a fault', async (t) => {
  const front = { login: { ...FRONT_HANDLERS.login, get_info: () => { throw new RpcError(assertError('false: refused on purpose')); } } };
  const { conn, replies, lines } = node({ front });
  conn.receive('{"id":1,"method":"call","params":[1,"get_info",[]]}');
  await settle();
  t.regex(replies[0]!, /^\{"id":1,"error":\{"code":10,"message":"Execution error: Assert Exception: false: refused on purpose"/);
  t.false(lines.some((l) => l.msg === 'call failed'));
});

test('run: an unexpected exception in a handler answers -32603 without details and logs the cause with the call', async (t) => {
  const front = { login: { ...FRONT_HANDLERS.login, get_info: () => { throw new TypeError('boom: a bug'); } } };
  const { conn, replies, lines } = node({ front });
  conn.receive('{"id":5,"method":"call","params":[1,"get_info",[]]}');
  await settle();
  t.is(replies[0], '{"id":5,"error":{"code":-32603,"message":"Internal error"}}');
  const fault = lines.find((l) => l.msg === 'call failed');
  t.truthy(fault, 'the fault is logged');
  t.is(fault!.api, 'login');
  t.is(fault!.method, 'get_info');
  t.regex(JSON.stringify(fault!.err), /boom: a bug/);
});

test('run: an async handler that rejects is answered too, in its place', async (t) => {
  const front = { login: { ...FRONT_HANDLERS.login, get_info: async () => { throw new RpcError(assertError('false: later')); } } };
  const { conn, replies } = node({ front });
  conn.receive('{"id":1,"method":"call","params":[1,"get_info",[]]}');
  conn.receive('{"id":2,"method":"call","params":[1,"logout",[]]}');
  await settle();
  t.regex(replies[0]!, /^\{"id":1,"error":\{"code":10,"message":"Execution error: Assert Exception: false: later"/);
  t.is(replies[1], '{"id":2,"result":false}');
});

test('encode: notifications get no reply, except internal errors, which fc always returns', async (t) => {
  const front = { login: { ...FRONT_HANDLERS.login, get_info: () => { throw new Error('bug'); } } };
  const { conn, replies } = node({ front });
  conn.receive('{"method":"get_chain_id","params":[]}');
  conn.receive('{"method":"call","params":[1,"get_info",[]]}');
  conn.receive('{"method":"no_such_method","params":[]}');
  await settle();
  // null: nothing to send (the WebSocket transport sends nothing; over HTTP it is an empty 204).
  t.deepEqual(replies, [null, '{"error":{"code":-32603,"message":"Internal error"}}', null]);
});

test('encode: replies keep arrival order whatever finishes first', async (t) => {
  const { conn, replies, held } = fakeNode();
  conn.receive('{"id":1,"method":"get_chain_id","params":[]}');
  conn.receive('{"id":2,"method":"get_account_count","params":[]}');
  conn.receive('{"id":3,"method":"call","params":[1,"logout",[]]}');
  await settle();
  held[1]!.answer(new TextEncoder().encode('{"id":2,"result":0}'));
  await settle();
  t.deepEqual(replies, []);
  held[0]!.answer(new TextEncoder().encode('{"id":1,"result":"c"}'));
  await settle();
  t.deepEqual(replies, ['{"id":1,"result":"c"}', '{"id":2,"result":0}', '{"id":3,"result":false}']);
});

test('record: at debug level every answered call has a served line with its target and outcome, never its parameters', async (t) => {
  const { conn, lines } = node({ level: 'debug' });
  conn.receive('{"id":1,"method":"call","params":[1,"login",["alice","secret-password"]]}');
  conn.receive('{"id":2,"method":"get_chain_id","params":[]}');
  await settle();
  const served = lines.filter((l) => l.msg === 'served');
  t.is(served.length, 2);
  t.like(served[0], { api: 'login', method: 'login', reqId: 1, outcome: 'result' });
  t.like(served[1], { api: 'database', method: 'get_chain_id', reqId: 2, outcome: 'reply' });
  t.is(typeof served[1]!.ms, 'number');
  t.false(JSON.stringify(lines).includes('secret-password'));
});

test('record: at info level no line is written for a served call', async (t) => {
  const { conn, lines } = node({ level: 'info' });
  conn.receive('{"id":2,"method":"get_chain_id","params":[]}');
  await settle();
  t.deepEqual(lines, []);
});

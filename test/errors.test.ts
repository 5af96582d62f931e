// errors.ts: pins the error table to reference §3.5 and the wire shape of fc exceptions.
import test from 'ava';
import {
  ASSERT,
  FC,
  RPC,
  RpcError,
  assertError,
  fcError,
  formatFc,
  httpStatusFor,
  methodNotFound,
  protocolError,
  toWireError,
  type WireError,
} from '../src/errors.js';
import { fcTime, parseFcTime } from '../src/protocol/fc-time.js';

test('protocol error codes and messages are fc websocket_api wording (reference §3.5 table)', (t) => {
  const table: [keyof typeof RPC, number, string][] = [
    ['PARSE_ERROR', -32700, 'Invalid JSON message'],
    ['BATCH_NOT_SUPPORTED', -32600, 'Batch requests not supported'],
    ['INVALID_REQUEST', -32600, 'Invalid JSON request'],
    ['INVALID_ID', -32600, 'Invalid id'],
    ['INVALID_METHOD', -32600, 'Missing or invalid method'],
    ['UNSUPPORTED_VERSION', -32600, 'Unsupported JSON-RPC version'],
    ['NAMED_PARAMS', -32602, 'Named parameters not supported'],
    ['INVALID_PARAMS', -32600, 'Invalid parameters'],
    ['MISSING_ID', -32600, 'Missing or invalid id'],
    ['MISSING_METHOD', -32600, 'Missing method or result or error'],
    ['METHOD_NOT_FOUND', -32601, 'Method not found'],
    ['INTERNAL', -32603, 'Internal error'],
  ];
  for (const [key, code, message] of table) t.deepEqual({ ...RPC[key] }, { code, message }, key);
});

test('our own limit errors have their own codes, one per thing that happened', (t) => {
  t.is(RPC.REQUEST_TOO_BIG.code, -32007);
  t.is(RPC.REPLY_TOO_BIG.code, -32008);
  t.is(RPC.SERVER_BUSY.code, -32009);
  t.is(RPC.NODE_BUSY.code, -32010);
  t.is(RPC.CALL_CANCELLED.code, -32011);
  t.is(RPC.BUDGET_EXCEEDED.code, -32012);
  t.is(RPC.BLOCKS_NOT_WRITABLE.code, -32015);
  t.is(RPC.SHUTTING_DOWN.code, -32016);
  t.is(RPC.UPSTREAM_UNAVAILABLE.code, -32017);
  t.is(RPC.TOO_DEEP.code, -32700);
  t.regex(RPC.SERVER_BUSY.message, /on this connection/);
  t.regex(RPC.NODE_BUSY.message, /on this node/);
});

test('fc exception kinds carry fc codes, reflected names and what() texts', (t) => {
  t.deepEqual({ ...FC.assert }, { code: 10, name: 'assert_exception', what: 'Assert Exception' });
  t.deepEqual({ ...FC.methodNotFound }, { code: 22, name: 'method_not_found_exception', what: 'Method Not Found' });
  t.deepEqual({ ...FC.parse }, { code: 4, name: 'parse_error_exception', what: 'Parse Error' });
  t.deepEqual({ ...FC.badCast }, { code: 7, name: 'bad_cast_exception', what: 'Bad Cast' });
  t.is(FC.invalidArg.code, 5);
  t.is(FC.outOfRange.code, 8);
  t.is(FC.unspecified.code, 0);
});

test('protocolError has no data key', (t) => {
  const e = protocolError(RPC.BATCH_NOT_SUPPORTED);
  t.deepEqual(e, { code: -32600, message: 'Batch requests not supported' });
  t.false('data' in e);
  t.is(JSON.stringify(e), '{"code":-32600,"message":"Batch requests not supported"}');
});

test('formatFc fills ${key} placeholders: strings bare, other values as JSON, unknown keys left alone', (t) => {
  t.is(formatFc('limit can not be greater than ${configured_limit}', { configured_limit: 100 }), 'limit can not be greater than 100');
  t.is(formatFc("No method with name '${name}'", { name: 'foo' }), "No method with name 'foo'");
  t.is(formatFc('${a}-${b}-${a}', { a: 'x', b: true }), 'x-true-x');
  t.is(formatFc('list ${l}', { l: [1, 'a'] }), 'list [1,"a"]');
  t.is(formatFc('missing ${nope} stays', {}), 'missing ${nope} stays');
  t.is(formatFc('no placeholders', { a: 1 }), 'no placeholders');
});

test('fcError message is "Execution error: <what>: <format filled>"', (t) => {
  const e = assertError(ASSERT.LIMIT, { configured_limit: 100 });
  t.is(e.code, 10);
  t.is(e.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');
  t.is(fcError(FC.parse, "Couldn't parse ${what}", { what: 'uint64_t' }).message, "Execution error: Parse Error: Couldn't parse uint64_t");
});

test('reference wording: unknown API id, access denied, too few arguments, no such account', (t) => {
  t.is(assertError(ASSERT.UNKNOWN_API_ID).message, 'Execution error: Assert Exception: _local_apis.size() > api_id: ');
  t.is(assertError(ASSERT.ACCESS_DENIED).message, 'Execution error: Assert Exception: is_allowed: Access denied');
  t.true(assertError(ASSERT.CONFIG_DENIED).message.endsWith('Access denied, please login'));
  t.true(assertError(ASSERT.TOO_FEW_ARGS).message.endsWith(': too few arguments passed to method'));
  t.is(assertError(ASSERT.NO_SUCH_ACCOUNT).message, 'Execution error: Assert Exception: account_ptr: no such account');
});

test('fcError data has fc exception shape in fc key order, with the unfilled format and its data', (t) => {
  const e = fcError(FC.assert, ASSERT.LIMIT, { configured_limit: 100 }, { file: 'api.cpp', method: 'get_account_history' });
  const d = e.data!;
  t.deepEqual(Object.keys(e), ['code', 'message', 'data']);
  t.deepEqual(Object.keys(d), ['code', 'name', 'message', 'stack']);
  t.is(d.code, 10);
  t.is(d.name, 'assert_exception');
  t.is(d.message, 'Assert Exception');
  t.is(d.stack.length, 1);
  const m = d.stack[0]!;
  t.deepEqual(Object.keys(m), ['context', 'format', 'data']);
  t.deepEqual(Object.keys(m.context), ['level', 'file', 'line', 'method', 'hostname', 'thread_name', 'timestamp']);
  t.is(m.context.level, 'error');
  t.is(m.context.file, 'api.cpp');
  t.is(typeof m.context.line, 'number');
  t.is(m.context.method, 'get_account_history');
  t.is(m.context.hostname, '');
  t.is(m.context.thread_name, 'th_a');
  t.regex(m.context.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  t.is(m.format, 'limit <= configured_limit: limit can not be greater than ${configured_limit}');
  t.deepEqual(m.data, { configured_limit: 100 });
});

test('fcError data carries no server file path, source line or stack trace', (t) => {
  const e = fcError(FC.assert, 'x: y');
  const text = JSON.stringify(e);
  t.false(text.includes(process.cwd()));
  t.false(/\.(ts|js):\d/.test(text));
  t.false(text.includes('/src/'));
  t.false(text.includes('node:'));
  t.is(e.data!.stack[0]!.context.file, '');
  t.is(e.data!.stack[0]!.context.line, 0);
});

test('fcError data survives structured clone (errors cross worker threads as plain data)', (t) => {
  const e = assertError(ASSERT.LIMIT, { configured_limit: 7 });
  t.deepEqual(structuredClone(e), e);
});

test('an fc exception\'s log context carries the time it was raised in fc time: seconds, no zone, no fraction', (t) => {
  const before = Math.floor(Date.now() / 1000);
  const stamp = assertError(ASSERT.LIMIT, { configured_limit: 7 }).data!.stack[0]!.context.timestamp;
  const after = Math.floor(Date.now() / 1000);
  t.regex(stamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  const seconds = parseFcTime(stamp);
  t.true(seconds >= before && seconds <= after, `${stamp} is not between ${fcTime(before)} and ${fcTime(after)}`);
});

test('methodNotFound is -32601 with method_not_found_exception data listing the API as [name, index] pairs sorted by name, as fc\'s std::map', (t) => {
  const e = methodNotFound('foo', ['get_objects', 'get_chain_id']);
  t.is(e.code, -32601);
  t.is(e.message, 'Method not found');
  const d = e.data!;
  t.is(d.code, 22);
  t.is(d.name, 'method_not_found_exception');
  t.is(d.message, 'Method Not Found');
  t.is(d.stack[0]!.format, "No method with name '${name}'");
  t.deepEqual(d.stack[0]!.data, { name: 'foo', api: [['get_chain_id', 1], ['get_objects', 0]] });
});

test('toWireError keeps wire errors and turns anything else into -32603 without details', (t) => {
  const wire = assertError('a: b');
  t.is(toWireError(new RpcError(wire)), wire);
  t.deepEqual(toWireError({ code: 5, message: 'm' }), { code: 5, message: 'm' });
  const internal = toWireError(new Error('secret /home/x/src/file.ts:12'));
  t.deepEqual(internal, { code: -32603, message: 'Internal error' });
  t.deepEqual(toWireError('thrown string'), { code: -32603, message: 'Internal error' });
  t.deepEqual(toWireError(undefined), { code: -32603, message: 'Internal error' });
});

test('RpcError carries its wire form and message', (t) => {
  const wire = assertError('a: b');
  const err = new RpcError(wire);
  t.true(err instanceof Error);
  t.is(err.message, wire.message);
  t.is(err.wire, wire);
});

test('httpStatusFor: -32603 and -32008 → 500, ≤ -32600 → 400, -32007 → 413, busy and over budget → 503, others and success → 200', (t) => {
  const s = (code: number): number => httpStatusFor({ code, message: '' } as WireError);
  t.is(httpStatusFor(undefined), 200);
  t.is(s(-32603), 500);
  t.is(s(-32600), 400);
  t.is(s(-32601), 400);
  t.is(s(-32602), 400);
  t.is(s(-32700), 400);
  t.is(s(-32007), 413);
  t.is(s(-32009), 503);
  t.is(s(-32010), 503);
  t.is(s(-32012), 503);
  t.is(s(-32015), 503);
  t.is(s(-32016), 503);
  t.is(s(-32017), 503);
  t.is(s(-32008), 500);
  t.is(s(10), 200);
  t.is(s(0), 200);
  t.is(s(22), 200);
  t.is(s(4), 200);
  t.is(s(-1), 200);
  t.is(s(-32000), 200);
});

/** The rows of a Markdown table in docs/reference/errors.md whose first cell is a `name`, as cells. */
function docRows(doc: string, header: string): Map<string, string[]> {
  const start = doc.indexOf(header);
  if (start < 0) throw new Error(`docs/reference/errors.md has no table ${header}`);
  const rows = new Map<string, string[]>();
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
    const name = /^`([A-Za-z_]+)`$/.exec(cells[0]!)?.[1];
    if (name === undefined) throw new Error(`a row without a name: ${line}`);
    if (rows.has(name)) throw new Error(`${name} is listed twice`);
    rows.set(name, cells);
  }
  return rows;
}

test('docs/reference/errors.md lists every protocol error of the table, by name, with its code, message and HTTP status, and no other', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { fixture } = await import('./helpers/fixtures.js');
  const doc = readFileSync(fixture('../../docs/reference/errors.md'), 'utf8');
  const rows = docRows(doc, '| name | code | message | HTTP | when |');
  // Statuses set by the transport rather than by httpStatusFor: a non-POST is 405; a cancelled call is never answered.
  const status: Partial<Record<keyof typeof RPC, string>> = { HTTP_METHOD: '405', CALL_CANCELLED: '—' };
  for (const [name, { code, message }] of Object.entries(RPC) as [keyof typeof RPC, { code: number; message: string }][]) {
    const row = rows.get(name);
    if (!row) {
      t.fail(`${name} (${code}) is missing from docs/reference/errors.md`);
      continue;
    }
    const [, codeCell, messageCell, httpCell] = row;
    t.is(codeCell, String(code), name);
    t.true(messageCell!.startsWith(message), `${name}: "${messageCell}" does not start with "${message}"`);
    t.is(httpCell, status[name] ?? String(httpStatusFor({ code, message })), name);
  }
  t.deepEqual([...rows.keys()].filter((n) => !(n in RPC)), [], 'rows naming no entry of the table');
  t.true(rows.has('RATE_LIMITED') && rows.has('TOO_MANY_CONNECTIONS') && rows.has('HTTP_METHOD') && rows.has('HTTP_FRAMING'));

  const kinds = docRows(doc, '| name | code | fc name | what |');
  for (const [name, kind] of Object.entries(FC)) t.deepEqual(kinds.get(name)?.slice(1), [String(kind.code), `\`${kind.name}\``, kind.what], name);
  t.is(kinds.size, Object.keys(FC).length);
});

// protocol/jsonrpc.ts: request validation as fc's websocket_api::on_message does it (reference §3.5),
// the notification rule, nesting depth, and reply envelopes (key order and id formatting, §3.1, §5.4).
import test, { type ExecutionContext } from 'ava';
import { errorReply, invalidReply, nestingDepth, parseInbound, replyHead, resultReply, type Inbound, type RpcRequest } from '../src/protocol/jsonrpc.js';
import { assertError } from '../src/errors.js';

const DEPTH = 250;

const invalid = (t: ExecutionContext, text: string, code: number, message: string): void => {
  const r = parseInbound(text, DEPTH);
  t.is(r.kind, 'invalid', text);
  if (r.kind !== 'invalid') return;
  t.is(r.error.code, code, text);
  t.is(r.error.message, message, text);
  if (code !== -32700) t.false('data' in r.error, `${text}: errors from the table carry no data`);
};

const request = (t: ExecutionContext, text: string): RpcRequest => {
  const r: Inbound = parseInbound(text, DEPTH);
  if (r.kind !== 'request') t.fail(`${text}: expected a request, got ${JSON.stringify(r)}`);
  return (r as { request: RpcRequest }).request;
};

test('a JSON parse failure is -32700 "Invalid JSON message" with an fc exception as data', (t) => {
  for (const text of ['{', '', 'nul', '{"id":1,}', "{'id':1}"]) {
    const r = parseInbound(text, DEPTH);
    t.is(r.kind, 'invalid', JSON.stringify(text));
    if (r.kind !== 'invalid') continue;
    t.is(r.error.code, -32700);
    t.is(r.error.message, 'Invalid JSON message');
    t.truthy(r.error.data);
    t.is(typeof r.error.data!.code, 'number');
    t.is(typeof r.error.data!.name, 'string');
    t.true(Array.isArray(r.error.data!.stack));
  }
});

test('a JSON parse failure carries the text it could not parse, as fc\'s json::from_string rethrows it, so that a client can read the id back', (t) => {
  const text = '{"jsonrpc":"2.0","method":"call","params":[0,"get_chain_id",[99999999999999999999999]],"id":7}';
  const r = parseInbound(text, DEPTH);
  if (r.kind !== 'invalid') return t.fail(JSON.stringify(r));
  t.is(r.error.code, -32700);
  const stack = r.error.data!.stack as { context: { level: string; file: string; method: string }; format: string; data: { str?: string } }[];
  const last = stack[stack.length - 1]!;
  t.deepEqual([last.context.level, last.context.file, last.context.method, last.format], ['warn', 'json.cpp', 'from_string', '']);
  t.is(last.data.str, text);
  t.is(JSON.parse(last.data.str!.replace(/\d{20,}/, '0')).id, 7);
});

test('a top-level array is "Batch requests not supported"', (t) => {
  invalid(t, '[]', -32600, 'Batch requests not supported');
  invalid(t, '[{"id":1,"method":"get_chain_id","params":[]}]', -32600, 'Batch requests not supported');
});

test('a top level that is not an object is "Invalid JSON request"', (t) => {
  for (const text of ['1', '"call"', 'null', 'true']) invalid(t, text, -32600, 'Invalid JSON request');
});

test('an id that is not a string, number or null is "Invalid id"', (t) => {
  for (const id of ['{}', '[]', 'true', '[1]']) invalid(t, `{"id":${id},"method":"call","params":[]}`, -32600, 'Invalid id');
});

test('a method that is not a string, or is empty, is "Missing or invalid method"', (t) => {
  for (const m of ['1', '""', 'null', '[]', '{}']) invalid(t, `{"id":1,"method":${m},"params":[]}`, -32600, 'Missing or invalid method');
});

test('jsonrpc other than exactly "2.0" is "Unsupported JSON-RPC version"', (t) => {
  for (const v of ['"1.0"', '2', '2.0', 'null', '"2.0 "']) invalid(t, `{"jsonrpc":${v},"id":1,"method":"x"}`, -32600, 'Unsupported JSON-RPC version');
});

test('params as an object is -32602 "Named parameters not supported"', (t) => {
  invalid(t, '{"id":1,"method":"get_accounts","params":{"names":["1.2.0"]}}', -32602, 'Named parameters not supported');
});

test('params present but not an array is "Invalid parameters"', (t) => {
  for (const p of ['"x"', '1', 'true', 'null']) invalid(t, `{"id":1,"method":"x","params":${p}}`, -32600, 'Invalid parameters');
});

test('a reply without id (or id null without jsonrpc) is "Missing or invalid id"; otherwise it is ignored', (t) => {
  invalid(t, '{"result":1}', -32600, 'Missing or invalid id');
  invalid(t, '{"error":{"code":1,"message":"x"}}', -32600, 'Missing or invalid id');
  invalid(t, '{"id":null,"result":1}', -32600, 'Missing or invalid id');
  t.deepEqual(parseInbound('{"id":null,"jsonrpc":"2.0","result":1}', DEPTH), { kind: 'ignore' });
  t.deepEqual(parseInbound('{"id":3,"result":1}', DEPTH), { kind: 'ignore' });
  t.deepEqual(parseInbound('{"id":"a","error":{"code":1,"message":"x"}}', DEPTH), { kind: 'ignore' });
});

test('none of method, result or error is "Missing method or result or error"', (t) => {
  invalid(t, '{}', -32600, 'Missing method or result or error');
  invalid(t, '{"id":1}', -32600, 'Missing method or result or error');
  invalid(t, '{"id":1,"jsonrpc":"2.0","params":[]}', -32600, 'Missing method or result or error');
});

test('checks run in fc order: id, then method, then jsonrpc, then params', (t) => {
  invalid(t, '{"id":{},"method":1,"jsonrpc":"1.0","params":{}}', -32600, 'Invalid id');
  invalid(t, '{"id":1,"method":1,"jsonrpc":"1.0","params":{}}', -32600, 'Missing or invalid method');
  invalid(t, '{"id":1,"method":"x","jsonrpc":"1.0","params":{}}', -32600, 'Unsupported JSON-RPC version');
  invalid(t, '{"id":1,"method":"x","jsonrpc":"2.0","params":{}}', -32602, 'Named parameters not supported');
  invalid(t, '{"jsonrpc":"1.0","result":1}', -32600, 'Unsupported JSON-RPC version');
});

test('a valid request keeps id, method and params; missing params is an empty list', (t) => {
  const r = request(t, '{"id":7,"method":"call","params":[0,"get_accounts",[["1.2.0"]]]}');
  t.is(r.id, 7);
  t.is(r.method, 'call');
  t.deepEqual(r.params, [0, 'get_accounts', [['1.2.0']]]);
  t.false(r.jsonrpc);
  const noParams = request(t, '{"jsonrpc":"2.0","id":"abc","method":"get_chain_id"}');
  t.deepEqual(noParams.params, []);
  t.is(noParams.id, 'abc');
  t.true(noParams.jsonrpc);
});

test('wantsReply: an id (not null) wants a reply; id null only with jsonrpc; no id never', (t) => {
  t.true(request(t, '{"id":1,"method":"x"}').wantsReply);
  t.true(request(t, '{"id":0,"method":"x"}').wantsReply);
  t.true(request(t, '{"id":"","method":"x"}').wantsReply);
  t.true(request(t, '{"id":null,"jsonrpc":"2.0","method":"x"}').wantsReply);
  t.false(request(t, '{"id":null,"method":"x"}').wantsReply);
  t.false(request(t, '{"method":"x"}').wantsReply);
  t.false(request(t, '{"jsonrpc":"2.0","method":"x"}').wantsReply);
});

test('the id is undefined without an id key and null for "id":null', (t) => {
  t.is(request(t, '{"method":"x"}').id, undefined);
  t.is(request(t, '{"id":null,"method":"x"}').id, null);
});

test('nestingDepth counts levels of arrays and objects', (t) => {
  t.is(nestingDepth(1), 0);
  t.is(nestingDepth('x'), 0);
  t.is(nestingDepth(null), 0);
  t.is(nestingDepth([]), 1);
  t.is(nestingDepth({}), 1);
  t.is(nestingDepth([[1]]), 2);
  t.is(nestingDepth({ a: [{}], b: 1 }), 3);
  t.is(nestingDepth([1, [2, [3, [4]]], []]), 4);
});

test('nestingDepth handles very deep input without overflowing the stack', (t) => {
  const n = 200_000;
  const v = JSON.parse('['.repeat(n) + ']'.repeat(n));
  t.is(nestingDepth(v), n);
});

test('a request nested deeper than the maximum is refused; one at the maximum is accepted', (t) => {
  const nested = (levels: number): string => `{"id":1,"method":"x","params":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
  // The object is one level, params the next: depth = levels.
  t.is(parseInbound(nested(DEPTH), DEPTH).kind, 'request');
  const r = parseInbound(nested(DEPTH + 1), DEPTH);
  t.is(r.kind, 'invalid');
  if (r.kind === 'invalid') t.is(r.error.code, -32700);
  t.is(parseInbound(nested(11), 10).kind, 'invalid');
  t.is(parseInbound(nested(10), 10).kind, 'request');
});

test('replies keep fc key order: id, jsonrpc, then result or error', (t) => {
  t.is(resultReply({ id: 1, jsonrpc: true }, '[]'), '{"id":1,"jsonrpc":"2.0","result":[]}');
  t.is(resultReply({ id: 1, jsonrpc: false }, 'null'), '{"id":1,"result":null}');
  t.is(resultReply({ id: undefined, jsonrpc: true }, '1'), '{"jsonrpc":"2.0","result":1}');
  t.is(resultReply({ id: null, jsonrpc: true }, 'true'), '{"id":null,"jsonrpc":"2.0","result":true}');
  t.is(errorReply({ id: 'a"b', jsonrpc: false }, { code: -32601, message: 'Method not found' }), '{"id":"a\\"b","error":{"code":-32601,"message":"Method not found"}}');
  t.is(replyHead(5, false), '{"id":5,');
  t.is(replyHead(undefined, false), '{');
  const e = assertError('a: b');
  const parsed = JSON.parse(errorReply({ id: 2, jsonrpc: true }, e));
  t.deepEqual(Object.keys(parsed), ['id', 'jsonrpc', 'error']);
  t.deepEqual(Object.keys(parsed.error), ['code', 'message', 'data']);
  t.deepEqual(parsed.error, JSON.parse(JSON.stringify(e)));
});

test('protocol errors are answered with id null and jsonrpc "2.0" whatever the request said', (t) => {
  t.is(invalidReply({ code: -32600, message: 'Batch requests not supported' }), '{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"Batch requests not supported"}}');
});

test('numeric ids: unsigned up to 2^32-1 are numbers, larger ones strings', (t) => {
  t.is(replyHead(0, false), '{"id":0,');
  t.is(replyHead(4294967295, false), '{"id":4294967295,');
  t.is(replyHead(4294967296, false), '{"id":"4294967296",');
  t.is(replyHead(2 ** 40, false), `{"id":"${2 ** 40}",`);
});

test('numeric ids: negatives down to -2^31 are numbers, smaller ones strings', (t) => {
  t.is(replyHead(-1, false), '{"id":-1,');
  t.is(replyHead(-2147483648, false), '{"id":-2147483648,');
  t.is(replyHead(-2147483649, false), '{"id":"-2147483649",');
});

test('numeric ids: fractions are echoed as strings', (t) => {
  for (const id of [1.5, -0.25, 1e-7]) {
    const parsed = JSON.parse(`${replyHead(id, false)}"result":null}`);
    t.is(typeof parsed.id, 'string', String(id));
    t.is(Number(parsed.id), id);
  }
});

// End to end: fc's legacy parser types a number literal by its text (reference §5.4): with "." it is a
// double (echoed as a string), a digit run followed by letters such as 1e5 is the string "1e5", and
// an unsigned literal up to 2^64-1 is exact.
const echoed = (text: string): unknown => {
  const r = parseInbound(text, DEPTH);
  if (r.kind !== 'request') throw new Error(`not a request: ${text}`);
  return JSON.parse(resultReply(r.request, 'null')).id;
};

test('an id written with a decimal point (1.0) is a double in fc and is echoed as a string', (t) => {
  const id = echoed('{"id":1.0,"method":"x"}');
  t.is(typeof id, 'string');
  t.is(Number(id), 1);
});

test('an id written as 1e5 is echoed as the string "1e5", as fc legacy parser reads it', (t) => {
  t.is(echoed('{"id":1e5,"method":"x"}'), '1e5');
});

test('a large unsigned id is echoed exactly, not rounded to a double', (t) => {
  t.is(echoed('{"id":9007199254740993,"method":"x"}'), '9007199254740993');
  t.is(echoed('{"id":18446744073709551615,"method":"x"}'), '18446744073709551615');
  t.is(echoed('{"id":4294967296,"method":"x"}'), '4294967296');
  t.is(echoed('{"id":12,"method":"x"}'), 12);
});

test('integer literals beyond 2^53 keep every digit, as decimal strings', (t) => {
  const r = request(t, '{"id":1,"method":"call","params":[8394872615091287364,-9223372036854775808,9007199254740991,9007199254740993,1.5,"12345678901234567890123"]}');
  t.deepEqual(r.params, ['8394872615091287364', '-9223372036854775808', 9007199254740991, '9007199254740993', 1.5, '12345678901234567890123']);
});

test('digits inside strings, fractions and exponents are left as JSON.parse reads them', (t) => {
  const r = request(t, '{"id":1,"method":"call","params":["a\\"12345678901234567890",12345678901234567890.5,1234567890123456789e2,{"k12345678901234567890":0}]}');
  t.deepEqual(r.params, ['a"12345678901234567890', 12345678901234567890.5, 1234567890123456789e2, { k12345678901234567890: 0 }]);
  const exponents = request(t, '{"id":1,"method":"call","params":[1e12345678901234567890,1.5e-12345678901234567890,1.12345678901234567890]}');
  t.deepEqual(exponents.params, [Infinity, 0, 1.1234567890123457], 'digits after a dot or an exponent are not integers of their own');
});

test('an integer literal beyond the 64-bit ranges is a parse error, as in fc\'s parser', (t) => {
  for (const n of ['18446744073709551616', '-9223372036854775809', '123456789012345678901234567890']) {
    const r = parseInbound(`{"id":1,"method":"call","params":[${n}]}`, DEPTH);
    t.is(r.kind, 'invalid', n);
    if (r.kind === 'invalid') t.is(r.error.code, -32700, n);
  }
  t.is(request(t, '{"id":1,"method":"call","params":[18446744073709551615]}').params[0], '18446744073709551615');
});

test('a literal beyond 64 bits carries fc\'s own exception: "Couldn\'t parse uint64_t" (with to_uint64\'s captured text) or "Couldn\'t parse int64_t"', (t) => {
  const stackOf = (text: string) => {
    const r = parseInbound(text, DEPTH);
    if (r.kind !== 'invalid') return t.fail('not refused');
    t.is(r.error.message, 'Invalid JSON message');
    t.like(r.error.data, { code: 4, name: 'parse_error_exception', message: 'Parse Error' });
    return r.error.data!.stack.map((m) => [m.context.level, m.format, m.data]);
  };
  const big = '{"id":1,"method":"call","params":[18446744073709551616]}';
  t.deepEqual(stackOf(big), [
    ['error', "Couldn't parse uint64_t", {}],
    ['warn', '', { i: '18446744073709551616' }],
    ['warn', '', { str: big }],
  ]);
  const low = '{"id":-9223372036854775809,"method":"get_chain_id","params":[]}';
  t.deepEqual(stackOf(low), [
    ['error', "Couldn't parse int64_t", {}],
    ['warn', '', { str: low }],
  ]);
});

test('invalid JSON holding a long integer is still refused, with the error at the client\'s own position', (t) => {
  for (const text of ['{"id":1,"params":[12345678901234567890,]}', '{"id":1,"params":[012345678901234567890]}']) {
    const r = parseInbound(text, DEPTH);
    t.is(r.kind, 'invalid', text);
    if (r.kind !== 'invalid') continue;
    t.is(r.error.code, -32700);
    let expected = '';
    try {
      JSON.parse(text);
    } catch (err) {
      expected = (err as Error).message.replace(/ \(line \d+ column \d+\)$/, '');
    }
    t.deepEqual(r.error.data!.stack[0]!.data, { detail: expected });
  }
});

test('a numeric id beyond 2^53 is echoed with every digit, as fc prints a uint64/int64 id', (t) => {
  const r = request(t, '{"id":12345678901234567891,"method":"call","params":[]}');
  t.is(replyHead(r.id, r.jsonrpc, r.idText), '{"id":"12345678901234567891",');
  const n = request(t, '{"id":-9007199254740993,"method":"call","params":[]}');
  t.is(replyHead(n.id, n.jsonrpc, n.idText), '{"id":"-9007199254740993",');
});

test('an envelope error names the request by its id once the id could be read, and by null before', (t) => {
  const to = (text: string) => {
    const r = parseInbound(text, DEPTH);
    return r.kind === 'invalid' ? r.to : 'not invalid';
  };
  t.deepEqual(to('{"id":1,"method":5}'), { id: 1, idText: '1' });
  t.deepEqual(to('{"id":"a","jsonrpc":"1.0","method":"x"}'), { id: 'a', idText: undefined });
  t.deepEqual(to('{"id":9,"method":"x","params":{}}'), { id: 9, idText: '9' });
  t.deepEqual(to('{"id":5000000000,"jsonrpc":"2.0"}'), { id: 5000000000, idText: '"5000000000"' });
  // no id, a null id, or an id that is not readable: null
  t.is(to('{"method":"x","params":5}'), undefined);
  t.is(to('{"id":null,"method":"x","params":5}'), undefined);
  t.is(to('{"id":[1],"method":"x"}'), undefined);
  t.is(to('[1]'), undefined);
  t.is(invalidReply({ code: -32600, message: 'Invalid parameters' }, { id: 4, idText: '4' }), '{"id":4,"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid parameters"}}');
  t.is(invalidReply({ code: -32600, message: 'Invalid parameters' }), '{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid parameters"}}');
});

test('with "id" given twice the last one is the id, and the echo is that same literal', (t) => {
  const r = request(t, '{"id":1,"method":"x","id":2}');
  t.is(r.id, 2);
  t.is(resultReply(r, 'true'), '{"id":2,"result":true}');
  const big = request(t, '{"id":1,"id":5000000000,"method":"x"}');
  t.is(resultReply(big, 'true'), '{"id":"5000000000","result":true}');
  const nested = request(t, '{"params":[{"id":3}],"id":4,"method":"x"}');
  t.is(resultReply(nested, 'true'), '{"id":4,"result":true}');
  const str = request(t, '{"id":1,"id":"s","method":"x"}');
  t.is(resultReply(str, 'true'), '{"id":"s","result":true}');
});

test('a key "id" spelt with escapes ("\\u0069d") is the id JSON.parse reads, and the echo is its literal', (t) => {
  // Found by test/envelope-properties.test.ts: the literal scan compared the raw key text, so the
  // escaped key (the one parsed) was passed over and an earlier "id" echoed instead.
  const r = request(t, String.raw`{"id":1,"method":"x","\u0069d":2.50}`);
  t.is(r.id, 2.5);
  t.is(resultReply(r, 'true'), '{"id":"2.50","result":true}');
  t.is(resultReply(request(t, String.raw`{"i\u0064":1e5,"method":"x"}`), 'true'), '{"id":"1e5","result":true}');
  t.is(resultReply(request(t, String.raw`{"id":1,"\u0069d":1.0,"method":"x"}`), 'true'), '{"id":"1.0","result":true}');
});

test('a parse error reads the same on every supported Node line (no "(line N column M)", which V8 12 adds)', (t) => {
  const r = parseInbound('{,}', DEPTH);
  t.is(r.kind, 'invalid');
  if (r.kind === 'invalid') t.deepEqual(r.error.data!.stack[0]!.data, { detail: "Expected property name or '}' in JSON at position 1" });
});

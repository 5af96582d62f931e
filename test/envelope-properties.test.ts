// Properties of the envelope parser (src/protocol/jsonrpc.ts), for any input: parseInbound never
// throws and answers one of its three kinds with the right shape; every reply built for what it
// read is JSON; and a request's id comes back in the reply as fc's legacy parser types the literal
// (integers in the 32-bit ranges as numbers, wider integers as decimal strings, any other number
// literal as its own text), so a client matching replies by id finds its reply.
import test from 'ava';
import fc from 'fast-check';
import { errorReply, invalidReply, parseInbound, resultReply, type Inbound } from '../src/protocol/jsonrpc.js';
import { checkProperty } from './helpers/properties.js';

const DEPTH = 250;
const UINT32_MAX = 0xffffffffn;
const INT32_MIN = -0x80000000n;
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

function fail(message: string, value: unknown): never {
  throw new Error(`${message}: ${fc.stringify(value)}`);
}

/** Parses, and checks the shape of what came back; returns it. */
function parseChecked(text: string): Inbound {
  let r: Inbound;
  try {
    r = parseInbound(text, DEPTH);
  } catch (err) {
    throw new Error(`parseInbound threw ${(err as Error).stack} for ${JSON.stringify(text)}`);
  }
  if (r.kind === 'ignore') {
    if (Object.keys(r).length !== 1) fail('ignore carries nothing else', r);
  } else if (r.kind === 'invalid') {
    if (!Number.isInteger(r.error.code) || typeof r.error.message !== 'string' || r.error.message === '') fail('an error has a code and a message', r);
    if (r.to !== undefined) {
      if (r.to.id === null || (typeof r.to.id !== 'string' && typeof r.to.id !== 'number')) fail('a readable id is a string or a number', r);
    }
    const reply = JSON.parse(invalidReply(r.error, r.to)) as Record<string, unknown>;
    if (reply.jsonrpc !== '2.0' || !('id' in reply) || typeof reply.error !== 'object') fail('an envelope error reply has id, jsonrpc and error', reply);
    if (r.to === undefined && reply.id !== null) fail('no readable id: "id":null', reply);
    if (r.to !== undefined && reply.id === null) fail('a readable id is echoed', reply);
  } else if (r.kind === 'request') {
    const q = r.request;
    if (q.id !== undefined && q.id !== null && typeof q.id !== 'string' && typeof q.id !== 'number') fail('the id is a string, a number, null or absent', q);
    if (typeof q.id === 'number' && typeof q.idText !== 'string') fail('a numeric id carries its literal', q);
    if (typeof q.method !== 'string' || q.method === '') fail('the method is a non-empty string', q);
    if (!Array.isArray(q.params)) fail('params is an array', q);
    if (typeof q.wantsReply !== 'boolean' || typeof q.jsonrpc !== 'boolean') fail('flags are booleans', q);
    if (q.wantsReply && q.id === undefined) fail('a request without id wants no reply', q);
    for (const reply of [resultReply(q, 'null'), errorReply(q, { code: -32601, message: 'Method not found' })]) {
      const v = JSON.parse(reply) as Record<string, unknown>;
      if (('id' in v) !== (q.id !== undefined)) fail('a reply carries an id exactly when the request did', { q, reply });
      if (('jsonrpc' in v) !== q.jsonrpc) fail('a reply carries jsonrpc exactly when the request did', { q, reply });
    }
  } else {
    fail('an unknown kind', r);
  }
  return r;
}

// ---- arbitraries ----

const ws = fc.constantFrom('', '', '', ' ', '\n', '\t', '  \r\n ');

/** A JSON number literal: integers of every width (past 64 bits too), fractions, exponents. */
const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: INT64_MIN, max: UINT64_MAX }).map(String),
  fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }).map(String),
  fc.constantFrom('0', '-0', '4294967295', '4294967296', '-2147483648', '-2147483649', '9007199254740993', '18446744073709551615', '18446744073709551616', '-9223372036854775808', '-9223372036854775809'),
  fc
    .tuple(fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }), fc.option(fc.stringMatching(/^\d{1,20}$/)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 400 }))))
    .filter(([, frac, exp]) => frac !== null || exp !== null)
    .map(([int, frac, exp]) => `${int}${frac !== null ? `.${frac}` : ''}${exp !== null ? `${exp[0]}${exp[1]}${exp[2]}` : ''}`),
);

/** What a reply's id must be for an id literal, or 'parse error' when fc's parser refuses it. */
function expectedEcho(literal: string): number | string | 'parse error' {
  if (/^-?\d+$/.test(literal)) {
    const v = BigInt(literal);
    if (v > UINT64_MAX || v < INT64_MIN) return 'parse error';
    if (v >= 0n) return v > UINT32_MAX ? v.toString() : Number(v);
    return v < INT32_MIN ? v.toString() : Number(v);
  }
  return literal;
}

/** Whether the text holds an integer literal outside both 64-bit ranges (strings may give false alarms: harmless here). */
const hasWideInteger = (text: string): boolean =>
  [...text.matchAll(/(?<![\d.eE+-])-?\d{19,}(?![\d.eE])/g)].some((m) => {
    const v = BigInt(m[0]);
    return v > UINT64_MAX || v < INT64_MIN;
  });

const stringId = fc.string({ unit: 'binary', maxLength: 30 }).map((s) => JSON.stringify(s));
const idLiteral = fc.oneof(numberLiteral, stringId, fc.constant('null'));
const methodName = fc.oneof(fc.constantFrom('call', 'get_chain_id', 'get_accounts', 'login', 'x'), fc.string({ minLength: 1, maxLength: 20 }));
const jsonText = (depth = 3) => fc.jsonValue({ maxDepth: depth }).map((v) => JSON.stringify(v));
/** A params array whose values may hold objects with an "id" key of their own. */
const paramsText = fc.array(fc.oneof(jsonText(), numberLiteral, idLiteral.map((id) => `{"id":${id}}`)), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`);

interface Built {
  readonly text: string;
  /** the literal JSON.parse keeps for the top-level id (the last one given), if any */
  readonly id?: string;
}

/** A request object's text: id, method, params and optional jsonrpc and extra members, in any order, with any spacing. */
const requestText: fc.Arbitrary<Built> = fc
  .record({
    ids: fc.array(idLiteral, { minLength: 0, maxLength: 3 }),
    method: methodName,
    params: fc.option(paramsText, { nil: undefined }),
    jsonrpc: fc.option(fc.constantFrom('"2.0"', '"2.0"', '"1.0"', '2'), { nil: undefined }),
    extra: fc.array(fc.tuple(fc.string({ maxLength: 6 }).filter((k) => k !== 'id' && k !== 'method' && k !== 'params' && k !== 'jsonrpc' && k !== 'result' && k !== 'error' && k !== '__proto__'), jsonText(2)), { maxLength: 2 }),
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    spaces: fc.array(ws, { minLength: 40, maxLength: 40 }),
    // JSON.parse reads "\u0069d" as the key "id"; so does fc's parser.
    idKeys: fc.array(fc.constantFrom('"id"', '"id"', '"id"', '"\\u0069d"', '"i\\u0064"'), { minLength: 3, maxLength: 3 }),
  })
  .map(({ ids, method, params, jsonrpc, extra, order, spaces, idKeys }) => {
    const members: [string, string][] = ids.map((id) => ['id', id]);
    members.push(['method', JSON.stringify(method)]);
    if (params !== undefined) members.push(['params', params]);
    if (jsonrpc !== undefined) members.push(['jsonrpc', jsonrpc]);
    for (const [k, v] of extra) members.push([k, v]);
    // A stable shuffle: ids keep their relative order, so the last "id" stays the last.
    const keyed = members.map((m, i) => ({ m, k: m[0] === 'id' ? i : (order[i % order.length] ?? 0) % (members.length + 1) }));
    keyed.sort((a, b) => a.k - b.k);
    let s = 0;
    const sp = () => spaces[s++ % spaces.length] ?? '';
    let idKey = 0;
    const keyText = (k: string) => (k === 'id' ? (idKeys[idKey++ % idKeys.length] ?? '"id"') : JSON.stringify(k));
    const text = `${sp()}{${keyed.map(({ m: [k, v] }) => `${sp()}${keyText(k)}${sp()}:${sp()}${v}${sp()}`).join(',')}}${sp()}`;
    const lastId = keyed.filter(({ m }) => m[0] === 'id').at(-1)?.m[1];
    return lastId === undefined ? { text } : { text, id: lastId };
  });

/** Byte-level damage to a text: characters dropped, inserted, replaced, a slice repeated or cut. */
const mutated = (base: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      base,
      fc.array(
        fc.tuple(fc.constantFrom('drop', 'insert', 'replace', 'repeat', 'truncate', 'swap'), fc.nat(), fc.nat(), fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '0', '-', 'e', '.', ' ', '\u0000', '\ud800', '\u00e9', 'n', 't', '1')),
        { minLength: 1, maxLength: 4 },
      ),
    )
    .map(([text, edits]) => {
      let s = text;
      for (const [kind, a, b, ch] of edits) {
        const i = s.length === 0 ? 0 : a % s.length;
        const j = s.length === 0 ? 0 : b % s.length;
        if (kind === 'drop') s = s.slice(0, i) + s.slice(i + 1);
        else if (kind === 'insert') s = s.slice(0, i) + ch + s.slice(i);
        else if (kind === 'replace') s = s.slice(0, i) + ch + s.slice(i + 1);
        else if (kind === 'repeat') s = s.slice(0, Math.max(i, j)) + s.slice(Math.min(i, j), Math.max(i, j)) + s.slice(Math.max(i, j));
        else if (kind === 'truncate') s = s.slice(0, i);
        else s = s.slice(0, Math.min(i, j)) + s.slice(Math.max(i, j)) + s.slice(Math.min(i, j), Math.max(i, j));
      }
      return s;
    });

// ---- properties ----

test('any string: parseInbound answers a request, an envelope error or "ignore", of the right shape, and never throws', (t) => {
  const n = checkProperty(t, 2000, [fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.json())], (text) => {
    parseChecked(text);
  });
  t.true(n > 1500);
});

test('any JSON value: parseInbound answers with the right shape and never throws', (t) => {
  const n = checkProperty(t, 2000, [fc.jsonValue({ maxDepth: 6 })], (v) => {
    parseChecked(JSON.stringify(v));
  });
  t.true(n > 1500);
});

test('any JSON object with the envelope keys and values of any type: the right shape, never a throw', (t) => {
  const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('2.0', 'call', ''));
  const envelope = fc.dictionary(fc.constantFrom('id', 'method', 'params', 'jsonrpc', 'result', 'error', 'x'), anyValue, { maxKeys: 6 });
  const n = checkProperty(t, 2000, [envelope], (o) => {
    parseChecked(JSON.stringify(o));
  });
  t.true(n > 1500);
});

test('mutated valid requests (dropped, inserted, repeated, cut characters): the right shape, never a throw', (t) => {
  const n = checkProperty(t, 4000, [mutated(requestText.map((b) => b.text))], (text) => {
    parseChecked(text);
  });
  t.true(n > 3000);
});

test('deep and wide nesting, long digit runs and long texts: the right shape, never a throw', (t) => {
  const deep = fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"a":'), fc.boolean()).map(([n, open, closed]) => {
    const inner = open.repeat(n) + (open === '[' ? '' : '1') + (closed ? (open === '[' ? ']' : '}').repeat(n) : '');
    return `{"id":1,"method":"call","params":${inner}}`;
  });
  const digits = fc.tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom('', '-', '0.', '1e'), fc.constantFrom('1', '9', '0')).map(([n, sign, d]) => `{"id":${sign}${'1'.padEnd(n, d)},"method":"x","params":[${sign}${'7'.padEnd(n, d)}]}`);
  const n = checkProperty(t, 800, [fc.oneof(deep, digits)], (text) => {
    parseChecked(text);
  });
  t.true(n > 400);
});

test('a request id round-trips: the reply carries it as fc types the literal, whatever the order, spacing, duplicates and nested ids', (t) => {
  const n = checkProperty(
    t,
    4000,
    [requestText],
    (b) => {
      const r = parseChecked(b.text);
      const expected = b.id === undefined ? undefined : /^-?\d|^-/.test(b.id) ? expectedEcho(b.id) : (JSON.parse(b.id) as string | null);
      if (expected === 'parse error') {
        if (r.kind !== 'invalid' || r.error.code !== -32700) fail('an integer beyond 64 bits is a parse error', { b, r });
        return;
      }
      // Any integer literal beyond 64 bits (an earlier id, a parameter) fails the whole text.
      if (r.kind === 'invalid' && r.error.code === -32700) {
        if (!hasWideInteger(b.text)) fail('a parse error without an integer literal beyond 64 bits', { b, r });
        return;
      }
      let echoed: unknown;
      if (r.kind === 'request') {
        if (r.request.id === undefined) return;
        echoed = (JSON.parse(resultReply(r.request, 'null')) as { id: unknown }).id;
        if ((JSON.parse(errorReply(r.request, { code: 1, message: 'x' })) as { id: unknown }).id !== echoed) fail('result and error replies echo the same id', b);
      } else if (r.kind === 'invalid') {
        echoed = (JSON.parse(invalidReply(r.error, r.to)) as { id: unknown }).id;
        // An id of the wrong type cannot be read; null is echoed for it (and for "id":null).
        if (r.to === undefined) {
          if (echoed !== null) fail('no readable id, yet an id was echoed', { b, echoed });
          return;
        }
      } else {
        return;
      }
      if (echoed !== expected) fail(`the id echoed is ${JSON.stringify(echoed)}, expected ${JSON.stringify(expected)}`, b);
    },
    (b) => b.text,
  );
  t.true(n > 3000);
});

// JSON-RPC envelopes exactly as bitshares-fc checks and writes them (reference §3.5). Pure functions:
// text in, a request or a finished error reply out; reply prefixes for results built elsewhere.

import { RPC, fcError, FC, protocolError, type WireError } from '../errors.js';
import { echoNumber } from './fc-numbers.js';

export type RequestId = string | number | null;

export interface RpcRequest {
  /** the id as sent; undefined when the request had no `id` key */
  readonly id: RequestId | undefined;
  /** the id's JSON text in a reply, typed as fc's legacy parser types the literal */
  readonly idText?: string;
  /** false for notifications (no id, or a null id without `jsonrpc`): no reply is sent */
  readonly wantsReply: boolean;
  readonly jsonrpc: boolean;
  readonly method: string;
  readonly params: unknown[];
}

/** The readable id of a request refused for its envelope. */
export type InvalidTo = Pick<RpcRequest, 'id' | 'idText'>;

export type Inbound =
  | { readonly kind: 'request'; readonly request: RpcRequest }
  /**
   * a protocol error. `to` is the request's id when it could be read (JSON-RPC 2.0 allows a null id
   * only when it cannot: a client matching replies by id would otherwise wait for ever); without
   * it the reply carries `"id":null`.
   */
  | { readonly kind: 'invalid'; readonly error: WireError; readonly to?: InvalidTo }
  /** a reply from the client to a server→client call: nothing to answer */
  | { readonly kind: 'ignore' };

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Deepest nesting of arrays/objects, counted iteratively so hostile input cannot overflow the stack. */
export function nestingDepth(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) max = depth;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** V8 12 (Node 22 and later) ends JSON.parse's messages with this; Node 20's V8 does not. */
const V8_LINE_COLUMN = / \(line \d+ column \d+\)$/;

const parseError = (message: string, text: string): Inbound => {
  // The same reply bytes on every supported Node line: the position is already in the message.
  const detail = message.replace(V8_LINE_COLUMN, '');
  const e = fcError(FC.parse, 'Invalid JSON: ${detail}', { detail }, { method: 'from_string' });
  const data = e.data!;
  // fc's json::from_string rethrows with the text it was given (FC_RETHROW_EXCEPTIONS( warn, "",
  // ("str",utf8_str) ), json.cpp), so Core's reply carries the request: clients that cannot match an
  // answer without an id (python-graphenelib) read the id back from there.
  data.stack.push({ context: { ...data.stack[0]!.context, level: 'warn', file: 'json.cpp', method: 'from_string' }, format: '', data: { str: text } });
  return { kind: 'invalid', error: { code: RPC.PARSE_ERROR.code, message: RPC.PARSE_ERROR.message, data } };
};

/**
 * fc's own exception for a literal beyond 64 bits (string.cpp): to_int64 throws "Couldn't parse
 * int64_t" alone (its FC_RETHROW_EXCEPTIONS is on the try whose catch threw); to_uint64 throws
 * "Couldn't parse uint64_t" and its FC_CAPTURE_AND_RETHROW adds the text. from_string then adds the
 * request, as for any parse error. (The "Error parsing object" / "Attempting to parse array" entries
 * fc's parser adds for each enclosing container are left out.)
 */
const integerLiteralError = (literal: string, text: string): Inbound => {
  const negative = literal.startsWith('-');
  const e = fcError(FC.parse, negative ? "Couldn't parse int64_t" : "Couldn't parse uint64_t", {}, { file: 'string.cpp', method: negative ? 'to_int64' : 'to_uint64' });
  const data = e.data!;
  const context = data.stack[0]!.context;
  if (!negative) data.stack.push({ context: { ...context, level: 'warn' }, format: '', data: { i: literal } });
  data.stack.push({ context: { ...context, level: 'warn', file: 'json.cpp', method: 'from_string' }, format: '', data: { str: text } });
  return { kind: 'invalid', error: { code: RPC.PARSE_ERROR.code, message: RPC.PARSE_ERROR.message, data } };
};

export function parseInbound(text: string, maxDepth: number): Inbound {
  let v: unknown;
  try {
    v = LONG_DIGIT_RUN.test(text) ? parseLossless(text) : JSON.parse(text);
  } catch (err) {
    if (err instanceof IntegerLiteralTooBig) return integerLiteralError(err.literal, text);
    return parseError((err as Error).message, text);
  }
  // A value this deep needs at least two characters per level, so short texts skip the walk.
  if (text.length > maxDepth * 2 && nestingDepth(v) > maxDepth) return { kind: 'invalid', error: protocolError(RPC.TOO_DEEP) };
  if (Array.isArray(v)) return { kind: 'invalid', error: protocolError(RPC.BATCH_NOT_SUPPORTED) };
  if (v === null || typeof v !== 'object') return { kind: 'invalid', error: protocolError(RPC.INVALID_REQUEST) };
  const o = v as Record<string, unknown>;
  const hasIdKey = has(o, 'id');
  const id = o.id;
  if (hasIdKey && id !== null && typeof id !== 'string' && typeof id !== 'number') return { kind: 'invalid', error: protocolError(RPC.INVALID_ID) };
  // From here on the id is readable: envelope errors echo it.
  const idText = typeof id === 'number' ? numericIdText(text, id) : undefined;
  const to: InvalidTo | undefined = hasIdKey && id !== null ? { id: id as RequestId, idText } : undefined;
  const refuse = (error: WireError): Inbound => (to ? { kind: 'invalid', error, to } : { kind: 'invalid', error });
  const hasMethod = has(o, 'method');
  if (hasMethod && (typeof o.method !== 'string' || o.method === '')) return refuse(protocolError(RPC.INVALID_METHOD));
  const hasJsonrpc = has(o, 'jsonrpc');
  if (hasJsonrpc && o.jsonrpc !== '2.0') return refuse(protocolError(RPC.UNSUPPORTED_VERSION));
  if (hasMethod) {
    const params = o.params;
    if (has(o, 'params') && params !== null && typeof params === 'object' && !Array.isArray(params)) return refuse(protocolError(RPC.NAMED_PARAMS));
    if (has(o, 'params') && !Array.isArray(params)) return refuse(protocolError(RPC.INVALID_PARAMS));
    return {
      kind: 'request',
      request: {
        id: hasIdKey ? (id as RequestId) : undefined,
        idText,
        wantsReply: hasIdKey && (hasJsonrpc || id !== null),
        jsonrpc: hasJsonrpc,
        method: o.method as string,
        params: (params as unknown[] | undefined) ?? [],
      },
    };
  }
  if (has(o, 'result') || has(o, 'error')) {
    if (!hasIdKey || (id === null && !hasJsonrpc)) return { kind: 'invalid', error: protocolError(RPC.MISSING_ID) };
    return { kind: 'ignore' };
  }
  return refuse(protocolError(RPC.MISSING_METHOD));
}

// Lossless integers. fc's parser keeps every integer literal exactly, as a uint64 (digits) or an
// int64 (leading '-') variant (reference §5.4); JSON.parse rounds those beyond 2^53, and python-bitshares
// sends memo nonces (random uint64s) as bare numbers. An integer that is not a safe JS number is
// therefore yielded as its decimal string: every converter already reads decimal strings exactly
// (params.ts, serializer.ts), strings cross msgpackr to the workers and JSON.stringify unchanged, and
// fc itself converts a string to an int64/uint64 argument with the same digits. Literals beyond the
// 64-bit ranges fail in fc's parser (to_uint64 / to_int64), so they fail here too, with fc's error.
//
// Only a text with a run of 16 or more digits can hold such a literal (2^53 has 16 digits), so the
// common request is one regex test away from plain JSON.parse. The rare rest goes through a pre-pass
// that quotes the unsafe literals and leaves everything else, strings included, byte for byte as it
// was, so JSON.parse still does all the validation. Hand-written rather than a library: it is a
// dozen lines on top of the native parser, keeps its speed, its error texts and its handling of
// duplicate keys and `__proto__`, and adds no dependency.

const LONG_DIGIT_RUN = /\d{16}/;

/** A literal fc's number_from_stream hands to to_uint64 / to_int64, which refuse it. */
class IntegerLiteralTooBig extends Error {
  constructor(readonly literal: string) {
    super(`${literal} does not fit in 64 bits`);
  }
}
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

function parseLossless(text: string): unknown {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
      continue;
    }
    const negative = c === 0x2d; /* - */
    if (!negative && !(c >= 0x30 && c <= 0x39)) continue;
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end++;
    const literal = text.slice(i, end);
    const next = text[end];
    const digits = negative ? literal.slice(1) : literal;
    // Fractions and exponents are doubles in fc too; a leading zero is invalid JSON and left for JSON.parse to refuse.
    const integer = digits.length > 0 && (digits.length === 1 || digits[0] !== '0') && next !== '.' && next !== 'e' && next !== 'E';
    if (!integer) {
      // Skip the rest of the number (1.5e+300), whose digits are not integer literals of their own.
      while (end < text.length && /[0-9.eE+-]/.test(text[end]!)) end++;
    } else if (digits.length >= 16 && !Number.isSafeInteger(Number(literal))) {
      const n = BigInt(literal);
      if (n > UINT64_MAX || n < INT64_MIN) throw new IntegerLiteralTooBig(literal);
      out += `${text.slice(copied, i)}"${literal}"`;
      copied = end;
    }
    i = end - 1;
  }
  if (copied === 0) return JSON.parse(text);
  try {
    return JSON.parse(out + text.slice(copied));
  } catch (err) {
    // Report the error against the client's own text, positions included. Quoting a valid number
    // cannot make valid JSON invalid, so the original text fails too.
    JSON.parse(text);
    throw err;
  }
}

// fc's legacy parser types a number by its text (reference §5.4): digits alone are a uint64, a
// leading '-' makes an int64, a '.' a double, and digits followed by letters (1e5) stay a string.
// JSON.parse has already lost that text, so numeric ids are echoed from the literal itself.

/**
 * A second `"id"` anywhere, or an escape that could spell one (`"\u0069d"` is the key "id" to
 * JSON.parse): then only the full scan can tell which literal JSON.parse kept.
 */
const secondId = (text: string, first: number) => text.indexOf('"id"', first + 4) !== -1 || text.includes('\\u00');

/** A key as JSON.parse reads it: escapes decoded (rare; most keys have none). */
const keyText = (raw: string): string | undefined => {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
};

/**
 * The literal text of the top-level `"id"` value, scanning past nested values and strings. With the
 * key given twice, the last one: JSON.parse keeps the last, and so does fc's parser (its
 * mutable_variant_object replaces a key it already has), so the id echoed is the id read.
 */
function topLevelIdLiteral(text: string): string | undefined {
  let found: string | undefined;
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const str = text.slice(i + 1, j);
      i = j;
      if (depth === 1 && expectKey && keyText(str) === 'id') {
        const m = /^\s*:\s*([^,}\s]+)/.exec(text.slice(j + 1));
        found = m?.[1];
      }
      expectKey = false;
    } else if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return found;
}

/**
 * Where the first `"id"` key followed by `:`, an integer literal and `,` or `}` is in `text` (-1 for
 * nowhere), with that literal left in `plainLiteral`. Written out by hand: the regex
 * /"id"\s*:\s*(-?\d+)\s*[,}]/ did the same at several times the cost, on every request. The text
 * is valid JSON here, so JSON's four whitespace characters are the only ones between tokens.
 */
let plainLiteral = '';
const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
function plainIdAt(text: string): number {
  for (let at = text.indexOf('"id"'); at !== -1; at = text.indexOf('"id"', at + 1)) {
    let i = at + 4;
    while (isJsonSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 0x3a /* : */) continue;
    i++;
    while (isJsonSpace(text.charCodeAt(i))) i++;
    const start = i;
    if (text.charCodeAt(i) === 0x2d /* - */) i++;
    const digits = i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === digits) continue;
    const end = i;
    while (isJsonSpace(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (c !== 0x2c /* , */ && c !== 0x7d /* } */) continue;
    plainLiteral = text.slice(start, end);
    return at;
  }
  return -1;
}
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * An integer literal of at most 9 digits without a leading zero (and not "-0"): inside both of
 * fc's ranges below, and already in the form its BigInt would print, so it is echoed as it is.
 */
function shortInteger(literal: string): boolean {
  const from = literal.charCodeAt(0) === 0x2d ? 1 : 0;
  const n = literal.length - from;
  if (n < 1 || n > 9) return false;
  if (literal.charCodeAt(from) === 0x30) return n === 1 && from === 0;
  for (let i = from; i < literal.length; i++) if (!isDigit(literal.charCodeAt(i))) return false;
  return true;
}

function numericIdText(text: string, id: number): string {
  const at = plainIdAt(text);
  const literal = at !== -1 && Number(plainLiteral) === id && !secondId(text, at) ? plainLiteral : (topLevelIdLiteral(text) ?? String(id));
  if (shortInteger(literal)) return literal;
  if (/^\d+$/.test(literal)) {
    const v = BigInt(literal);
    return v > 0xffffffffn ? `"${v}"` : v.toString();
  }
  if (/^-\d+$/.test(literal)) {
    const v = BigInt(literal);
    return v < -2147483648n ? `"${v}"` : v.toString();
  }
  return JSON.stringify(literal);
}

function idText(id: RequestId, text: string | undefined): string {
  if (text !== undefined) return text;
  if (typeof id === 'number') return JSON.stringify(echoNumber(id));
  return JSON.stringify(id);
}

/** `{"id":…,"jsonrpc":"2.0",` — the part of a reply before `"result"` or `"error"`, in fc's key order. */
export function replyHead(id: RequestId | undefined, jsonrpc: boolean, text?: string): string {
  let s = '{';
  if (id !== undefined) s += `"id":${idText(id, text)},`;
  if (jsonrpc) s += '"jsonrpc":"2.0",';
  return s;
}

/** The prefix a worker puts before the result JSON; the reply ends with `}`. */
type ReplyTo = Pick<RpcRequest, 'id' | 'jsonrpc' | 'idText'>;

export const resultPrefix = (req: ReplyTo): string => `${replyHead(req.id, req.jsonrpc, req.idText)}"result":`;

export function resultReply(req: ReplyTo, resultJson: string): string {
  return `${resultPrefix(req)}${resultJson}}`;
}

export function errorReply(req: ReplyTo, error: WireError): string {
  return `${replyHead(req.id, req.jsonrpc, req.idText)}"error":${JSON.stringify(error)}}`;
}

/**
 * Protocol errors are answered with `"jsonrpc":"2.0"` and the request's id when it could be read
 * (`to`), else `"id":null`. (Core answers null in every case; JSON-RPC 2.0 allows it only for an
 * unreadable id, and clients that match replies by id would wait for ever.)
 */
export const invalidReply = (error: WireError, to?: InvalidTo): string => errorReply({ id: to?.id ?? null, idText: to?.idText, jsonrpc: true }, error);

// JSON-RPC envelopes exactly as bitshares-fc checks and writes them (reference §3.5). Pure functions:
// text in, a request or a finished error reply out; reply prefixes for results built elsewhere.

import { RPC, fcError, FC, protocolError, type WireError } from '../errors.js';
import { echoNumber } from '../chain/fc-json.js';

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

export type Inbound =
  | { readonly kind: 'request'; readonly request: RpcRequest }
  /** a protocol error, answered with `id: null` whatever the request said */
  | { readonly kind: 'invalid'; readonly error: WireError }
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

export function parseInbound(text: string, maxDepth: number): Inbound {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    const e = fcError(FC.parse, 'Invalid JSON: ${detail}', { detail: (err as Error).message }, { method: 'from_string' });
    return { kind: 'invalid', error: { code: RPC.PARSE_ERROR.code, message: RPC.PARSE_ERROR.message, data: e.data! } };
  }
  // A value this deep needs at least two characters per level, so short texts skip the walk.
  if (text.length > maxDepth * 2 && nestingDepth(v) > maxDepth) return { kind: 'invalid', error: protocolError(RPC.TOO_DEEP) };
  if (Array.isArray(v)) return { kind: 'invalid', error: protocolError(RPC.BATCH_NOT_SUPPORTED) };
  if (v === null || typeof v !== 'object') return { kind: 'invalid', error: protocolError(RPC.INVALID_REQUEST) };
  const o = v as Record<string, unknown>;
  const hasIdKey = has(o, 'id');
  const id = o.id;
  if (hasIdKey && id !== null && typeof id !== 'string' && typeof id !== 'number') return { kind: 'invalid', error: protocolError(RPC.INVALID_ID) };
  const hasMethod = has(o, 'method');
  if (hasMethod && (typeof o.method !== 'string' || o.method === '')) return { kind: 'invalid', error: protocolError(RPC.INVALID_METHOD) };
  const hasJsonrpc = has(o, 'jsonrpc');
  if (hasJsonrpc && o.jsonrpc !== '2.0') return { kind: 'invalid', error: protocolError(RPC.UNSUPPORTED_VERSION) };
  if (hasMethod) {
    const params = o.params;
    if (has(o, 'params') && params !== null && typeof params === 'object' && !Array.isArray(params)) return { kind: 'invalid', error: protocolError(RPC.NAMED_PARAMS) };
    if (has(o, 'params') && !Array.isArray(params)) return { kind: 'invalid', error: protocolError(RPC.INVALID_PARAMS) };
    return {
      kind: 'request',
      request: {
        id: hasIdKey ? (id as RequestId) : undefined,
        idText: typeof id === 'number' ? numericIdText(text, id) : undefined,
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
  return { kind: 'invalid', error: protocolError(RPC.MISSING_METHOD) };
}

// fc's legacy parser types a number by its text (reference §5.4): digits alone are a uint64, a
// leading '-' makes an int64, a '.' a double, and digits followed by letters (1e5) stay a string.
// JSON.parse has already lost that text, so numeric ids are echoed from the literal itself.

const PLAIN_ID = /"id"\s*:\s*(-?\d+)\s*[,}]/;

/** The literal text of the top-level `"id"` value, scanning past nested values and strings. */
function topLevelIdLiteral(text: string): string | undefined {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const str = text.slice(i + 1, j);
      i = j;
      if (depth === 1 && expectKey && str === 'id') {
        const m = /^\s*:\s*([^,}\s]+)/.exec(text.slice(j + 1));
        return m?.[1];
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
  return undefined;
}

function numericIdText(text: string, id: number): string {
  const plain = PLAIN_ID.exec(text);
  const literal = plain && Number(plain[1]) === id ? plain[1]! : (topLevelIdLiteral(text) ?? String(id));
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

/** Protocol errors are answered with `"id":null,"jsonrpc":"2.0"` whatever the request carried. */
export const invalidReply = (error: WireError): string => errorReply({ id: null, jsonrpc: true }, error);

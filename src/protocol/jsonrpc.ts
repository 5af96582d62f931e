// JSON-RPC envelopes exactly as bitshares-fc checks and writes them (reference §3.5). Pure functions:
// text in, a request or a finished error reply out; reply prefixes for results built elsewhere.

import { RPC, fcError, FC, protocolError, type WireError } from '../errors.js';
import { echoNumber } from '../chain/fc-json.js';

export type RequestId = string | number | null;

export interface RpcRequest {
  /** the id as sent; undefined when the request had no `id` key */
  readonly id: RequestId | undefined;
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

function idText(id: RequestId): string {
  if (typeof id === 'number') return JSON.stringify(echoNumber(id));
  return JSON.stringify(id);
}

/** `{"id":…,"jsonrpc":"2.0",` — the part of a reply before `"result"` or `"error"`, in fc's key order. */
export function replyHead(id: RequestId | undefined, jsonrpc: boolean): string {
  let s = '{';
  if (id !== undefined) s += `"id":${idText(id)},`;
  if (jsonrpc) s += '"jsonrpc":"2.0",';
  return s;
}

/** The prefix a worker puts before the result JSON; the reply ends with `}`. */
export const resultPrefix = (req: Pick<RpcRequest, 'id' | 'jsonrpc'>): string => `${replyHead(req.id, req.jsonrpc)}"result":`;

export function resultReply(req: Pick<RpcRequest, 'id' | 'jsonrpc'>, resultJson: string): string {
  return `${resultPrefix(req)}${resultJson}}`;
}

export function errorReply(req: Pick<RpcRequest, 'id' | 'jsonrpc'>, error: WireError): string {
  return `${replyHead(req.id, req.jsonrpc)}"error":${JSON.stringify(error)}}`;
}

/** Protocol errors are answered with `"id":null,"jsonrpc":"2.0"` whatever the request carried. */
export const invalidReply = (error: WireError): string => errorReply({ id: null, jsonrpc: true }, error);

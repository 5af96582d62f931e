// Large requests are read in the worker pool, not on the front end's thread. Reading a request
// costs in proportion to its size (UTF-8 decoding, JSON.parse, the depth walk, the id's literal,
// then packing the arguments again for a worker): 15 to 40 ms for a transaction of 6,500
// operations (about 1 MB) on this project's 2-CPU machines, and four connections pipelining such
// requests kept the front end at it, every other connection's calls waiting behind (issue 31).
//
// So a request of READ_IN_POOL_FROM_BYTES or more crosses to a worker as its bytes, as a task of its
// own (set READ_SET), scheduled heavy in its connection's share. The worker reads it exactly as the
// front end would (parseInbound) and answers what the front end's layers need: the envelope, and
// the arguments, each large one (an object or array that packs to PACKED_ARG_FROM_BYTES or more)
// left packed (msgpackr), with the two facts the front end asks of it: its length if it is a list,
// and its size as a call's shape counts it. The front end routes, authorizes, limits and schedules
// the call on these, and hands the packed arguments on to the worker that runs it as they are: it
// never builds the large value. A refused message comes back as its finished reply.
//
// Both sides import this file: the worker reads (readRequest), the front end takes the answer
// (takeReadAnswer). Front-end handlers that get a packed argument unpack it (unpackArgs).
import { parseInbound, invalidReply, type RequestId, type RpcRequest } from './jsonrpc.js';
import { decode, encode } from './codec.js';
import type { WireError } from '../errors.js';

/** The set a read task names: no API set has this key (set keys are getter names: "database", …). */
export const READ_SET = '$read';
export const READ_METHOD = 'read';

/** An argument left packed by the worker that read its request. */
export class PackedArg {
  constructor(
    /** msgpackr bytes of the value */
    readonly bytes: Uint8Array,
    /** the list's length, or -1 when the value is not a list */
    readonly length: number,
    /** its size as a call's shape counts it (argSize) */
    readonly size: number,
  ) {}
}

/** Whether a value is a list, and its length, packed or not (-1: not a list). */
export const listLength = (v: unknown): number => (Array.isArray(v) ? v.length : v instanceof PackedArg ? v.length : -1);

/**
 * One argument's size as a call's shape counts it (src/pool/learnt-costs.ts shapeOf): a list's
 * length; a string's length in KiB; an object's lists' lengths, one level in (a transaction's
 * operations).
 */
export function argSize(a: unknown): number {
  if (Array.isArray(a)) return a.length;
  if (typeof a === 'string') return a.length >> 10;
  if (a instanceof PackedArg) return a.size;
  let size = 0;
  if (typeof a === 'object' && a !== null) {
    for (const v of Object.values(a as Record<string, unknown>)) if (Array.isArray(v)) size += v.length;
  }
  return size;
}

/** The facts of a packed argument as they cross, in place of the value: [bytes, length, size]. */
type PackedWire = [Uint8Array, number, number];

/**
 * What the worker answers, packed: a message refused whole ([0, code, message, body]; body the
 * finished reply, empty for none), or a request ([1, id, idText, wantsReply, jsonrpc, method,
 * params, packed]; packed: where in params a PackedWire stands, as a flat list of positions,
 * -1-based for `call`'s third parameter's items).
 */
type ReadWire = [0, number, string, Uint8Array] | [1, RequestId | undefined, string | null, boolean, boolean, string, unknown[], number[]];

/** What the front end gets of a large request. */
export type ReadAnswer =
  | { readonly kind: 'request'; readonly request: RpcRequest }
  /** refused for its envelope, as parseInbound refuses it; `body` the finished reply (the text of a JSON error echoes the request) */
  | { readonly kind: 'invalid'; readonly error: WireError; readonly body: Uint8Array }
  | { readonly kind: 'ignore' };

const encoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** A value that stays packed when it packs to this or more. */
const packedIfLarge = (v: unknown, from: number): unknown => {
  if (typeof v !== 'object' || v === null) return v;
  const bytes = encode(v);
  return bytes.length >= from ? ([bytes, listLength(v), argSize(v)] satisfies PackedWire) : v;
};

/**
 * The worker's side: reads a request's bytes as the front end's decode layer would, and answers
 * what the front end needs of it (ReadWire, packed).
 */
export function readRequest(bytes: Uint8Array, maxDepth: number, packedFrom: number): Uint8Array {
  const inbound = parseInbound(textDecoder.decode(bytes), maxDepth);
  if (inbound.kind === 'ignore') return encode([0, 0, '', new Uint8Array(0)] satisfies ReadWire);
  if (inbound.kind === 'invalid') {
    // The error without its data: that may echo the whole request; the finished reply has it.
    const body = encoder.encode(invalidReply(inbound.error, inbound.to));
    return encode([0, inbound.error.code, inbound.error.message, body] satisfies ReadWire);
  }
  const req = inbound.request;
  const packed: number[] = [];
  const params = req.params.map((p, i) => {
    // `call`'s arguments are its third parameter's items: the front end reads the first two.
    if (req.method === 'call' && i === 2 && Array.isArray(p)) {
      return p.map((a, k) => {
        const v = packedIfLarge(a, packedFrom);
        if (v !== a) packed.push(-1 - k);
        return v;
      });
    }
    const v = packedIfLarge(p, packedFrom);
    if (v !== p) packed.push(i);
    return v;
  });
  return encode([1, req.id, req.idText ?? null, req.wantsReply, req.jsonrpc, req.method, params, packed] satisfies ReadWire);
}

/** The front end's side: a read task's answer, with PackedArgs in place of the large arguments. */
export function takeReadAnswer(bytes: Uint8Array): ReadAnswer {
  const w = decode<ReadWire>(bytes);
  if (w[0] === 0) {
    const [, code, message, body] = w;
    if (body.length === 0) return { kind: 'ignore' };
    return { kind: 'invalid', error: { code, message }, body };
  }
  const [, id, idText, wantsReply, jsonrpc, method, params, packed] = w;
  const at = (p: PackedWire) => new PackedArg(p[0], p[1], p[2]);
  for (const i of packed) {
    if (i >= 0) params[i] = at(params[i] as PackedWire);
    else {
      const args = params[2] as unknown[];
      args[-1 - i] = at(args[-1 - i] as PackedWire);
    }
  }
  const request: RpcRequest = idText === null ? { id, wantsReply, jsonrpc, method, params } : { id, idText, wantsReply, jsonrpc, method, params };
  return { kind: 'request', request };
}

/** Unpacks, in place, the packed arguments of a call that runs on the front end. */
export function unpackArgs(args: unknown[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a instanceof PackedArg) args[i] = decode(a.bytes);
  }
}

/** Positions of packed arguments in `args` (for PoolTask.packed), or undefined when there are none. */
export function packedPositions(args: readonly unknown[]): number[] | undefined {
  let at: number[] | undefined;
  for (let i = 0; i < args.length; i++) if (args[i] instanceof PackedArg) (at ??= []).push(i);
  return at;
}

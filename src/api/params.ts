// Argument conversions with bitshares-fc's leniency (reference §5.4): numbers may come as numeric
// strings, null converts to 0 or "", object ids must be strings in "space.type.instance" form.
// Each failure throws an RpcError shaped like the fc exception Core would raise.

import { ASSERT, FC, RpcError, assertError, fcError } from '../errors.js';

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

const badCast = (v: unknown, to: string): RpcError => new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to ${to}', { type: typeName(v), to }));
const parseFail = (what: string): RpcError => new RpcError(fcError(FC.parse, "Couldn't parse ${what}", { what }));

/** `variant::as_uint64`: non-negative integers, numeric strings, booleans, null (→ 0). */
export function asUint64(v: unknown): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw parseFail('uint64_t');
    return BigInt.asUintN(64, BigInt(Math.trunc(v)));
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (!/^-?\d+$/.test(t)) throw parseFail('uint64_t');
    return BigInt.asUintN(64, BigInt(t));
  }
  throw badCast(v, 'uint64');
}

/** A uint32 parameter: `static_cast<uint32_t>(as_uint64())`, truncated as fc does. */
export const asUint32 = (v: unknown): number => Number(BigInt.asUintN(32, asUint64(v)));

/** `variant::as_string`: numbers and booleans become text, null becomes "". */
export function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badCast(v, 'string');
}

export function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined) return [];
  throw new RpcError(assertError(ASSERT.EXPECTED_ARRAY, { type: typeName(v) }));
}

/** An optional<bool>: undefined when missing or null. */
export function asOptionalBool(v: unknown): boolean | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badCast(v, 'bool');
}

export interface ParsedId {
  space: number;
  type: number;
  instance: number;
}

/** object_id_type from a string, with object_id.hpp's checks, in its order. */
export function asObjectId(v: unknown, expect?: { space: number; type: number }): ParsedId {
  if (typeof v !== 'string') throw badCast(v, 'string');
  const first = v.indexOf('.');
  if (first < 0) throw new RpcError(assertError(ASSERT.ID_FIRST_DOT));
  if (first === 0) throw new RpcError(assertError(ASSERT.ID_SPACE_PART));
  const second = v.indexOf('.', first + 1);
  if (second < 0) throw new RpcError(assertError(ASSERT.ID_SECOND_DOT));
  if (second === first + 1) throw new RpcError(assertError(ASSERT.ID_TYPE_PART));
  const part = (s: string): number => {
    if (!/^\d+$/.test(s)) throw parseFail('uint64_t');
    return Number(s);
  };
  const space = part(v.slice(0, first));
  const type = part(v.slice(first + 1, second));
  const instance = part(v.slice(second + 1));
  if (space > 0xff || type > 0xff || instance > 0xffffffffffff) throw new RpcError(assertError('false: Object id part out of range: ${id}', { id: v }));
  if (expect && (space !== expect.space || type !== expect.type)) {
    throw new RpcError(assertError(ASSERT.ID_TYPE_MISMATCH, { SpaceID: expect.space, TypeID: expect.type, var: v }));
  }
  return { space, type, instance };
}

// Graphene public keys and addresses in their text form: a prefix ("BTS" on the main chain,
// GRAPHENE_ADDRESS_PREFIX) followed by base58 of the binary value and a 4-byte checksum, the first
// four bytes of ripemd160(binary value).
//
// Source: bitshares-core libraries/protocol/types.cpp (public_key_type(const std::string&),
// operator std::string) and libraries/protocol/address.cpp (address::is_valid, operator std::string,
// address(const public_key_type&)). Core checks only the prefix, the length (by unpacking
// binary_key) and the checksum; it does not check that the key is a point on the curve, so neither
// do we.

import { createHash } from 'node:crypto';
import bs58 from 'bs58';

export const DEFAULT_ADDRESS_PREFIX = 'BTS';

/**
 * The chain's key prefix, Core's GRAPHENE_ADDRESS_PREFIX: a build constant there (BTS on the main
 * chain, TEST in testnet builds), an option here (--address-prefix). It is one value per thread, set
 * once by the composition root and by each worker at load, because every key that enters or leaves
 * the node — in requests, stored objects, serialised operations, genesis files — is read and written
 * with it, through code (the serialiser's type tables) that has no other way to be told.
 */
let chainPrefix = DEFAULT_ADDRESS_PREFIX;

/** The key prefix in force in this thread. */
export const addressPrefix = (): string => chainPrefix;

/** Core's prefixes are upper-case letters (BTS, TEST, GPH); base58 text follows them directly. */
export const ADDRESS_PREFIX_PATTERN = /^[A-Z]{1,16}$/;

/** Sets the key prefix of this thread (the node's start, a worker's load). */
export function setAddressPrefix(prefix: string): void {
  if (!ADDRESS_PREFIX_PATTERN.test(prefix)) throw new Error(`address prefix: expected 1 to 16 upper-case letters, got ${JSON.stringify(prefix)}`);
  chainPrefix = prefix;
}

/** fc's text of `public_key_type()`, the all-zero key, with the chain's prefix. */
export const nullPublicKey = (): string => `${chainPrefix}1111111111111111111111111111111114T1Anm`;

/** A compressed secp256k1 key, the `key_data` of Core's public_key_type. */
export const PUBLIC_KEY_BYTES = 33;
/** An address is a ripemd160 hash. */
export const ADDRESS_BYTES = 20;
const CHECKSUM_BYTES = 4;

function ripemd160(data: Uint8Array): Uint8Array {
  return createHash('ripemd160').update(data).digest();
}

function sha512(data: Uint8Array): Uint8Array {
  return createHash('sha512').update(data).digest();
}

/** `prefix + base58(data ‖ ripemd160(data)[0..4])`, the form shared by keys and addresses. */
function encodeChecked(data: Uint8Array, prefix: string): string {
  const out = new Uint8Array(data.length + CHECKSUM_BYTES);
  out.set(data, 0);
  out.set(ripemd160(data).subarray(0, CHECKSUM_BYTES), data.length);
  return prefix + bs58.encode(out);
}

function decodeChecked(text: unknown, prefix: string, size: number, what: string): Uint8Array {
  if (typeof text !== 'string') throw new Error(`${what}: expected a string, got ${typeof text}`);
  if (text.length <= prefix.length || !text.startsWith(prefix)) {
    throw new Error(`${what} "${text}": expected the prefix "${prefix}"`);
  }
  let bin: Uint8Array;
  try {
    bin = bs58.decode(text.slice(prefix.length));
  } catch (e) {
    throw new Error(`${what} "${text}": not valid base58 (${(e as Error).message})`);
  }
  if (bin.length !== size + CHECKSUM_BYTES) {
    throw new Error(`${what} "${text}": decodes to ${bin.length} bytes, expected ${size + CHECKSUM_BYTES}`);
  }
  const data = bin.subarray(0, size);
  const check = ripemd160(data).subarray(0, CHECKSUM_BYTES);
  for (let i = 0; i < CHECKSUM_BYTES; i++) {
    if (bin[size + i] !== check[i]) throw new Error(`${what} "${text}": checksum mismatch`);
  }
  return Uint8Array.from(data);
}

/**
 * Keys parsed lately, by prefix and text. A key is packed again and again (a transaction's fee
 * size, its id, its signing digest, the block's merkle root), and each parse is a base58 decode and a
 * ripemd160. Bounded: emptied when full.
 */
const parsedKeys = new Map<string, Uint8Array>();
const PARSED_KEYS_MAX = 50_000;

/** Parses `<prefix>…` into the 33-byte compressed key; throws on a wrong prefix, length or checksum. */
export function parsePublicKey(text: unknown, prefix: string = chainPrefix): Uint8Array {
  const cacheKey = typeof text === 'string' ? `${prefix} ${text}` : undefined;
  const hit = cacheKey === undefined ? undefined : parsedKeys.get(cacheKey);
  if (hit) return Uint8Array.from(hit);
  const key = decodeChecked(text, prefix, PUBLIC_KEY_BYTES, 'public key');
  if (parsedKeys.size >= PARSED_KEYS_MAX) parsedKeys.clear();
  parsedKeys.set(cacheKey!, key);
  return Uint8Array.from(key);
}

export function formatPublicKey(key: Uint8Array, prefix: string = chainPrefix): string {
  if (key.length !== PUBLIC_KEY_BYTES) throw new Error(`public key: expected ${PUBLIC_KEY_BYTES} bytes, got ${key.length}`);
  return encodeChecked(key, prefix);
}

/** Parses a Graphene address (the prefix + base58 of 20 bytes + checksum). */
export function parseAddress(text: unknown, prefix: string = chainPrefix): Uint8Array {
  return decodeChecked(text, prefix, ADDRESS_BYTES, 'address');
}

export function formatAddress(addr: Uint8Array, prefix: string = chainPrefix): string {
  if (addr.length !== ADDRESS_BYTES) throw new Error(`address: expected ${ADDRESS_BYTES} bytes, got ${addr.length}`);
  return encodeChecked(addr, prefix);
}

/**
 * The address of a key, ripemd160(sha512(key_data)) (address.cpp). Core orders public keys by this
 * value, not by the key bytes (types.cpp: `operator<` returns `address(p1) < address(p2)`), so
 * `key_auths` are packed in this order.
 */
export function publicKeyAddress(key: Uint8Array): Uint8Array {
  return Uint8Array.from(ripemd160(sha512(key)));
}

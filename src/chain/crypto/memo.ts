// Graphene memo encryption (the `memo` of transfer, override_transfer, asset_issue, …): AES-256-CBC
// under a key derived from an ECDH shared secret and the memo's nonce, over a 4-byte checksum and the
// text. Byte-compatible with bitshares-core and with bitsharesjs' Aes.encrypt_with_checksum.
//
// Sources (bitshares-core libraries/protocol/memo.cpp, bitshares-fc src/crypto/…):
//  - memo_data::set_message / get_message:
//      secret            = priv.get_shared_secret(pub)
//      nonce_plus_secret = fc::sha512::hash(fc::to_string(nonce) + secret.str())
//      text              = memo_message(digest_type::hash(msg)._hash[0].value(), msg).serialize()
//      message           = fc::aes_encrypt(nonce_plus_secret, text)
//    and on reading, FC_ASSERT(result.checksum == (uint32_t)digest_type::hash(result.text)._hash[0].value()).
//    When `from` is the null key the memo is not encrypted: message = memo_message(0, msg).serialize()
//    and get_message just strips the 4 checksum bytes.
//  - elliptic_secp256k1.cpp private_key::get_shared_secret: secp256k1_ec_pubkey_tweak_mul on the
//    33-byte compressed key, then fc::sha512::hash(pub.data() + 1, pub.size() - 1), i.e. sha512 of
//    the 32-byte x coordinate of priv·pub.
//  - sha512::str() is fc::to_hex (lower case); fc::to_string(uint64_t) is boost::lexical_cast (plain
//    decimal).
//  - digest_type is fc::sha256 (protocol/types.hpp) whose _hash is little_uint64_buf_t[4], so
//    (uint32_t)_hash[0].value() is bytes 0..3 read little-endian; memo_message::serialize writes it
//    back with native_to_little, so the checksum on the wire is simply sha256(text)[0..4].
//  - aes.cpp aes_encrypt(const fc::sha512& key, …): EVP_aes_256_cbc with key = bytes 0..32 of the
//    sha512, iv = bytes 32..48, OpenSSL's default (PKCS#7) padding.
//  - The nonce is a uint64; fc's JSON (json.cpp, stringify_large_ints_and_doubles) writes a uint64
//    above 0xffffffff as a quoted string.
//
// Fast path: the ECDH multiplication is by far the costliest step. Callers writing many memos between
// the same two keys should compute `sharedSecret` once (or use `memoEncryptor`) and then use
// `encryptMemoWithSecret`, which costs two hashes and one AES pass per memo.

import { createCipheriv, createDecipheriv, createECDH, createHash, randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { addressPrefix, formatPublicKey, parsePublicKey, PUBLIC_KEY_BYTES } from './public-key.js';
import { u64 } from '../fc/fc-json.js';

/** memo_data as fc writes it in JSON. */
export interface MemoData {
  from: string;
  to: string;
  nonce: string | number;
  message: string;
}

/** A nonce as callers may give it (a bigint, a safe integer, or a decimal string). */
export type MemoNonce = bigint | number | string;

const UINT64_MAX = (1n << 64n) - 1n;
const CHECKSUM_BYTES = 4;
const SECRET_BYTES = 64;

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();

/** Parses a nonce into a uint64, rejecting anything fc could not hold. */
export function memoNonce(nonce: MemoNonce): bigint {
  let n: bigint;
  if (typeof nonce === 'bigint') n = nonce;
  else if (typeof nonce === 'number') {
    if (!Number.isSafeInteger(nonce)) {
      throw new Error(`memo nonce ${nonce}: not a safe integer (pass nonces above 2^53 as a bigint or decimal string)`);
    }
    n = BigInt(nonce);
  } else if (typeof nonce === 'string' && /^[0-9]+$/.test(nonce)) n = BigInt(nonce);
  else throw new Error(`memo nonce ${JSON.stringify(nonce)}: expected an unsigned integer`);
  if (n < 0n || n > UINT64_MAX) throw new Error(`memo nonce ${n}: out of the uint64 range`);
  return n;
}

/**
 * A fresh nonce in Core's format (memo.cpp set_message with custom_nonce == 0): the top byte is
 * entropy, the low 56 bits the time in microseconds since the epoch. Core does not require the format;
 * it only makes (key pair, nonce) unique with high probability.
 */
export function generateMemoNonce(): bigint {
  const micros = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  const entropy = BigInt(randomBytes(1)[0]!) << 56n;
  return (micros & 0x00ffffffffffffffn) | entropy;
}

function publicKeyInput(key: string | Uint8Array, prefix: string): Uint8Array {
  if (typeof key !== 'string') {
    if (key.length !== PUBLIC_KEY_BYTES) throw new Error(`memo: a public key is ${PUBLIC_KEY_BYTES} bytes, got ${key.length}`);
    return key;
  }
  return parsePublicKey(key, prefix);
}

/**
 * fc::ecc::private_key::get_shared_secret: sha512 of the x coordinate of priv·pub (64 bytes). The same
 * value comes out of either side: sharedSecret(a, B) equals sharedSecret(b, A).
 */
export function sharedSecret(privateKey: Uint8Array, publicKey: string | Uint8Array, prefix = addressPrefix()): Uint8Array {
  const pub = publicKeyInput(publicKey, prefix);
  if (pub.every((b) => b === 0)) throw new Error('memo: cannot derive a shared secret with the null public key');
  let x: Uint8Array;
  try {
    // OpenSSL's ECDH (node:crypto) gives the x coordinate of priv·pub, several times faster than
    // the same multiplication in JavaScript.
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(privateKey);
    x = ecdh.computeSecret(pub);
  } catch (e) {
    throw new Error(`memo: cannot derive a shared secret (${(e as Error).message})`);
  }
  return Uint8Array.from(createHash('sha512').update(x).digest());
}

/** sha512(decimal nonce ‖ hex(secret)): the AES key is bytes 0..32, the iv bytes 32..48. */
function keyMaterial(secretHex: string, nonce: bigint): Buffer {
  return createHash('sha512').update(nonce.toString() + secretHex, 'latin1').digest();
}

function secretHexOf(secret: Uint8Array): string {
  if (secret.length !== SECRET_BYTES) throw new Error(`memo: a shared secret is ${SECRET_BYTES} bytes, got ${secret.length}`);
  return Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength).toString('hex');
}

const textBytes = (text: string | Uint8Array): Buffer =>
  typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);

/** memo_message(checksum, text).serialize() under fc::aes_encrypt: the raw ciphertext. */
export function encryptMemoMessage(secret: Uint8Array, nonce: MemoNonce, text: string | Uint8Array): Buffer {
  return encryptWithHex(secretHexOf(secret), memoNonce(nonce), textBytes(text));
}

function encryptWithHex(secretHex: string, nonce: bigint, plain: Buffer): Buffer {
  const km = keyMaterial(secretHex, nonce);
  const cipher = createCipheriv('aes-256-cbc', km.subarray(0, 32), km.subarray(32, 48));
  return Buffer.concat([cipher.update(sha256(plain).subarray(0, CHECKSUM_BYTES)), cipher.update(plain), cipher.final()]);
}

/** The inverse of encryptMemoMessage: returns the text's bytes after checking the checksum. */
export function decryptMemoMessage(secret: Uint8Array, nonce: MemoNonce, ciphertext: Uint8Array): Buffer {
  const km = keyMaterial(secretHexOf(secret), memoNonce(nonce));
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-cbc', km.subarray(0, 32), km.subarray(32, 48));
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (e) {
    throw new Error(`memo: could not decrypt the message (wrong key or corrupted memo: ${(e as Error).message})`);
  }
  if (plain.length < CHECKSUM_BYTES) throw new Error('memo: the decrypted message is shorter than its checksum (wrong key or corrupted memo)');
  const text = plain.subarray(CHECKSUM_BYTES);
  if (!sha256(text).subarray(0, CHECKSUM_BYTES).equals(plain.subarray(0, CHECKSUM_BYTES))) {
    throw new Error('memo: checksum mismatch after decryption (wrong key or corrupted memo)');
  }
  return text;
}

function memoOf(from: string, to: string, nonce: bigint, ciphertext: Buffer): MemoData {
  return { from, to, nonce: u64(nonce), message: ciphertext.toString('hex') };
}

/**
 * Encrypts with a precomputed shared secret (see sharedSecret). `from` and `to` are copied into the
 * memo as given; they must be the keys the secret was derived from for the reader to decrypt it.
 */
export function encryptMemoWithSecret(secret: Uint8Array, from: string, to: string, text: string | Uint8Array, nonce: MemoNonce): MemoData {
  const n = memoNonce(nonce);
  return memoOf(from, to, n, encryptWithHex(secretHexOf(secret), n, textBytes(text)));
}

/** memo_data::set_message(priv, pub, text, nonce) as JSON. */
export function encryptMemo(fromPrivateKey: Uint8Array, toPublicKey: string, text: string | Uint8Array, nonce: MemoNonce, prefix = addressPrefix()): MemoData {
  const secret = sharedSecret(fromPrivateKey, toPublicKey, prefix);
  const from = formatPublicKey(secp256k1.getPublicKey(fromPrivateKey, true), prefix);
  return encryptMemoWithSecret(secret, from, toPublicKey, text, nonce);
}

/**
 * The fast path for many memos from one sender to one recipient: the ECDH, the sender's public key
 * and the secret's hex are computed once; each call then costs two hashes and one AES pass.
 */
export function memoEncryptor(fromPrivateKey: Uint8Array, toPublicKey: string, prefix = addressPrefix()): (text: string | Uint8Array, nonce: MemoNonce) => MemoData {
  const secretHex = secretHexOf(sharedSecret(fromPrivateKey, toPublicKey, prefix));
  const from = formatPublicKey(secp256k1.getPublicKey(fromPrivateKey, true), prefix);
  return (text, nonce) => {
    const n = memoNonce(nonce);
    return memoOf(from, toPublicKey, n, encryptWithHex(secretHex, n, textBytes(text)));
  };
}

function messageBytes(message: unknown): Buffer {
  if (typeof message !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(message)) {
    throw new Error('memo: message must be a hex string of whole bytes');
  }
  return Buffer.from(message, 'hex');
}

/** Decrypts with a precomputed shared secret; returns the UTF-8 text. */
export function decryptMemoWithSecret(secret: Uint8Array, memo: { nonce: MemoNonce; message: string }): string {
  return decryptMemoMessage(secret, memo.nonce, messageBytes(memo.message)).toString('utf8');
}

/**
 * memo_data::get_message, choosing the other side's key as the wallet's read_memo does
 * (wallet_sign.cpp: the key for `to` reads with `from`, otherwise the key for `from` reads with `to`).
 * A memo whose `from` is the null key is not encrypted and reads without a key.
 */
export function decryptMemo(privateKey: Uint8Array, memo: { from: string; to: string; nonce: MemoNonce; message: string }, prefix = addressPrefix()): string {
  const from = parsePublicKey(memo.from, prefix);
  const to = parsePublicKey(memo.to, prefix);
  const message = messageBytes(memo.message);
  if (from.every((b) => b === 0)) {
    if (message.length < CHECKSUM_BYTES) throw new Error('memo: an unencrypted message is shorter than its checksum');
    return message.subarray(CHECKSUM_BYTES).toString('utf8');
  }
  let own: Uint8Array;
  try {
    own = secp256k1.getPublicKey(privateKey, true);
  } catch (e) {
    throw new Error(`memo: invalid private key (${(e as Error).message})`);
  }
  const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
  let other: Uint8Array;
  if (same(own, to)) other = from;
  else if (same(own, from)) other = to;
  else {
    throw new Error(
      `memo: the private key (public key ${formatPublicKey(own, prefix)}) is neither the memo's sender ${memo.from} nor its recipient ${memo.to}`,
    );
  }
  return decryptMemoMessage(sharedSecret(privateKey, other), memo.nonce, message).toString('utf8');
}

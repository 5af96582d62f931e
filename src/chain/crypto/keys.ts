// Private keys (WIF), compact signatures and key recovery, as fc::ecc does them for Graphene.
//
// A compact signature is 65 bytes: 27 + 4 (compressed) + recovery id, then r and s. Graphene accepts
// only "canonical" signatures (fc's is_canonical: r and s each without a leading 0x80 bit and without
// a needless leading zero byte), and its signer retries with fresh nonces until it has one.

import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { secp256k1 } from '@noble/curves/secp256k1';
import { addressPrefix, formatPublicKey, parsePublicKey } from './public-key.js';

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();

/** Wallet import format: base58(0x80 ‖ 32-byte key ‖ first 4 bytes of sha256(sha256(0x80 ‖ key))). */
export function privateKeyFromWif(wif: string): Uint8Array {
  const raw = bs58.decode(wif);
  if (raw.length !== 37 || raw[0] !== 0x80) throw new Error('not a WIF private key');
  const body = raw.subarray(0, 33);
  const check = sha256(sha256(body)).subarray(0, 4);
  if (!check.equals(Buffer.from(raw.subarray(33)))) throw new Error('WIF private key checksum mismatch');
  return Uint8Array.from(raw.subarray(1, 33));
}

export function publicKeyOf(privateKey: Uint8Array, prefix = addressPrefix()): string {
  return formatPublicKey(secp256k1.getPublicKey(privateKey, true), prefix);
}

/** fc::ecc::public_key::is_canonical */
export function isCanonical(sig: Uint8Array): boolean {
  return !(sig[1]! & 0x80) && !(sig[1] === 0 && !(sig[2]! & 0x80)) && !(sig[33]! & 0x80) && !(sig[33] === 0 && !(sig[34]! & 0x80));
}

/** Signs a 32-byte digest; returns the 65-byte canonical compact signature as hex. */
export function signCompact(digest: Uint8Array, privateKey: Uint8Array): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const extraEntropy = attempt === 0 ? undefined : sha256(Buffer.concat([Buffer.from(digest), Buffer.from([attempt & 0xff, attempt >> 8])]));
    const s = secp256k1.sign(digest, privateKey, { lowS: true, extraEntropy });
    const out = new Uint8Array(65);
    out[0] = 27 + 4 + s.recovery;
    out.set(s.toCompactRawBytes(), 1);
    if (isCanonical(out)) return Buffer.from(out).toString('hex');
  }
  throw new Error('could not produce a canonical signature');
}

/** Recovers the signer's public key (text form) from a compact signature, or throws. */
export function recoverPublicKey(digest: Uint8Array, signatureHex: string, prefix = addressPrefix()): string {
  const sig = Buffer.from(signatureHex, 'hex');
  if (sig.length !== 65) throw new Error('a signature is 65 bytes');
  const recovery = sig[0]! - 27 - 4;
  if (recovery < 0 || recovery > 3) throw new Error('signature has an invalid recovery byte');
  const point = secp256k1.Signature.fromCompact(sig.subarray(1)).addRecoveryBit(recovery).recoverPublicKey(digest);
  return formatPublicKey(point.toRawBytes(true), prefix);
}

export const publicKeyBytes = parsePublicKey;

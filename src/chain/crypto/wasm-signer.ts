// Compact signatures and public keys computed with libsecp256k1 (the WebAssembly build of
// secp256k1-zkp the node already ships for blinded transfers), for `generate`'s signer thread.
//
// keys.ts signs with @noble/curves, in JavaScript BigInts: about 340 µs a signature on this
// project's machine, which made signing the bound of `generate` (one signature per transaction of
// ~10 transfers). libsecp256k1's constant-time k·G is about three times faster. The library signs
// but does not return the recovery id a compact signature carries (the parity of R.y), so this
// module computes the signature itself, exactly as noble does it: the RFC 6979 nonce (HMAC-DRBG over
// the key, the digest and the optional extra entropy), R = k·G by the library, r = R.x mod n,
// s = k⁻¹(h + r·d) mod n, low-S, and the recovery id. Same inputs, same bytes: test/wasm-signer.test.ts
// compares it with keys.ts signature by signature, canonical retries included.

import { createHash, createHmac } from 'node:crypto';
import type { Secp256k1ZKP } from '@vulpemventures/secp256k1-zkp';
import { isCanonical } from './keys.js';

/** secp256k1's group order */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();

const toBigInt = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt('0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')));
const toBytes32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

/** a⁻¹ mod N (N is prime, a in [1, N)), by the extended Euclidean algorithm. */
function invertModN(a: bigint): bigint {
  let [r0, r1] = [N, a];
  let [t0, t1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return t0 < 0n ? t0 + N : t0;
}

export interface WasmSigner {
  /** keys.ts signCompact, computed with libsecp256k1: the same 65-byte canonical signature, as hex */
  signCompact(digest: Uint8Array, privateKey: Uint8Array): string;
  /** the 33-byte compressed public key of a private key */
  publicKey(privateKey: Uint8Array): Uint8Array;
}

export async function loadWasmSigner(): Promise<WasmSigner> {
  // A CommonJS module: the import's default is its exports object, whose `default` is the loader.
  const lib: Secp256k1ZKP = await import('@vulpemventures/secp256k1-zkp').then((m) => m.default.default());

  /** noble's sign(digest, key, { lowS: true, extraEntropy }) as [r, s, recovery]. */
  const sign = (digest: Uint8Array, privateKey: Uint8Array, extraEntropy?: Uint8Array): [Buffer, Buffer, number] => {
    const d = toBigInt(privateKey);
    if (d <= 0n || d >= N) throw new Error('private key out of range');
    // bits2int_modN: a 32-byte digest of a 256-bit order needs no shift, only the reduction.
    const h = toBigInt(digest) % N;
    const seed = Buffer.concat([toBytes32(d), toBytes32(h), ...(extraEntropy ? [extraEntropy] : [])]);
    // HMAC-DRBG (RFC 6979 §3.2; noble's createHmacDrbg): K = 0…, V = 1…, reseeded with the seed.
    let k: Buffer = Buffer.alloc(32, 0);
    let v: Buffer = Buffer.alloc(32, 1);
    const hmac = (...parts: Uint8Array[]): Buffer => {
      const m = createHmac('sha256', k);
      for (const p of parts) m.update(p);
      return m.digest();
    };
    const reseed = (data?: Buffer) => {
      k = hmac(v, Buffer.from([0]), ...(data ? [data] : []));
      v = hmac(v);
      if (!data) return;
      k = hmac(v, Buffer.from([1]), data);
      v = hmac(v);
    };
    reseed(seed);
    for (let round = 0; round < 1000; round++) {
      if (round > 0) reseed();
      v = hmac(v);
      const nonce = toBigInt(v);
      if (nonce <= 0n || nonce >= N) continue;
      const point = lib.ecc.pointFromScalar(v, false);
      if (!point) continue;
      const x = toBigInt(point.subarray(1, 33));
      const r = x % N;
      if (r === 0n) continue;
      let s = (invertModN(nonce) * ((h + r * d) % N)) % N;
      if (s === 0n) continue;
      let recovery = (x === r ? 0 : 2) | (point[64]! & 1);
      if (s > HALF_N) {
        s = N - s;
        recovery ^= 1;
      }
      return [toBytes32(r), toBytes32(s), recovery];
    }
    throw new Error('no valid nonce');
  };

  return {
    signCompact(digest, privateKey) {
      // keys.ts signCompact's loop: fresh extra entropy until the signature is canonical.
      for (let attempt = 0; attempt < 1000; attempt++) {
        const extraEntropy = attempt === 0 ? undefined : sha256(Buffer.concat([Buffer.from(digest), Buffer.from([attempt & 0xff, attempt >> 8])]));
        const [r, s, recovery] = sign(digest, privateKey, extraEntropy);
        const out = Buffer.allocUnsafe(65);
        out[0] = 27 + 4 + recovery;
        r.copy(out, 1);
        s.copy(out, 33);
        if (isCanonical(out)) return out.toString('hex');
      }
      throw new Error('could not produce a canonical signature');
    },
    publicKey(privateKey) {
      const p = lib.ecc.pointFromScalar(privateKey, true);
      if (!p) throw new Error('private key out of range');
      return p;
    },
  };
}

// Pedersen commitments and range-proof headers, as BitShares Core's crypto_api computes them.
//
// Core (libraries/app/api.cpp, crypto_api) calls fc::ecc (bitshares-fc src/crypto/elliptic_secp256k1.cpp),
// which calls the secp256k1-zkp that fc vendors: bitshares/secp256k1-zkp at bd067945 (May 2015, the
// first "Pedersen commitments, borromean ring signatures, and ZK range proofs" commit). This node
// computes with @vulpemventures/secp256k1-zkp, a WebAssembly build of today's secp256k1-zkp (the
// Elements line), and with @noble/curves where that build has no entry point. What is the same and
// what is not:
//
//  - commitment = blind·G + value·H, with the same second generator H (secp256k1_ge_const_g2 in the
//    2015 code, secp256k1_generator_h in Elements). The 2015 code writes the point as a compressed
//    public key (02/03 by the parity of y); Elements writes 08/09 by whether y is a square. Same point,
//    other first byte: `blind` computes with the library and writes Core's form.
//  - blind_sum is addition of scalars mod n. The library exposes only
//    secp256k1_pedersen_blind_generator_blind_sum, whose wrapper reads an uninitialised output buffer
//    as an input (it cancels out, but the buffer's old bytes can trip the overflow check), so the sum
//    is computed here, as secp256k1_pedersen_blind_sum does.
//  - verify_sum (secp256k1_pedersen_verify_tally with an excess) is not exposed by the library; it is
//    point addition, done with @noble/curves.
//  - range_get_info reads the proof's header, byte for byte the same code in both lines.
//  - Range proofs themselves differ: Elements seeds the proof's nonces and hashes its transcript over
//    the commitment in its own encoding plus the generator (and an optional extra commitment), and
//    encodes the signs of the digit commitments by squareness, not parity. A proof Core makes does not
//    verify in the library and the other way round, so verify_range, range_proof_sign and
//    verify_range_proof_rewind stay refused (workers/handlers/crypto.ts).
//
// The WebAssembly module loads once per thread, on the first call that needs it, so that workers
// start as fast as before and a node that never sees a crypto_api call never loads it.
import { secp256k1 } from '@noble/curves/secp256k1';
import type { Secp256k1ZKP } from '@vulpemventures/secp256k1-zkp';

const Point = secp256k1.ProjectivePoint;
type Point = InstanceType<typeof Point>;
const Fp = secp256k1.CURVE.Fp;
const N = secp256k1.CURVE.n;

/** H: secp256k1_ge_const_g2 of the 2015 code (group_impl.h), Elements' secp256k1_generator_h. */
const H = Point.fromAffine({
  x: 0x50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0n,
  y: 0x31d3c6863973926e049e637cb1b5f40a36dac28af1766968c30c2313f3a38904n,
});
const isSquare = (y: bigint): boolean => Fp.pow(y, (Fp.ORDER - 1n) / 2n) === 1n;
/** H as Elements serialises a generator: 11 ^ (y is a square), then x. */
const H_GENERATOR = new Uint8Array([11 ^ (isSquare(H.toAffine().y) ? 1 : 0), ...H.toRawBytes(true).subarray(1)]);

let loading: Promise<Secp256k1ZKP> | undefined;

/** The library, loaded on first use in this thread; a failed load is tried again on the next call. */
function zkp(): Promise<Secp256k1ZKP> {
  // A CommonJS module: the import's default is its exports object, whose `default` is the loader.
  loading ??= import('@vulpemventures/secp256k1-zkp')
    .then((m) => m.default.default())
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}

/** Whether this thread has loaded the library (tests check that loading is lazy). */
export const zkpLoaded = (): boolean => loading !== undefined;

const toBigInt = (bytes: Uint8Array): bigint => {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
};
const toBytes32 = (n: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
};

/** Elements' 08/09 commitment encoding to the 2015 code's compressed point (02/03). */
function toCoreCommitment(c: Uint8Array): Uint8Array {
  const x = toBigInt(c.subarray(1));
  let y = Fp.sqrt(Fp.create(x * x * x + 7n));
  if (!isSquare(y)) y = Fp.neg(y);
  if (c[0]! & 1) y = Fp.neg(y);
  return Point.fromAffine({ x, y }).toRawBytes(true);
}

/**
 * fc::ecc::blind: the 33-byte commitment blind·G + value·H, or null where secp256k1_pedersen_commit
 * fails (a blinding factor not below the group order, or the point at infinity).
 */
export async function blind(blindingFactor: Uint8Array, value: bigint): Promise<Uint8Array | null> {
  const lib = await zkp();
  let commitment: Uint8Array;
  try {
    commitment = lib.pedersen.commitment(value.toString(), H_GENERATOR, blindingFactor);
  } catch (err) {
    // The wrapper's one failure after its argument checks: the C function returned 0.
    if (err instanceof Error && err.message === 'secp256k1_pedersen_commit') return null;
    throw err;
  }
  return toCoreCommitment(commitment);
}

/**
 * fc::ecc::blind_sum: the first `nonNeg` factors added, the rest subtracted, mod n; null when a factor
 * is not below n. `nonNeg` reaches secp256k1_pedersen_blind_sum as a C int, so from 2^31 up it is
 * negative and every factor is subtracted.
 */
export function blindSum(factors: readonly Uint8Array[], nonNeg: number, onEach: () => void = () => {}): Uint8Array | null {
  const positive = nonNeg | 0;
  let acc = 0n;
  for (let i = 0; i < factors.length; i++) {
    onEach();
    const x = toBigInt(factors[i]!);
    if (x >= N) return null;
    acc = i >= positive ? acc - x : acc + x;
  }
  return toBytes32(((acc % N) + N) % N);
}

/** A commitment as secp256k1_eckey_pubkey_parse reads 33 bytes: 02/03, x below p, on the curve. */
function parseCommitment(c: Uint8Array): Point | null {
  if (c[0] !== 2 && c[0] !== 3) return null;
  try {
    return Point.fromHex(c);
  } catch {
    // Not a point: secp256k1_pedersen_verify_tally returns 0, and Core answers false.
    return null;
  }
}

/**
 * fc::ecc::verify_sum: whether sum(commits) - sum(negCommits) - excess·H is the point at infinity;
 * false as soon as one commitment is not a point (secp256k1_pedersen_verify_tally).
 */
export function verifySum(commits: readonly Uint8Array[], negCommits: readonly Uint8Array[], excess: bigint, onEach: () => void = () => {}): boolean {
  let acc: Point = excess === 0n ? Point.ZERO : excess > 0n ? H.multiply(excess) : H.multiply(-excess).negate();
  for (const c of negCommits) {
    onEach();
    const p = parseCommitment(c);
    if (!p) return false;
    acc = acc.add(p);
  }
  acc = acc.negate();
  for (const c of commits) {
    onEach();
    const p = parseCommitment(c);
    if (!p) return false;
    acc = acc.add(p);
  }
  return acc.equals(Point.ZERO);
}

export interface RangeProofInfo {
  exp: number;
  mantissa: number;
  minValue: bigint;
  maxValue: bigint;
}

/** The smallest proof secp256k1_rangeproof_getheader_impl reads. */
const MIN_PROOF_BYTES = 65;

/** fc::ecc::range_get_info: the proof's header, or null where secp256k1_rangeproof_info fails. */
export async function rangeProofInfo(proof: Uint8Array): Promise<RangeProofInfo | null> {
  // The C code refuses these before reading a byte; the wrapper would refuse an empty one with a TypeError.
  if (proof.length < MIN_PROOF_BYTES) return null;
  const lib = await zkp();
  let info: ReturnType<Secp256k1ZKP['rangeproof']['info']>;
  try {
    info = lib.rangeproof.info(proof);
  } catch (err) {
    if (err instanceof Error && err.message === 'secp256k1_rangeproof_info decode failed') return null;
    throw err;
  }
  return { exp: Number(info.exp), mantissa: Number(info.mantissa), minValue: BigInt(info.minValue), maxValue: BigInt(info.maxValue) };
}

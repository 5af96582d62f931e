// crypto_api handlers (reference §4.6; Core's api.cpp crypto_api over fc::ecc, bitshares-fc
// src/crypto/elliptic_secp256k1.cpp). Arguments convert as fc converts them (src/api/params.ts:
// hex strings padded or cut to their type's size, never refused for their length), and where fc's
// FC_ASSERT fails the error carries its text: the asserted expression as the preprocessor writes it.
//
// blind, blind_sum, verify_sum and range_get_info compute Core's answers (src/chain/crypto/pedersen.ts).
// verify_range, range_proof_sign and verify_range_proof_rewind are refused: the one secp256k1-zkp
// build on the npm registry makes and checks range proofs in the Elements format, which differs from
// the 2015 format Core's proofs have (pedersen.ts says how), so it could neither check Core's proofs
// nor make proofs Core accepts.
import { cryptoApi } from '../../src/api/sets/crypto.js';
import { RpcError, assertError } from '../../src/errors.js';
import { asByteArray, asHexVector, asInt64, asSha256, asUint32, asUint64, asVariantArray } from '../../src/api/params.js';
import { i64, u64 } from '../../src/protocol/fc-numbers.js';
import { blind, blindSum, rangeProofInfo, verifySum } from '../../src/chain/crypto/pedersen.js';
import type { Handler, HandlersFor } from './types.js';
import type { ReplyWriter } from '../reply-writer.js';

const FILE = 'crypto_api';
const COMMITMENT_BYTES = 33;

/** The FC_ASSERTs of fc::ecc, as `#TEST ": "` (whitespace runs of the source become one space). */
const FAILED = {
  blind: 'secp256k1_pedersen_commit( detail::_get_context(), result.data(), (unsigned char*) blind.data(), value ): ',
  blind_sum: 'secp256k1_pedersen_blind_sum( detail::_get_context(), (unsigned char*) result.data(), blinds.data(), blinds_in.size(), non_neg ): ',
  range_get_info:
    'secp256k1_rangeproof_info( detail::_get_context(), (int*)&result.exp, (int*)&result.mantissa, (uint64_t*)&result.min_value, (uint64_t*)&result.max_value, (const unsigned char*)proof.data(), (int)proof.size() ): ',
} as const;

const failed = (method: keyof typeof FAILED): RpcError => new RpcError(assertError(FAILED[method], {}, { file: FILE, method }));

const NOT_SUPPORTED =
  "false: crypto_api.${method} is not supported by this node: its secp256k1-zkp library makes and checks range proofs in the Elements format, which differs from BitShares Core's";

const notSupported =
  (method: keyof typeof cryptoApi.methods): Handler =>
  () => {
    throw new RpcError(assertError(NOT_SUPPORTED, { method }, { file: FILE, method }));
  };

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** Long lists are walked under the call's deadline; a look at the clock every so many items. */
const deadlineEvery = (out: ReplyWriter): (() => void) => {
  let n = 0;
  return () => {
    if (++n % 64 === 0) out.checkDeadline();
  };
};

export const cryptoHandlers = {
  async blind(_ctx, [blindArg, valueArg], out) {
    const factor = asSha256(blindArg);
    const value = asUint64(valueArg);
    const commitment = await blind(factor, value);
    if (!commitment) throw failed('blind');
    out.json(hex(commitment));
  },

  blind_sum(_ctx, [blindsArg, nonNegArg], out) {
    const factors = asVariantArray(blindsArg).map(asSha256);
    const nonNeg = asUint32(nonNegArg);
    const sum = blindSum(factors, nonNeg, deadlineEvery(out));
    if (!sum) throw failed('blind_sum');
    out.json(hex(sum));
  },

  verify_sum(_ctx, [commitsArg, negCommitsArg, excessArg], out) {
    const toCommitment = (v: unknown): Uint8Array => asByteArray(v, COMMITMENT_BYTES);
    const commits = asVariantArray(commitsArg).map(toCommitment);
    const negCommits = asVariantArray(negCommitsArg).map(toCommitment);
    const excess = asInt64(excessArg);
    out.json(verifySum(commits, negCommits, excess, deadlineEvery(out)));
  },

  verify_range: notSupported('verify_range'),
  range_proof_sign: notSupported('range_proof_sign'),
  verify_range_proof_rewind: notSupported('verify_range_proof_rewind'),

  async range_get_info(_ctx, [proofArg], out) {
    const info = await rangeProofInfo(asHexVector(proofArg));
    if (!info) throw failed('range_get_info');
    // fc::ecc::range_proof_info: int64 exp and mantissa, uint64 bounds, in FC_REFLECT order.
    out.json({ exp: i64(info.exp), mantissa: i64(info.mantissa), min_value: u64(info.minValue), max_value: u64(info.maxValue) });
  },
} satisfies HandlersFor<typeof cryptoApi>;

// crypto_api handlers. Every call of this set computes with Pedersen commitments or range proofs
// (fc::ecc over secp256k1-zkp: blind, blind_sum, verify_sum, verify_range, range_proof_sign,
// verify_range_proof_rewind, range_get_info). This node does not carry that library, so each call
// fails with an execution error that says so; the method table still checks argument counts.
import { cryptoApi } from '../../src/api/sets/crypto.js';
import { RpcError, assertError } from '../../src/errors.js';
import type { Handler, HandlersFor } from './types.js';

const NOT_SUPPORTED = 'false: crypto_api.${method} is not supported by this node: it needs Pedersen commitments and range proofs (secp256k1-zkp)';

const notSupported =
  (method: keyof typeof cryptoApi.methods): Handler =>
  () => {
    throw new RpcError(assertError(NOT_SUPPORTED, { method }, { file: 'crypto_api', method }));
  };

export const cryptoHandlers = {
  blind: notSupported('blind'),
  blind_sum: notSupported('blind_sum'),
  verify_sum: notSupported('verify_sum'),
  verify_range: notSupported('verify_range'),
  range_proof_sign: notSupported('range_proof_sign'),
  verify_range_proof_rewind: notSupported('verify_range_proof_rewind'),
  range_get_info: notSupported('range_get_info'),
} satisfies HandlersFor<typeof cryptoApi>;

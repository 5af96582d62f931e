// crypto_api (reference §4.6), in Core's FC_API order. The handlers (workers/handlers/crypto.ts)
// compute blind, blind_sum, verify_sum and range_get_info as Core does, and refuse the three calls
// that make or check range proofs, whose format this node's secp256k1-zkp library does not share.
import { defineApiSet, method, req } from '../types.js';

export const cryptoApi = defineApiSet({
  name: 'crypto',
  accessName: 'crypto_api',
  runsIn: 'pool',
  methods: {
    blind: method(req('blind'), req('value')),
    blind_sum: method(req('blinds_in'), req('non_neg')),
    verify_sum: method(req('commits_in'), req('neg_commits_in'), req('excess')),
    verify_range: method(req('commit'), req('proof')),
    range_proof_sign: method(req('min_value'), req('commit'), req('commit_blind'), req('nonce'), req('base10_exp'), req('min_bits'), req('actual_value')),
    verify_range_proof_rewind: method(req('nonce'), req('commit'), req('proof')),
    range_get_info: method(req('proof')),
  },
});

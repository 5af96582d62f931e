// The signer of `generate`'s signer thread: libsecp256k1 computes what keys.ts computes with noble.
import test from 'ava';
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { loadWasmSigner } from '../src/chain/crypto/wasm-signer.js';
import { isCanonical, recoverPublicKey, publicKeyOf, signCompact } from '../src/chain/crypto/keys.js';
import { formatPublicKey } from '../src/chain/crypto/public-key.js';

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();

test('the wasm signer gives the same canonical compact signatures as keys.ts, canonical retries included', async (t) => {
  const signer = await loadWasmSigner();
  let retried = 0;
  for (let i = 0; i < 300; i++) {
    const key = sha256(`key ${i}`);
    const digest = sha256(`digest ${i}`);
    const ours = signer.signCompact(digest, key);
    t.is(ours, signCompact(digest, key), `signature ${i}`);
    t.true(isCanonical(Buffer.from(ours, 'hex')));
    t.is(recoverPublicKey(digest, ours), publicKeyOf(key));
    // The first nonce (no extra entropy) gives a non-canonical signature about 3 times in 4.
    const first = secp256k1.sign(digest, key, { lowS: true }).toCompactRawBytes();
    if (!isCanonical(Uint8Array.from([0, ...first]))) retried++;
  }
  t.true(retried > 100, `${retried} signatures needed a retry`);
});

test('the wasm signer derives the same compressed public keys as noble', async (t) => {
  const signer = await loadWasmSigner();
  for (let i = 0; i < 200; i++) {
    const key = sha256(`account ${i}`);
    t.is(formatPublicKey(signer.publicKey(key)), formatPublicKey(secp256k1.getPublicKey(key, true)));
  }
});

// src/chain/crypto/pedersen.ts on its own: when the WebAssembly library loads, and the format difference
// that keeps three crypto_api calls refused. The answers themselves are checked over the wire
// against Core's vectors (crypto-api.test.ts).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1';
import secp256k1Zkp from '@vulpemventures/secp256k1-zkp';
import { blind, blindSum, rangeProofInfo, verifySum, zkpLoaded } from '../src/chain/crypto/pedersen.js';
import { fixture } from './helpers/fixtures.js';

interface Vector {
  source: string;
  method: string;
  params: unknown[];
  result?: unknown;
}
const vectors = JSON.parse(readFileSync(fixture('crypto/vectors.json'), 'utf8')) as Vector[];
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

test.serial('the library loads on the first call that needs it, once, and not before', async (t) => {
  t.false(zkpLoaded(), 'importing the module loads nothing');
  // blind_sum and verify_sum do not use it.
  t.truthy(blindSum([bytes('00'.repeat(31) + '01')], 1));
  t.true(verifySum([], [], 0n));
  t.false(zkpLoaded());
  const commitment = await blind(bytes('00'.repeat(31) + '01'), 5n);
  t.is(Buffer.from(commitment!).toString('hex'), '03feb481aa394dde3cf6f97e281734e7911e75cfa77b6ecc5fb15d6cc09592949a');
  t.true(zkpLoaded());
  // A short proof is refused before the library is asked (it would throw a TypeError on an empty one).
  t.is(await rangeProofInfo(new Uint8Array(0)), null);
});

test('blind fails where secp256k1_pedersen_commit does: a factor not below n, the point at infinity', async (t) => {
  t.is(await blind(bytes(secp256k1.CURVE.n.toString(16)), 1n), null);
  t.is(await blind(new Uint8Array(32), 0n), null);
  t.truthy(await blind(new Uint8Array(32), 1n), 'a zero factor alone is fine: the commitment is H');
});

test("the library's range proofs are not Core's: it rejects a proof Core made for the same commitment (why three calls stay refused)", async (t) => {
  // fc's blind_test: OutC1 = blind(sha256("OutB1"), 40) and its proof range_proof_sign(0, OutC1, OutB1, sha256("nonce"), 0, 0, 40).
  const commitment = vectors.find((v) => v.source === 'fc blind_test' && v.method === 'blind' && v.params[1] === 40)!.result as string;
  const proof = vectors.find((v) => v.source === 'fc blind_test' && v.method === 'range_get_info')!.params[0] as string;
  // A CommonJS module: the default import is its exports object, whose `default` is the loader.
  const zkp = await secp256k1Zkp.default();
  // The same point in Elements' encoding (08/09: whether y is a square), and H as an Elements generator.
  const point = secp256k1.ProjectivePoint.fromHex(commitment).toAffine();
  const Fp = secp256k1.CURVE.Fp;
  const square = (y: bigint) => Fp.pow(y, (Fp.ORDER - 1n) / 2n) === 1n;
  const elementsCommitment = bytes((square(point.y) ? '08' : '09') + commitment.slice(2));
  const h = bytes('0b50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0');
  t.deepEqual(zkp.rangeproof.info(bytes(proof)), { exp: '0', mantissa: '6', minValue: '0', maxValue: '63' }, 'the header is read alike');
  t.false(zkp.rangeproof.verify(bytes(proof), elementsCommitment, h), 'a proof Core made does not verify');
  const own = zkp.rangeproof.sign('40', elementsCommitment, h, bytes('0bf2006973ff5b27faf733b2cbfdce32f83f32ed71cd54716382b3741b65b634'), bytes('78377b525757b494427f89014f97d79928f3938d14eb51e20fb5dec9834eb304'));
  t.true(zkp.rangeproof.verify(own, elementsCommitment, h), 'the library checks its own proofs');
  t.notDeepEqual(Buffer.from(own).toString('hex'), proof, 'and makes other bytes from the same inputs');
});

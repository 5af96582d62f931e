// Memo encryption against bitshares-core's memo_test vector (tests/tests/basic_tests.cpp) and against
// bitsharesjs' Aes.encrypt_with_checksum / decrypt_with_checksum (an independent implementation used
// by BitShares wallets), in both directions.

import test from 'ava';
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import bjs from 'bitsharesjs';
import bitsharesWs from 'bitsharesjs-ws';
import {
  decryptMemo,
  decryptMemoMessage,
  decryptMemoWithSecret,
  encryptMemo,
  encryptMemoMessage,
  encryptMemoWithSecret,
  generateMemoNonce,
  memoEncryptor,
  memoNonce,
  sharedSecret,
} from '../src/chain/crypto/memo.js';
import { privateKeyFromWif, publicKeyOf } from '../src/chain/crypto/keys.js';
import { NULL_PUBLIC_KEY } from '../src/chain/fc/fc-json.js';
import { parsePublicKey } from '../src/chain/crypto/public-key.js';
import { DEV_PUB, DEV_WIF } from './helpers/chain.js';

(bitsharesWs as { ChainConfig: { setPrefix(p: string): void } }).ChainConfig.setPrefix('BTS');

// The memo parts of bitsharesjs (ecc/src/aes.js, PrivateKey.js), beyond test/types/bitsharesjs.d.ts.
interface BjsPublicKey {
  toString(prefix?: string): string;
}
interface BjsPrivateKey {
  toPublicKey(): BjsPublicKey;
  get_shared_secret(publicKey: BjsPublicKey | string, legacy?: boolean): Buffer;
}
interface BjsMemo {
  Aes: {
    /** The raw ciphertext of sha256(message)[0..4] ‖ message (a string message is read as latin1). */
    encrypt_with_checksum(privateKey: BjsPrivateKey, publicKey: BjsPublicKey, nonce: string | number, message: Buffer): Buffer;
    /** A string message is read as hex; throws "Invalid key, could not decrypt message(…)". */
    decrypt_with_checksum(privateKey: BjsPrivateKey, publicKey: BjsPublicKey, nonce: string | number, message: Buffer | string): Buffer;
  };
  PrivateKey: { fromWif(wif: string): BjsPrivateKey };
  PublicKey: { fromStringOrThrow(s: string): BjsPublicKey };
}
const { Aes, PrivateKey, PublicKey } = bjs as unknown as BjsMemo;

const sha256 = (s: string | Uint8Array): Buffer => createHash('sha256').update(s).digest();

const dev = privateKeyFromWif(DEV_WIF);
const bob = Uint8Array.from(sha256('bob-memo'));
const eve = Uint8Array.from(sha256('eve-memo'));
const BOB_PUB = publicKeyOf(bob);
const EVE_PUB = publicKeyOf(eve);
const bjsDev = PrivateKey.fromWif(DEV_WIF);
const bjsBob = PrivateKey.fromWif(bjsWifOf(bob));

function bjsWifOf(key: Uint8Array): string {
  const body = Buffer.concat([Buffer.from([0x80]), Buffer.from(key)]);
  return bs58.encode(Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]));
}

const bjsPub = (s: string) => PublicKey.fromStringOrThrow(s);

const TEXTS = ['Hello, world!', '', 'x', '0123456789abcdef', 'exactly twelve', 'Grüße aus Zürich — 世界 🚀🌍', 'a'.repeat(1000)];

test('dev keys are the ones the brief names', (t) => {
  t.is(publicKeyOf(dev), DEV_PUB);
  t.is(bjsDev.toPublicKey().toString(), DEV_PUB);
  t.is(bjsBob.toPublicKey().toString(), BOB_PUB);
});

test('the shared secret is symmetric and matches bitsharesjs get_shared_secret', (t) => {
  const ab = sharedSecret(dev, BOB_PUB);
  t.is(ab.length, 64);
  t.deepEqual(ab, sharedSecret(bob, DEV_PUB));
  t.deepEqual(ab, sharedSecret(bob, parsePublicKey(DEV_PUB)));
  t.is(Buffer.from(ab).toString('hex'), bjsDev.get_shared_secret(bjsPub(BOB_PUB)).toString('hex'));
  t.notDeepEqual(ab, sharedSecret(dev, EVE_PUB));
});

test("bitshares-core memo_test vector: set_message(generate_private_key(\"1\"), …(\"2\"), 'Hello, world!', 12345)", (t) => {
  // tests/tests/basic_tests.cpp memo_test: fc::digest(m) must be 8de72a07…; generate_private_key(seed)
  // is private_key::regenerate(sha256(seed)) (tests/common/database_fixture.cpp).
  const sender = Uint8Array.from(sha256('1'));
  const receiver = Uint8Array.from(sha256('2'));
  const memo = encryptMemo(sender, publicKeyOf(receiver), 'Hello, world!', 12345n);
  t.is(memo.nonce, 12345);
  const message = Buffer.from(memo.message, 'hex');
  t.true(message.length < 128); // one-byte varint length
  // fc::raw::pack(memo_data): from (33) ‖ to (33) ‖ nonce (uint64 LE) ‖ varint length ‖ message
  const nonce = Buffer.alloc(8);
  nonce.writeBigUInt64LE(12345n);
  const packed = Buffer.concat([parsePublicKey(memo.from), parsePublicKey(memo.to), nonce, Buffer.from([message.length]), message]);
  t.is(sha256(packed).toString('hex'), '8de72a07d093a589f574460deb19023b4aff354b561eb34590d9f4629f51dbf3');
  t.is(decryptMemo(receiver, memo), 'Hello, world!');
});

test('round trip: readable by the recipient and by the sender', (t) => {
  for (const text of TEXTS) {
    const memo = encryptMemo(dev, BOB_PUB, text, 987654321n);
    t.is(memo.from, DEV_PUB);
    t.is(memo.to, BOB_PUB);
    t.is(memo.nonce, 987654321);
    t.regex(memo.message, /^[0-9a-f]+$/);
    // 4-byte checksum + text, PKCS#7-padded to whole 16-byte blocks
    t.is(memo.message.length / 2, (Math.floor((4 + Buffer.byteLength(text)) / 16) + 1) * 16);
    t.is(decryptMemo(bob, memo), text);
    t.is(decryptMemo(dev, memo), text);
  }
});

test('our memos decrypt with bitsharesjs, from either side', (t) => {
  for (const text of TEXTS) {
    const memo = encryptMemo(dev, BOB_PUB, text, 42n);
    t.is(Aes.decrypt_with_checksum(bjsBob, bjsPub(DEV_PUB), memo.nonce, memo.message).toString('utf8'), text);
    t.is(Aes.decrypt_with_checksum(bjsDev, bjsPub(BOB_PUB), memo.nonce, memo.message).toString('utf8'), text);
  }
});

test('bitsharesjs memos decrypt with ours, and the ciphertexts are identical', (t) => {
  for (const text of TEXTS) {
    const nonce = '1234567';
    const cipher = Aes.encrypt_with_checksum(bjsBob, bjsPub(DEV_PUB), nonce, Buffer.from(text, 'utf8'));
    const memo = { from: BOB_PUB, to: DEV_PUB, nonce, message: cipher.toString('hex') };
    t.is(decryptMemo(dev, memo), text);
    t.is(decryptMemo(bob, memo), text);
    t.is(encryptMemo(bob, DEV_PUB, text, BigInt(nonce)).message, memo.message);
  }
});

test('a nonce above 2^53 (a decimal string in JSON) matches bitsharesjs', (t) => {
  for (const nonce of ['9007199254740993', '13043867485137706821', '18446744073709551615']) {
    const text = `large nonce ${nonce}`;
    const memo = encryptMemo(dev, BOB_PUB, text, BigInt(nonce));
    t.is(memo.nonce, nonce);
    t.is(Aes.decrypt_with_checksum(bjsBob, bjsPub(DEV_PUB), nonce, memo.message).toString('utf8'), text);
    t.is(Aes.encrypt_with_checksum(bjsDev, bjsPub(BOB_PUB), nonce, Buffer.from(text, 'utf8')).toString('hex'), memo.message);
    t.is(decryptMemo(bob, memo), text);
    // A rounded JS number would name another nonce, hence another key: the exact value matters.
    t.not(encryptMemo(dev, BOB_PUB, text, BigInt(nonce) - 1n).message, memo.message);
  }
});

test('nonces are formatted as fc writes uint64 and validated', (t) => {
  t.is(encryptMemo(dev, BOB_PUB, 'n', 0n).nonce, 0);
  t.is(encryptMemo(dev, BOB_PUB, 'n', 4294967295n).nonce, 4294967295);
  t.is(encryptMemo(dev, BOB_PUB, 'n', 4294967296n).nonce, '4294967296');
  t.is(encryptMemo(dev, BOB_PUB, 'n', '4294967296').nonce, '4294967296');
  t.is(encryptMemo(dev, BOB_PUB, 'n', 77).nonce, 77);
  t.is(memoNonce('18446744073709551615'), 18446744073709551615n);
  t.throws(() => memoNonce(18446744073709551616n), { message: /uint64/ });
  t.throws(() => memoNonce(-1n), { message: /uint64/ });
  t.throws(() => memoNonce(2 ** 60), { message: /safe integer/ });
  t.throws(() => memoNonce('12abc'), { message: /unsigned integer/ });
  t.throws(() => memoNonce(1.5), { message: /safe integer/ });
  // Core's layout: the low 56 bits are microseconds since the epoch
  const n = generateMemoNonce();
  t.true(n > 0n && n <= 18446744073709551615n);
  const micros = BigInt(Date.now()) * 1000n;
  t.true(micros - (n & 0x00ffffffffffffffn) < 10_000_000n);
});

test('a wrong key fails with a clear error', (t) => {
  const memo = encryptMemo(dev, BOB_PUB, 'for bob only', 5n);
  t.throws(() => decryptMemo(eve, memo), { message: /neither the memo's sender .* nor its recipient/ });
  // A key that claims to be a party but is not the one the message was encrypted with
  const forged = { ...memo, from: EVE_PUB };
  const err = t.throws(() => decryptMemo(bob, forged));
  t.regex(err!.message, /wrong key or corrupted memo/);
  // A wrong precomputed secret, and a wrong nonce
  t.throws(() => decryptMemoWithSecret(sharedSecret(eve, BOB_PUB), memo), { message: /wrong key or corrupted memo/ });
  t.throws(() => decryptMemo(bob, { ...memo, nonce: 6 }), { message: /wrong key or corrupted memo/ });
  // bitsharesjs also refuses it
  t.throws(() => Aes.decrypt_with_checksum(bjsBob, bjsPub(EVE_PUB), memo.nonce, memo.message));
});

test('checksum mismatch is reported as such', (t) => {
  // Same key and iv, a valid padding, but the checksum bytes do not match the text.
  const secret = sharedSecret(dev, BOB_PUB);
  const good = encryptMemoMessage(secret, 9n, 'abc');
  t.is(decryptMemoMessage(secret, 9n, good).toString(), 'abc');
  // Flipping a bit of ciphertext block 0 garbles plaintext block 0 (checksum and text start). With
  // three blocks the padding in the last block survives, so the checksum check is what catches it;
  // with one block the padding is garbled too.
  const forged = Buffer.from(good);
  forged[0]! ^= 0x01;
  const long = encryptMemoMessage(secret, 9n, 'a text long enough for two AES blocks');
  const tampered = Buffer.from(long);
  tampered[0]! ^= 0x01;
  t.throws(() => decryptMemoMessage(secret, 9n, tampered), { message: /checksum mismatch/ });
  t.throws(() => decryptMemoMessage(secret, 9n, forged), { message: /wrong key or corrupted memo/ });
});

test('malformed input is rejected clearly', (t) => {
  const memo = encryptMemo(dev, BOB_PUB, 'hi', 1n);
  t.throws(() => decryptMemo(bob, { ...memo, message: 'xyz' }), { message: /hex string/ });
  t.throws(() => decryptMemo(bob, { ...memo, message: memo.message.slice(0, -2) }), { message: /could not decrypt/ });
  t.throws(() => decryptMemo(bob, { ...memo, to: 'BTSnotakey' }), { message: /public key/ });
  t.throws(() => encryptMemo(dev, 'STM6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV', 'hi', 1n), { message: /prefix/ });
  t.throws(() => sharedSecret(dev, NULL_PUBLIC_KEY), { message: /null public key/ });
  t.throws(() => encryptMemoWithSecret(new Uint8Array(32), DEV_PUB, BOB_PUB, 'hi', 1n), { message: /64 bytes/ });
});

test('other prefixes', (t) => {
  const toPub = publicKeyOf(bob, 'TEST');
  const memo = encryptMemo(dev, toPub, 'testnet', 3n, 'TEST');
  t.is(memo.from, publicKeyOf(dev, 'TEST'));
  t.is(decryptMemo(bob, memo, 'TEST'), 'testnet');
  t.is(memo.message, encryptMemo(dev, BOB_PUB, 'testnet', 3n).message);
});

test('an unencrypted memo (from = to = the null key) reads without a key', (t) => {
  // memo.cpp set_message without keys: message = memo_message(0, msg).serialize()
  const message = Buffer.concat([Buffer.alloc(4), Buffer.from('public note ✓', 'utf8')]).toString('hex');
  t.is(decryptMemo(eve, { from: NULL_PUBLIC_KEY, to: NULL_PUBLIC_KEY, nonce: 0, message }), 'public note ✓');
});

test('fast path: precomputed secret and memoEncryptor give the same memos as encryptMemo', (t) => {
  const secret = sharedSecret(dev, BOB_PUB);
  const enc = memoEncryptor(dev, BOB_PUB);
  for (let i = 0; i < 200; i++) {
    const nonce = 1_000_000_000_000n + BigInt(i) * 7919n;
    const text = `payment #${i} ✓`;
    const slow = encryptMemo(dev, BOB_PUB, text, nonce);
    t.deepEqual(encryptMemoWithSecret(secret, DEV_PUB, BOB_PUB, text, nonce), slow);
    t.deepEqual(enc(text, nonce), slow);
    t.is(decryptMemoWithSecret(secret, slow), text);
  }
  // Uint8Array text (raw bytes) is accepted too
  t.is(enc(Buffer.from('bytes', 'utf8'), 1n).message, enc('bytes', 1n).message);
});

// Authority checks after BitShares Core's sign_state / verify_authority / get_required_signatures
// (libraries/protocol/transaction.cpp), with accounts held in memory.
import test from 'ava';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keyAddresses, potentialSignatures, requiredAuthorities, requiredSignatures, signatureKeys, sortKeys, verifyAuthority, type AuthorityJson } from '../src/chain/protocol/authority.js';
import { publicKeyOf, signCompact, privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { formatAddress, parsePublicKey, publicKeyAddress } from '../src/chain/crypto/public-key.js';
import { signingDigest } from '../src/chain/protocol/serializer.js';
import { DEV_PUB, DEV_WIF, op } from './helpers/chain.js';

const newKey = (): { priv: Uint8Array; pub: string } => {
  const priv = secp256k1.utils.randomPrivateKey();
  return { priv, pub: publicKeyOf(priv) };
};
const [A, B, C, D] = [newKey(), newKey(), newKey(), newKey()];

const keys = (threshold: number, ...k: [string, number][]): AuthorityJson => ({ weight_threshold: threshold, account_auths: [], key_auths: k, address_auths: [] });
const accounts = (threshold: number, ...a: [string, number][]): AuthorityJson => ({ weight_threshold: threshold, account_auths: a, key_auths: [], address_auths: [] });

/** An in-memory chain of accounts: instance → {owner, active}. */
function lookups(table: Record<number, { owner: AuthorityJson; active: AuthorityJson }>, maxRecursion = 2) {
  return {
    getActive: (id: number) => table[id]?.active,
    getOwner: (id: number) => table[id]?.owner,
    allowNonImmediateOwner: true,
    maxRecursion,
  };
}

const code = (t: any, fn: () => unknown): { code: number; message: string } => (t.throws(fn) as { wire: { code: number; message: string } }).wire;
const transfer = (from: string) => op.transfer(from, '1.2.9', 1);

test('a key authority is satisfied by its key and not by another one', (t) => {
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: keys(1, [A.pub, 1]) } });
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [A.pub], l));
  const e = code(t, () => verifyAuthority([transfer('1.2.6')], [C.pub], l));
  t.is(e.code, 4010001);
  t.is(e.message, 'Execution error: missing required active authority: Missing Active Authority 1.2.6');
});

test('the owner authority stands in for the active one', (t) => {
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: keys(1, [A.pub, 1]) } });
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [B.pub], l));
});

test('a signature that no authority needed is refused as irrelevant', (t) => {
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: keys(1, [A.pub, 1]) } });
  const e = code(t, () => verifyAuthority([transfer('1.2.6')], [A.pub, C.pub], l));
  t.is(e.code, 4010004);
  t.regex(e.message, /Unnecessary signature\(s\) detected/);
});

test('weights add up to the threshold across keys', (t) => {
  const l = lookups({ 6: { owner: keys(9, [D.pub, 1]), active: keys(2, [A.pub, 1], [B.pub, 1], [C.pub, 2]) } });
  t.throws(() => verifyAuthority([transfer('1.2.6')], [A.pub], l));
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [A.pub, B.pub], l));
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [C.pub], l));
});

test('account authorities nest up to max_authority_depth levels', (t) => {
  const table = {
    6: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['1.2.7', 1]) },
    7: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['1.2.8', 1]) },
    8: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['1.2.10', 1]) },
    10: { owner: keys(1, [D.pub, 1]), active: keys(1, [C.pub, 1]) },
  };
  // 7 → 8 → 10's key: three levels below 6's authority at depth 0.
  t.notThrows(() => verifyAuthority([transfer('1.2.7')], [C.pub], lookups(table, 2)));
  t.is(code(t, () => verifyAuthority([transfer('1.2.6')], [C.pub], lookups(table, 2))).code, 4010001);
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [C.pub], lookups(table, 3)));
});

test('an account authority names accounts by id: another object type is refused as Core converts it to account_id_type', (t) => {
  const table = {
    6: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['1.3.7', 1]) },
    8: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['01.02.010', 1]) },
    10: { owner: keys(1, [D.pub, 1]), active: keys(1, [C.pub, 1]) },
  };
  const e = code(t, () => verifyAuthority([transfer('1.2.6')], [C.pub], lookups(table)));
  t.regex(e.message, /Space\.Type\.0 \(1\.2\.0\) doesn't match expected value 1\.3\.7$/);
  // fc reads each part as a number, so leading zeros name the same account.
  t.notThrows(() => verifyAuthority([transfer('1.2.8')], [C.pub], lookups(table)));
});

test('temp-account (1.2.4) approves for anybody', (t) => {
  const l = lookups({ 6: { owner: keys(1, [D.pub, 1]), active: accounts(1, ['1.2.4', 1]) } });
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [], l));
});

test('the committee account may only propose', (t) => {
  const l = lookups({ 0: { owner: keys(1, [A.pub, 1]), active: keys(1, [A.pub, 1]) } });
  const e = code(t, () => verifyAuthority([transfer('1.2.0')], [A.pub], l));
  t.is(e.code, 4010006);
});

test('an owner update needs the owner authority, not the active one', (t) => {
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: keys(1, [A.pub, 1]) } });
  const update = [6, { account: '1.2.6', owner: keys(1, [C.pub, 1]) }];
  t.deepEqual(requiredAuthorities([update]), { active: [], owner: [6], other: [] });
  const e = code(t, () => verifyAuthority([update], [A.pub], l));
  t.is(e.code, 4010002);
  t.regex(e.message, /Missing Owner Authority 1\.2\.6/);
  t.notThrows(() => verifyAuthority([update], [B.pub], l));
  t.deepEqual(requiredAuthorities([[6, { account: '1.2.6' }]]), { active: [6], owner: [], other: [] });
});

test('required signatures pick the available keys that satisfy the authorities', (t) => {
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: keys(2, [A.pub, 1], [C.pub, 1]) }, 7: { owner: keys(1, [D.pub, 1]), active: keys(1, [D.pub, 1]) } });
  t.deepEqual(requiredSignatures([transfer('1.2.6')], [], { ...l, availableKeys: [A.pub, C.pub, D.pub] }), sortKeys([A.pub, C.pub]));
  // Not enough active keys: the owner key satisfies it; Core keeps A too, as it does not minimise.
  t.deepEqual(requiredSignatures([transfer('1.2.6')], [], { ...l, availableKeys: [A.pub, B.pub] }), sortKeys([A.pub, B.pub]));
  // Keys that already signed are not asked for again.
  t.deepEqual(requiredSignatures([transfer('1.2.6')], [A.pub], { ...l, availableKeys: [A.pub, C.pub] }), [C.pub]);
  t.deepEqual(requiredSignatures([transfer('1.2.6'), transfer('1.2.7')], [], { ...l, availableKeys: [A.pub, C.pub, D.pub] }), sortKeys([A.pub, C.pub, D.pub]));
});

test('potential signatures are the keys of every authority looked at', (t) => {
  const l = lookups({
    6: { owner: keys(1, [B.pub, 1]), active: { ...accounts(2, ['1.2.7', 1]), key_auths: [[A.pub, 1]] } },
    7: { owner: keys(1, [D.pub, 1]), active: keys(1, [C.pub, 1]) },
  });
  t.deepEqual(potentialSignatures([transfer('1.2.6')], [], l).keys, sortKeys([A.pub, B.pub, C.pub, D.pub]));
});

test('an address authority is satisfied by the key behind the address', (t) => {
  const address = formatAddress(publicKeyAddress(parsePublicKey(DEV_PUB)));
  t.true(keyAddresses(DEV_PUB).includes(address));
  t.is(keyAddresses(DEV_PUB).length, 5);
  const l = lookups({ 6: { owner: keys(1, [B.pub, 1]), active: { weight_threshold: 1, account_auths: [], key_auths: [], address_auths: [[address, 1]] } } });
  t.notThrows(() => verifyAuthority([transfer('1.2.6')], [DEV_PUB], l));
  t.deepEqual(potentialSignatures([transfer('1.2.6')], [], l).addresses, [address]);
});

test('signature keys are recovered from the signing digest; a repeated signer is refused', (t) => {
  const chainId = 'ab'.repeat(32);
  const trx = { ref_block_num: 1, ref_block_prefix: 2, expiration: '2026-01-01T00:01:00', operations: [transfer('1.2.6')], extensions: [], signatures: [] as string[] };
  const sig = signCompact(signingDigest(chainId, trx), privateKeyFromWif(DEV_WIF));
  const sigB = signCompact(signingDigest(chainId, trx), B.priv);
  t.deepEqual(signatureKeys(chainId, { ...trx, signatures: [sig, sigB] }), [DEV_PUB, B.pub]);
  t.is(code(t, () => signatureKeys(chainId, { ...trx, signatures: [sig, sig] })).code, 4010005);
  t.deepEqual(signatureKeys(chainId, trx), []);
});

test('an operation code Core does not define is refused with a clear error', (t) => {
  t.regex(code(t, () => requiredAuthorities([[78, {}]])).message, /Unable to set tag '78' when the number of supported tags is 78/);
});

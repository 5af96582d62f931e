// HTLCs (htlc_create 49, htlc_redeem 50, htlc_extend 52; the virtual htlc_redeemed 51 and
// htlc_refund 53) over the wire, against a real node producing blocks on demand, checked against
// BitShares Core's htlc_evaluator.cpp, protocol/htlc.cpp and db_update.cpp's clear_expired_htlcs:
// the 1.16.x object as Core serves it, the four hash algorithms, the committee's limits from the
// genesis' chain parameters, the reads (get_htlc, get_htlc_by_from, get_htlc_by_to, list_htlcs,
// get_full_accounts), history, expiry refunds, and Core's refusals.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLED_GENESIS } from '../src/chain/node/genesis.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { DEV_WIF } from './helpers/chain.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { accountCreate, devnet, newKey } from './helpers/devnet-ops.js';

const NATHAN = '1.2.6';
const ZERO = { amount: 0, asset_id: '1.3.0' };
const DEV_KEY = privateKeyFromWif(DEV_WIF);
const MAX_TIMEOUT = 30 * 86400;

type Obj = Record<string, any>;

/** The bundled genesis with other chain parameter extensions (the committee's HTLC options), as Core's genesis carries them. */
function genesisWithExtensions(t: ExecutionContext, extensions: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-htlc-genesis-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const g = JSON.parse(readFileSync(BUNDLED_GENESIS, 'utf8'));
  g.initial_parameters.extensions = extensions;
  const file = path.join(dir, 'genesis.json');
  writeFileSync(file, JSON.stringify(g, null, 2));
  return file;
}

/** A small preimage limit, so that the refusal of a longer one can be shown. */
const htlcGenesis = (t: ExecutionContext): string => genesisWithExtensions(t, { updatable_htlc_options: { max_timeout_secs: MAX_TIMEOUT, max_preimage_size: 1024 } });

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();
const ripemd160 = (b: Buffer) => createHash('ripemd160').update(b).digest();
const HASHES: [string, (b: Buffer) => Buffer][] = [
  ['ripemd160', ripemd160],
  ['sha1', (b) => createHash('sha1').update(b).digest()],
  ['sha256', sha256],
  ['hash160', (b) => ripemd160(sha256(b))],
];

const htlcCreate = (from: string, to: string, amount: number, preimage: Buffer, o: { algorithm?: number; size?: number; claim?: number; asset?: string } = {}): OperationJson => {
  const algorithm = o.algorithm ?? 2;
  return [
    49,
    {
      fee: ZERO,
      from,
      to,
      amount: { amount, asset_id: o.asset ?? '1.3.0' },
      preimage_hash: [algorithm, HASHES[algorithm]![1](preimage).toString('hex')],
      preimage_size: o.size ?? preimage.length,
      claim_period_seconds: o.claim ?? 3600,
      extensions: {},
    },
  ];
};
const htlcRedeem = (htlc: string, redeemer: string, preimage: Buffer): OperationJson => [50, { fee: ZERO, htlc_id: htlc, redeemer, preimage: preimage.toString('hex'), extensions: [] }];
const htlcExtend = (htlc: string, issuer: string, seconds: number): OperationJson => [52, { fee: ZERO, htlc_id: htlc, update_issuer: issuer, seconds_to_add: seconds, extensions: [] }];

async function chain(t: ExecutionContext) {
  const d = await devnet(t, { 'genesis-json': htlcGenesis(t) });
  await d.generate(1);
  const alice = newKey();
  await d.broadcast([accountCreate('alice', { weight_threshold: 1, account_auths: [], key_auths: [[alice.pub, 1]], address_auths: [] }, { weight_threshold: 1, account_auths: [], key_auths: [[alice.pub, 1]], address_auths: [] }, alice.pub)], [DEV_KEY]);
  const aliceId = (await d.call('database', 'lookup_account_names', [['alice']]))[0].id as string;
  await d.broadcast([[0, { fee: ZERO, from: NATHAN, to: aliceId, amount: { amount: 100_000_000, asset_id: '1.3.0' }, extensions: [] }]], [DEV_KEY]);
  await d.generate(1);
  return { ...d, alice: { ...alice, id: aliceId } };
}

test('htlc_create locks the amount in a 1.16.x object that every read finds before the block; htlc_redeem with the preimage pays the recipient, with htlc_redeemed in history', async (t) => {
  const x = await chain(t);
  const preimage = Buffer.from('foobar');
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 16, true]);
  const nathanBefore = await x.balance(NATHAN);
  const create = htlcCreate(NATHAN, x.alice.id, 10_000, preimage, { algorithm: 0 });
  await x.broadcast([create], [DEV_KEY]);
  const fee = Number((create[1].fee as Obj).amount);
  t.true(fee > 0);
  t.is(await x.balance(NATHAN), nathanBefore - 10_000 - fee, 'the amount and the fee left the sender before the block');
  const expected = {
    id: next,
    transfer: { from: NATHAN, to: x.alice.id, amount: 10_000, asset_id: '1.3.0' },
    conditions: { hash_lock: { preimage_hash: [0, ripemd160(preimage).toString('hex')], preimage_size: 6 }, time_lock: { expiration: fcTime(head + 3600) } },
  };
  t.deepEqual(await x.call('database', 'get_htlc', [next]), expected);
  t.deepEqual(await x.object(next), expected);
  t.deepEqual(await x.call('database', 'get_htlc_by_from', ['nathan', '1.16.0', 10]), [expected]);
  t.deepEqual(await x.call('database', 'get_htlc_by_to', ['alice', '1.16.0', 10]), [expected]);
  t.deepEqual(await x.call('database', 'get_htlc_by_to', ['nathan', '1.16.0', 10]), []);
  t.deepEqual(await x.call('database', 'list_htlcs', ['1.16.0', 10]), [expected]);
  const full = await x.call('database', 'get_full_accounts', [['alice'], false]);
  t.deepEqual(full[0][1].htlcs_to, [expected]);
  t.deepEqual(full[0][1].htlcs_from, []);

  await x.generate(1);
  const [created] = await x.history(x.alice.id);
  t.deepEqual(created!.result, [1, next]);
  t.is(created!.op[0], 49, 'the recipient sees the htlc_create');

  // Redeemed by nathan (any account may redeem with the preimage), paid to alice.
  const aliceBefore = await x.balance(x.alice.id);
  await x.broadcast([htlcRedeem(next, NATHAN, preimage)], [DEV_KEY]);
  t.is(await x.balance(x.alice.id), aliceBefore + 10_000, 'paid before the block');
  t.is(await x.call('database', 'get_htlc', [next]), null);
  t.deepEqual(await x.call('database', 'list_htlcs', ['1.16.0', 10]), []);
  await x.generate(1);
  const [redeemed] = await x.history(x.alice.id);
  t.deepEqual(redeemed!.op, [
    51,
    {
      fee: ZERO,
      htlc_id: next,
      from: NATHAN,
      to: x.alice.id,
      redeemer: NATHAN,
      amount: { amount: 10_000, asset_id: '1.3.0' },
      htlc_preimage_hash: [0, ripemd160(preimage).toString('hex')],
      htlc_preimage_size: 6,
      preimage: preimage.toString('hex'),
    },
  ]);
  t.true(redeemed!.is_virtual);
  t.is(redeemed!.virtual_op, 1);
  const nathanOps = (await x.history(NATHAN)).map((o) => o.op[0]);
  t.deepEqual(nathanOps.slice(0, 2), [51, 50], 'the redeemer sees htlc_redeem, then as the sender htlc_redeemed');
});

test('each hash algorithm (ripemd160, sha1, sha256, hash160) checks its preimage; a wrong preimage or size is refused with Core\'s error', async (t) => {
  const x = await chain(t);
  const preimage = Buffer.from('the secret');
  for (const [algorithm, [name]] of HASHES.entries()) {
    const id = await x.call('database', 'get_next_object_id', [1, 16, true]);
    await x.broadcast([htlcCreate(NATHAN, x.alice.id, 1_000, preimage, { algorithm })], [DEV_KEY]);
    t.regex((await x.tryBroadcast([htlcRedeem(id, x.alice.id, Buffer.from('the secreT'))], [x.alice.priv]))!, /Provided preimage does not generate correct hash\./, name);
    t.regex((await x.tryBroadcast([htlcRedeem(id, x.alice.id, Buffer.from('the secret!'))], [x.alice.priv]))!, /op\.preimage\.size\(\) == htlc_obj->conditions\.hash_lock\.preimage_size: Preimage size mismatch\./, name);
    t.is(await x.tryBroadcast([htlcRedeem(id, x.alice.id, preimage)], [x.alice.priv]), undefined, name);
    t.is(await x.call('database', 'get_htlc', [id]), null, name);
  }
  // A preimage size of 0 leaves the size unchecked (BSIP64): only the hash counts.
  const id = await x.call('database', 'get_next_object_id', [1, 16, true]);
  await x.broadcast([htlcCreate(NATHAN, x.alice.id, 1_000, preimage, { size: 0 })], [DEV_KEY]);
  t.is(await x.tryBroadcast([htlcRedeem(id, x.alice.id, preimage)], [x.alice.priv]), undefined);
});

test("htlc_create and htlc_extend are refused with Core's errors; htlc_extend moves the expiration and its index", async (t) => {
  const x = await chain(t);
  const preimage = Buffer.from('abc');
  const refused = (ops: OperationJson[], keys = [DEV_KEY]) => x.tryBroadcast(ops, keys);
  t.regex((await refused([htlcCreate(NATHAN, x.alice.id, 0, preimage)]))!, /amount\.amount > 0: HTLC amount should be greater than zero/);
  t.regex((await refused([htlcCreate(NATHAN, x.alice.id, 1, preimage, { claim: MAX_TIMEOUT + 1 })]))!, /o\.claim_period_seconds <= htlc_options->max_timeout_secs: HTLC Timeout exceeds allowed length/);
  t.regex((await refused([htlcCreate(NATHAN, x.alice.id, 1, preimage, { size: 1025 })]))!, /o\.preimage_size <= htlc_options->max_preimage_size: HTLC preimage length exceeds allowed length/);
  t.regex((await refused([htlcCreate(x.alice.id, NATHAN, 200_000_000, preimage)], [x.alice.priv]))!, /d\.get_balance\( o\.from, o\.amount\.asset_id\) >= \(o\.amount\): Insufficient funds/);
  t.regex((await refused([htlcRedeem('1.16.77', NATHAN, preimage)]))!, /Unable to find Object 1\.16\.77/);

  const head = parseFcTime((await x.head()).time);
  const id = await x.call('database', 'get_next_object_id', [1, 16, true]);
  await x.broadcast([htlcCreate(NATHAN, x.alice.id, 5, preimage, { claim: 100 })], [DEV_KEY]);
  t.regex((await refused([htlcExtend(id, x.alice.id, 10)], [x.alice.priv]))!, /o\.update_issuer == htlc_obj->transfer\.from: HTLC may only be extended by its creator\./);
  t.regex((await refused([htlcExtend(id, NATHAN, MAX_TIMEOUT)]))!, /Extension pushes contract too far into the future/);
  await x.broadcast([htlcExtend(id, NATHAN, 86400)], [DEV_KEY]);
  t.is((await x.call('database', 'get_htlc', [id])).conditions.time_lock.expiration, fcTime(head + 100 + 86400), 'seen before the block');
  await x.generate(1);
  t.is((await x.history(NATHAN))[0]!.op[0], 52);
});

test('an HTLC not redeemed by its expiration goes back to its sender at the block that reaches it, with htlc_refund in history', async (t) => {
  const x = await chain(t);
  const preimage = Buffer.from('late');
  const head = parseFcTime((await x.head()).time);
  const id = await x.call('database', 'get_next_object_id', [1, 16, true]);
  await x.broadcast([htlcCreate(x.alice.id, NATHAN, 12_345, preimage, { claim: 3 })], [x.alice.priv]);
  const locked = await x.balance(x.alice.id);
  while (parseFcTime((await x.head()).time) < head + 3) await x.generate(1);
  t.is(await x.call('database', 'get_htlc', [id]), null);
  t.is(await x.balance(x.alice.id), locked + 12_345);
  const [refund] = await x.history(x.alice.id);
  t.deepEqual(refund!.op, [
    53,
    {
      fee: ZERO,
      htlc_id: id,
      to: x.alice.id,
      original_htlc_recipient: NATHAN,
      htlc_amount: { amount: 12_345, asset_id: '1.3.0' },
      htlc_preimage_hash: [2, sha256(preimage).toString('hex')],
      htlc_preimage_size: 4,
    },
  ]);
  t.true(refund!.is_virtual);
  t.deepEqual(await x.call('database', 'get_htlc_by_from', ['alice', '1.16.0', 10]), []);
  t.regex((await x.tryBroadcast([htlcRedeem(id, NATHAN, preimage)], [DEV_KEY]))!, /Unable to find Object/);
});

test('the bundled devnet genesis sets the committee\'s HTLC options, so htlc_create and htlc_redeem work on the devnet', async (t) => {
  const d = await devnet(t);
  await d.generate(1);
  t.deepEqual((await d.call('database', 'get_global_properties', [])).parameters.extensions, { updatable_htlc_options: { max_timeout_secs: 2592000, max_preimage_size: 1024000 } });
  const preimage = Buffer.from('foobar');
  const id = await d.call('database', 'get_next_object_id', [1, 16, true]);
  await d.broadcast([htlcCreate(NATHAN, '1.2.0', 10_000, preimage, { claim: 2592000 })], [DEV_KEY]);
  t.is((await d.object(id))!.transfer.amount, 10_000);
  await d.broadcast([htlcRedeem(id, NATHAN, preimage)], [DEV_KEY]);
  t.is(await d.object(id), null);
  t.regex((await d.tryBroadcast([htlcCreate(NATHAN, '1.2.0', 1, preimage, { claim: 2592001 })], [DEV_KEY]))!, /HTLC Timeout exceeds allowed length/);
});

test('a chain whose parameters carry no HTLC options refuses htlc_create as Core does', async (t) => {
  const d = await devnet(t, { 'genesis-json': genesisWithExtensions(t, {}) });
  await d.generate(1);
  t.regex((await d.tryBroadcast([htlcCreate(NATHAN, '1.2.0', 1, Buffer.from('x'))], [DEV_KEY]))!, /htlc_options: HTLC Committee options are not set\./);
});

test('an HTLC can be proposed: the proposal creates it when approved', async (t) => {
  const x = await chain(t);
  const head = parseFcTime((await x.head()).time);
  const proposal = await x.call('database', 'get_next_object_id', [1, 10, true]);
  const htlc = await x.call('database', 'get_next_object_id', [1, 16, true]);
  const create = htlcCreate(x.alice.id, NATHAN, 1_000, Buffer.from('p'));
  await x.broadcast([[22, { fee: ZERO, fee_paying_account: NATHAN, expiration_time: fcTime(head + 600), proposed_ops: [{ op: create }], extensions: [] }]], [DEV_KEY]);
  await x.broadcast([[23, { fee: ZERO, fee_paying_account: x.alice.id, proposal, active_approvals_to_add: [x.alice.id], active_approvals_to_remove: [], owner_approvals_to_add: [], owner_approvals_to_remove: [], key_approvals_to_add: [], key_approvals_to_remove: [], extensions: [] }]], [x.alice.priv]);
  t.is(await x.object(proposal), null);
  t.is((await x.call('database', 'get_htlc', [htlc]) as Obj).transfer.from, x.alice.id);
});

// crypto_api against a real node, over HTTP and WebSocket (reference §4.6). The vectors in
// test/fixtures/crypto/vectors.json are calls with the answers BitShares Core's own secp256k1-zkp
// (the commit bitshares-fc vendors, bd067945) gives through fc::ecc, computed once outside this
// repository by a small program making fc::ecc's library calls; each vector's `source` says where
// its inputs come from (fc's blind_test, Core's confidential_test, or derived for a branch).
import test, { type ExecutionContext } from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rpc, connectWs } from './helpers/clients.js';
import { tempDir } from './helpers/temp.js';
import { fixture, startTestNode } from './helpers/node.js';

interface Vector {
  source: string;
  method: string;
  params: unknown[];
  result?: unknown;
  fails?: true;
}
const vectors = JSON.parse(readFileSync(fixture('crypto/vectors.json'), 'utf8')) as Vector[];

/** fc::ecc's FC_ASSERTs, as Core reports them: the asserted call, as the preprocessor writes it. */
const ASSERTS: Record<string, string> = {
  blind: 'secp256k1_pedersen_commit( detail::_get_context(), result.data(), (unsigned char*) blind.data(), value ): ',
  blind_sum: 'secp256k1_pedersen_blind_sum( detail::_get_context(), (unsigned char*) result.data(), blinds.data(), blinds_in.size(), non_neg ): ',
  range_get_info:
    'secp256k1_rangeproof_info( detail::_get_context(), (int*)&result.exp, (int*)&result.mantissa, (uint64_t*)&result.min_value, (uint64_t*)&result.max_value, (const unsigned char*)proof.data(), (int)proof.size() ): ',
};

/** A node whose access file grants every client crypto_api. */
async function openNode(t: ExecutionContext) {
  const file = path.join(tempDir(t, 'graphene-rpc-access-'), 'api-access.json');
  writeFileSync(file, JSON.stringify({ permission_map: [['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: ['database_api', 'crypto_api'] }]] }));
  return startTestNode(t, { 'api-access': file });
}

const label = (v: Vector): string => `${v.source}: ${v.method}(${JSON.stringify(v.params).slice(0, 120)})`;

function check(t: ExecutionContext, v: Vector, reply: any): void {
  if (v.fails) {
    t.is(reply.error?.code, 10, label(v));
    t.is(reply.error?.message, `Execution error: Assert Exception: ${ASSERTS[v.method]}`, label(v));
    t.is(reply.error?.data?.stack?.[0]?.format, ASSERTS[v.method], label(v));
  } else {
    t.deepEqual(reply.result, v.result, label(v));
  }
}

test('every vector is answered over HTTP as BitShares Core computes it', async (t) => {
  t.true(vectors.length > 60);
  for (const m of ['blind', 'blind_sum', 'verify_sum', 'range_get_info']) t.true(vectors.some((v) => v.method === m && v.source !== 'derived'), `${m} has a vector from Core's tests`);
  const { httpUrl } = await openNode(t);
  for (const v of vectors) check(t, v, await rpc(httpUrl, 'crypto', v.method, v.params));
});

test('every vector is answered over one WebSocket session, by its API id', async (t) => {
  const { wsUrl } = await openNode(t);
  const ws = await connectWs(t, wsUrl);
  t.true((await ws.call({ id: 1, method: 'call', params: [1, 'login', ['', '']] })).result);
  const api = (await ws.call({ id: 2, method: 'call', params: [1, 'crypto', []] })).result as number;
  let id = 10;
  for (const v of vectors) {
    const reply = await ws.call({ id: ++id, method: 'call', params: [api, v.method, v.params] });
    t.is(reply.id, id);
    check(t, v, reply);
  }
});

test('results are fc types: 33-byte commitments and 32-byte factors as lower-case hex, uint64 bounds past 2^32 as strings', async (t) => {
  const { httpUrl } = await openNode(t);
  const c = await rpc(httpUrl, 'crypto', 'blind', ['00'.repeat(31) + '01', 5]);
  t.is(c.result, '03feb481aa394dde3cf6f97e281734e7911e75cfa77b6ecc5fb15d6cc09592949a');
  const s = await rpc(httpUrl, 'crypto', 'blind_sum', [['00'.repeat(31) + '02', '00'.repeat(31) + '03'], 1]);
  // 2 - 3 = n - 1
  t.is(s.result, 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140');
  const big = vectors.find((v) => v.method === 'range_get_info' && typeof (v.result as { max_value?: unknown })?.max_value === 'string')!;
  const info = await rpc(httpUrl, 'crypto', 'range_get_info', big.params);
  t.deepEqual(Object.keys(info.result), ['exp', 'mantissa', 'min_value', 'max_value']);
  t.is(info.result.max_value, '8589934591');
});

test('bad arguments get fc\'s conversion errors, in argument order', async (t) => {
  const { httpUrl } = await openNode(t);
  const call = (method: string, params: unknown[]) => rpc(httpUrl, 'crypto', method, params);
  const hexError = (c: string) => ({ code: 0, message: `Execution error: unspecified: Invalid hex character '${c}'` });
  const pick = (r: any) => ({ code: r.error?.code, message: r.error?.message });
  const one = '00'.repeat(31) + '01';
  const commit = '03feb481aa394dde3cf6f97e281734e7911e75cfa77b6ecc5fb15d6cc09592949a';

  // Not hex: fc::from_hex's plain exception, naming the first bad character it reads.
  t.deepEqual(pick(await call('blind', ['zz' + one.slice(2), 1])), hexError('z'));
  t.deepEqual(pick(await call('blind', [one.slice(0, 62) + '0G', 1])), hexError('G'));
  t.deepEqual(pick(await call('blind_sum', [[one, 'x1'], 1])), hexError('x'));
  t.deepEqual(pick(await call('verify_sum', [[commit], ['03' + 'q'.repeat(64)], 0])), hexError('q'));
  t.deepEqual(pick(await call('range_get_info', ['00 1'])), hexError(' '));
  // A blinding factor is read whole (then cut to 32 bytes); a commitment only as far as its 33 bytes.
  t.deepEqual(pick(await call('blind', [one + 'zz', 1])), hexError('z'));
  t.deepEqual(await call('verify_sum', [[commit + 'zz'], [commit], 0]), { id: 1, result: true });
  const data = (await call('blind', ['0y', 1])).error.data;
  t.is(data.name, 'exception');
  t.deepEqual([data.stack[0].format, data.stack[0].data], ["Invalid hex character '${c}'", { c: 'y' }]);

  // Lists must be arrays (variant::get_array), null included; strings cannot be objects.
  t.deepEqual(pick(await call('blind_sum', [one, 1])), { code: 7, message: 'Execution error: Bad Cast: Invalid cast from string_type to Array' });
  t.deepEqual(pick(await call('verify_sum', [null, [], 0])), { code: 7, message: 'Execution error: Bad Cast: Invalid cast from null_type to Array' });
  t.deepEqual(pick(await call('verify_sum', [[], { a: 1 }, 0])), { code: 7, message: 'Execution error: Bad Cast: Invalid cast from object_type to Array' });
  t.deepEqual(pick(await call('blind', [{ blind: one }, 1])), { code: 7, message: 'Execution error: Bad Cast: Invalid cast from object_type to string' });
  t.deepEqual(pick(await call('range_get_info', [[1, 2]])), { code: 7, message: 'Execution error: Bad Cast: Invalid cast from array_type to string' });
  // The first bad argument is the one reported.
  t.deepEqual(pick(await call('blind', ['zz', 'x'])), hexError('z'));
  t.deepEqual(pick(await call('blind', [one, 'x'])), { code: 4, message: "Execution error: Parse Error: Couldn't parse uint64_t" });
  t.deepEqual(pick(await call('verify_sum', [[], [], '1.5'])), { code: 4, message: "Execution error: Parse Error: Couldn't parse int64_t" });
  // Numbers are lenient as everywhere in fc: numeric strings, null as 0, -1 as the largest uint64.
  t.deepEqual(await call('blind', [one, '5']), { id: 1, result: commit });
  t.deepEqual(await call('verify_sum', [[], [], null]), { id: 1, result: true });
  t.deepEqual((await call('blind', [one, -1])).result, (await call('blind', [one, '18446744073709551615'])).result);

  // Too few arguments: the method table's count check, as before.
  for (const [method, params] of [['blind', [one]], ['blind_sum', [[]]], ['verify_sum', [[], []]], ['range_get_info', []]] as [string, unknown[]][]) {
    t.regex((await call(method, params)).error.message, /too few arguments passed to method/, method);
  }
});

test('verify_range, range_proof_sign and verify_range_proof_rewind are refused: the library\'s range proofs are not Core\'s', async (t) => {
  const { httpUrl } = await openNode(t);
  const proof = vectors.find((v) => v.method === 'range_get_info' && v.source === 'fc blind_test')!.params[0];
  const commit = '0334e2cef59e2dfec6d368c712a92fd2c0ff32ca4248165a4a9c57740d24f1c7b1';
  const nonce = '78377b525757b494427f89014f97d79928f3938d14eb51e20fb5dec9834eb304';
  const calls: [string, unknown[]][] = [
    ['verify_range', [commit, proof]],
    ['range_proof_sign', [0, commit, '0bf2006973ff5b27faf733b2cbfdce32f83f32ed71cd54716382b3741b65b634', nonce, 0, 0, 40]],
    ['verify_range_proof_rewind', [nonce, commit, proof]],
  ];
  for (const [method, params] of calls) {
    const r = await rpc(httpUrl, 'crypto', method, params);
    t.is(r.error.code, 10, method);
    t.is(
      r.error.message,
      `Execution error: Assert Exception: false: crypto_api.${method} is not supported by this node: its secp256k1-zkp library makes and checks range proofs in the Elements format, which differs from BitShares Core's`,
      method,
    );
    t.regex((await rpc(httpUrl, 'crypto', method, params.slice(0, -1))).error.message, /too few arguments passed to method/, method);
  }
});

test('crypto_api needs its access name', async (t) => {
  const { httpUrl } = await startTestNode(t);
  t.is((await rpc(httpUrl, 'crypto', 'blind', ['00'.repeat(31) + '01', 5])).error.message, 'Execution error: Assert Exception: is_allowed: Access denied');
});

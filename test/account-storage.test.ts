// The custom_operations plugin (src/chain/plugins/account-storage.ts) through the chain writer, against
// BitShares Core's plugin source: how `data` unpacks (fc::raw), what account_storage_map::validate
// and custom_generic_evaluator::do_apply accept, and what each kind of bad payload leaves behind.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { packStorageMap, unpackStorageMap } from '../src/chain/plugins/account-storage.js';
import type { OperationJson } from '../src/chain/protocol/types.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const payload = (catalog: string, keyValues: [string, string | null][], remove = false): string => hex(packStorageMap({ remove, catalog, keyValues }));
const fee = (o: OperationJson): OperationJson => {
  o[1].fee = { amount: 200_000, asset_id: '1.3.0' };
  return o;
};
const store = (payer: string, data: string, o: { requiredAuths?: string[]; id?: number } = {}): OperationJson => fee(op.custom(payer, data, o));

function chain(t: ExecutionContext) {
  const c = makeChain(t);
  c.block([op.accountCreate('alice')]);
  c.block([op.transfer(NATHAN, ALICE, 10_000_000)]);
  /** Every account storage object, as stored. */
  const objects = (): Record<string, unknown>[] => [...c.store.objects.getRange({ start: [7, 0, 0], end: [7, 0, Number.MAX_SAFE_INTEGER] })].map(({ value }) => JSON.parse(value.toString('utf8')));
  const raw = (instance: number): string | undefined => c.store.objects.get([7, 0, instance])?.toString('utf8');
  return { ...c, objects, raw };
}

test('data unpacks as fc::raw does: tag 0, a 0/1 bool, varint-length strings, keys sorted with the first of equals kept, trailing bytes ignored', (t) => {
  const packed = packStorageMap({ remove: false, catalog: 'settings', keyValues: [['language', '"en"']] });
  t.is(hex(packed), '0000' + '0873657474696e6773' + '01' + '086c616e6775616765' + '01' + '04' + '22656e22');
  const text = (b: Uint8Array | null): string | null => (b === null ? null : Buffer.from(b).toString('utf8'));
  const read = (h: string) => {
    const m = unpackStorageMap(Buffer.from(h, 'hex'));
    return m && { remove: m.remove, catalog: text(m.catalog), keyValues: m.keyValues.map(([k, v]) => [text(k), text(v)]) };
  };
  t.deepEqual(read(hex(packed)), { remove: false, catalog: 'settings', keyValues: [['language', '"en"']] });
  t.deepEqual(read(hex(packed) + 'ffff'), { remove: false, catalog: 'settings', keyValues: [['language', '"en"']] });
  // a varint need not be minimal: 0x80 0x00 is 0
  t.deepEqual(read('800001' + '0163' + '00'), { remove: true, catalog: 'c', keyValues: [] });
  // three pairs b, a, b (null): sorted, and the second b dropped
  t.deepEqual(read('0000' + '0163' + '03' + '0162' + '01' + '0131' + '0161' + '01' + '0132' + '0162' + '00'), { remove: false, catalog: 'c', keyValues: [['a', '2'], ['b', '1']] });
  t.is(read('01' + hex(packed).slice(2)), undefined, 'the static_variant has one alternative');
  t.is(read('0002' + '0163' + '00'), undefined, 'a bool is 0 or 1');
  t.is(read(hex(packed).slice(0, -2)), undefined, 'a string cut short');
  t.is(read('0000' + '80808005'), undefined, 'a string of 10 MiB is refused before it is read');
  t.is(read('00'), undefined);
  t.is(read('ffffffffffffffffffff01'), undefined, 'a varint over 64 bits');
});

test('a payload creates one 7.0.x object per key, in key order, for the payer; null values have no value field', (t) => {
  const c = chain(t);
  const applied = c.block([store(ALICE, payload('settings', [['theme', '"dark"'], ['avatar', null], ['size', '{"w":1,"w":2.5,"big":4294967296}']]), { requiredAuths: [NATHAN], id: 7 })]);
  t.deepEqual(applied.transactions[0]!.operation_results, [[0, {}]]);
  t.deepEqual(applied.pluginNotes, []);
  t.deepEqual(c.objects(), [
    { id: '7.0.0', account: ALICE, catalog: 'settings', key: 'avatar' },
    { id: '7.0.1', account: ALICE, catalog: 'settings', key: 'size', value: { w: '2.50000000000000000', big: '4294967296' } },
    { id: '7.0.2', account: ALICE, catalog: 'settings', key: 'theme', value: 'dark' },
  ]);
  // as fc writes the value back: both "w" keys, the double and the large integer as strings
  t.is(c.raw(1), '{"id":"7.0.1","account":"1.2.7","catalog":"settings","key":"size","value":{"w":1,"w":"2.50000000000000000","big":"4294967296"}}');
});

test('a later payload replaces values in place, a null value unsets one, and remove deletes only keys that exist', (t) => {
  const c = chain(t);
  c.block([store(ALICE, payload('settings', [['a', '1'], ['b', '2'], ['c', '3']]))]);
  c.block([store(ALICE, payload('settings', [['b', '"two"'], ['c', null], ['d', '4']]))]);
  t.deepEqual(c.objects(), [
    { id: '7.0.0', account: ALICE, catalog: 'settings', key: 'a', value: 1 },
    { id: '7.0.1', account: ALICE, catalog: 'settings', key: 'b', value: 'two' },
    { id: '7.0.2', account: ALICE, catalog: 'settings', key: 'c' },
    { id: '7.0.3', account: ALICE, catalog: 'settings', key: 'd', value: 4 },
  ]);
  const removed = c.block([store(ALICE, payload('settings', [['a', null], ['nothere', '"x"'], ['d', 'not json']], true))]);
  t.deepEqual(removed.changes.removed.sort(), ['7.0.0', '7.0.3']);
  t.deepEqual(c.objects().map((o) => o.key), ['b', 'c']);
  // another account's keys and another catalog are untouched by alice's removal
  c.block([store(NATHAN, payload('settings', [['b', '1']]))], [store(ALICE, payload('other', [['b', '1']]))]);
  c.block([store(ALICE, payload('settings', [['b', null]], true))]);
  t.deepEqual(c.objects().map((o) => [o.id, o.account, o.catalog, o.key]), [
    ['7.0.2', ALICE, 'settings', 'c'],
    ['7.0.4', NATHAN, 'settings', 'b'],
    ['7.0.5', ALICE, 'other', 'b'],
  ]);
});

test('payloads the plugin cannot use change nothing, and the operation, its fee and its history stand', (t) => {
  const c = chain(t);
  const before = c.store.objects.get([2, 6, 7])!.toString('utf8');
  const bad = [
    '', // no data: not looked at
    'deadbeef', // not a custom_plugin_operation
    '01' + payload('c', [['k', '1']]).slice(2), // another alternative
    payload('', [['k', '1']]), // catalog.length() > 0
    payload('x'.repeat(201), [['k', '1']]), // catalog.length() <= CUSTOM_OPERATIONS_MAX_KEY_SIZE
  ];
  const applied = c.block(...bad.map((data) => [store(ALICE, data)]));
  t.deepEqual(
    applied.transactions.map((trx) => trx.operation_results),
    bad.map(() => [[0, {}]]),
  );
  t.deepEqual(c.objects(), []);
  t.deepEqual(
    applied.pluginNotes.map((n) => [n.trxInBlock, n.message]),
    [
      [1, 'the data is not a custom_plugin_operation'],
      [2, 'the data is not a custom_plugin_operation'],
      [3, 'catalog.length() <= CUSTOM_OPERATIONS_MAX_KEY_SIZE && catalog.length() > 0'],
      [4, 'catalog.length() <= CUSTOM_OPERATIONS_MAX_KEY_SIZE && catalog.length() > 0'],
    ],
  );
  const stats = JSON.parse(c.store.objects.get([2, 6, 7])!.toString('utf8'));
  t.is(stats.total_ops, JSON.parse(before).total_ops + bad.length);
  t.is(Number(stats.lifetime_fees_paid), Number(JSON.parse(before).lifetime_fees_paid) + 200_000 * bad.length);
});

test('a key over 200 bytes or a value fc cannot parse is skipped alone; a value that ends early stops the rest of the operation', (t) => {
  const c = chain(t);
  const long = 'k'.repeat(201);
  const applied = c.block(
    [store(ALICE, payload('skips', [['a', '1'], ['b', 'value'], [long, '1'], ['k'.repeat(200), '2'], ['z', '3']]))],
    // keys apply in byte order: a, b, c; b's value is an unterminated string (eof_exception)
    [store(ALICE, payload('stops', [['c', '3'], ['a', '1'], ['b', '"open']]))],
    [store(ALICE, payload('stops-in-object', [['a', '{"x":"open'], ['b', '2']]))],
  );
  t.deepEqual(
    c.objects().map((o) => [o.catalog, (o.key as string).length > 10 ? `k×${(o.key as string).length}` : o.key]),
    [
      ['skips', 'a'],
      ['skips', 'k×200'],
      ['skips', 'z'],
      ['stops', 'a'],
      ['stops-in-object', 'b'],
    ],
  );
  t.deepEqual(
    applied.pluginNotes.map((n) => [n.trxInBlock, n.message]),
    [
      [0, '2 key(s) skipped: longer than 200 bytes, or a value that is not JSON'],
      [1, "a value ends early (eof_exception: unexpected end of file); the keys after it are not applied"],
      [2, '1 key(s) skipped: longer than 200 bytes, or a value that is not JSON'],
    ],
  );
});

test('a key created and removed in one block leaves nothing, and the next object takes the next id', (t) => {
  const c = chain(t);
  const applied = c.block([store(ALICE, payload('c', [['k', '1']]))], [store(ALICE, payload('c', [['k', null]], true))]);
  t.deepEqual(applied.changes.created.filter((id) => id.startsWith('7.')), []);
  t.deepEqual(applied.changes.removed, []);
  c.block([store(ALICE, payload('c', [['k', '2']]))]);
  t.deepEqual(c.objects(), [{ id: '7.0.1', account: ALICE, catalog: 'c', key: 'k', value: 2 }]);
});

test('custom_operation refuses a fee that is not positive, as its validate() does', (t) => {
  const c = chain(t);
  const zero = op.custom(ALICE, payload('c', [['k', '1']]));
  t.throws(() => c.block([zero]), { message: /fee\.amount > 0/ });
  t.deepEqual(c.objects(), []);
});

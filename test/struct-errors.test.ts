// Struct input that does not fit its type (issue 11): the error is fc's, and the same whichever call
// reads the transaction, get_transaction_hex or broadcast_transaction, as Core reads both with one
// from_variant. Requests are written by hand so that bare long literals reach the node as sent.
import test from 'ava';
import { startTestNode } from './helpers/node.js';
import { httpPost } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';

/** The error of `method` called with a transaction whose JSON text is `trxText`. */
async function errorOf(url: string, set: string, method: string, trxText: string) {
  const reply = JSON.parse((await httpPost(url, `{"id":1,"method":"call","params":["${set}","${method}",[${trxText}]]}`)).text);
  return reply.error as { code: number; message: string; data: { code: number; name: string; stack: { format: string; data: unknown }[] } } | undefined;
}

test('an operation, an amount or an extension that does not fit gets fc\'s error, the same from get_transaction_hex and broadcast_transaction', async (t) => {
  const { httpUrl } = await startTestNode(t, { 'block-interval': '0' });
  const good = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', 1000)], [DEV_WIF]);
  const goodText = JSON.stringify(good);
  const withFee = (amount: string) => goodText.replace(/"fee":\{"amount":[^,]*,/, `"fee":{"amount":${amount},`);
  t.not(withFee('"x"'), goodText, 'the fee is where the test edits it');
  const cases: { what: string; trx: string; code: number; message: string; stack: [string, unknown][] }[] = [
    {
      what: 'an operation sent as an object',
      trx: JSON.stringify({ ...good, operations: [{}] }),
      code: 7,
      message: 'Execution error: Bad Cast: Invalid cast from object_type to Array',
      stack: [['Invalid cast from ${type} to Array', { type: 'object_type' }]],
    },
    {
      what: 'a fee amount lexical_cast refuses',
      trx: withFee('"12a"'),
      code: 4,
      message: "Execution error: Parse Error: Couldn't parse int64_t",
      stack: [["Couldn't parse int64_t", {}]],
    },
    {
      what: 'a transaction that is no object',
      trx: '[]',
      code: 7,
      message: "Execution error: Bad Cast: Invalid cast from type 'array_type' to Object",
      stack: [["Invalid cast from type '${type}' to Object", { type: 'array_type' }]],
    },
  ];
  for (const c of cases) {
    for (const [set, method] of [['database', 'get_transaction_hex'], ['network_broadcast', 'broadcast_transaction']] as const) {
      const e = await errorOf(httpUrl, set, method, c.trx);
      t.is(e?.code, c.code, `${c.what}: ${method}`);
      t.is(e?.message, c.message, `${c.what}: ${method}`);
      t.is(e?.data.code, c.code);
      t.deepEqual(e?.data.stack.map((m) => [m.format, m.data]), c.stack, `${c.what}: ${method}`);
    }
  }

  // A bare 9223372036854775808 is a uint64 variant that as_int64 wraps to INT64_MIN: both read it so.
  const hex = async (trxText: string) => JSON.parse((await httpPost(httpUrl, `{"id":1,"method":"call","params":["database","get_transaction_hex",[${trxText}]]}`)).text).result as string;
  t.is(await hex(withFee('9223372036854775808')), await hex(withFee('"-9223372036854775808"')));
  // Signed over the wrapped value: the client's bare literal is the same bytes, so the signature holds.
  const signedWrapped = JSON.stringify(await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', 1000)], [DEV_WIF], { fee: '-9223372036854775808' }));
  const bare = signedWrapped.replace('"fee":{"amount":"-9223372036854775808"', '"fee":{"amount":9223372036854775808');
  t.not(bare, signedWrapped);
  const wrapped = await errorOf(httpUrl, 'network_broadcast', 'broadcast_transaction', bare);
  t.regex(wrapped?.message ?? '', /Insufficient Fee Paid: -9223372036854775808 paid/, 'the wrapped fee reaches the fee check, as in Core');

  // extensions [[0,{}]]: one void_t, in the packed bytes and so in the transaction's identity
  const plainHex = await hex(goodText);
  const extHex = await hex(JSON.stringify({ ...good, extensions: [[0, {}]] }));
  const signatures = 1 + 65; // the count and one signature after the extensions
  t.is(extHex, plainHex.slice(0, -(signatures * 2) - 2) + '0100' + plainHex.slice(-(signatures * 2)));
});

// src/api/unkept.ts is the one list of calls about subsystems this chain does not keep. These tests
// hold the node, the handler sources and the docs to it: each listed call answers as listed on a
// fresh chain, no other database_api handler writes a fixed empty answer, and docs/api/core-compatibility.md's
// table names exactly the listed calls.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { UNKEPT, type Unkept } from '../src/api/unkept.js';
import { GETTER_SETS, setFor } from '../src/api/registry.js';
import { runsIn } from '../src/api/types.js';
import { makeChain, op } from './helpers/chain.js';
import { httpPost } from './helpers/clients.js';
import { fixture } from './helpers/node.js';

const root = fixture('../..');

/** Every (set, method) of the table, as "set.method". */
const listed = (): string[] => Object.entries(UNKEPT).flatMap(([set, methods]) => Object.keys(methods).map((m) => `${set}.${m}`));

/**
 * Arguments that pass every check of each listed call on the chain below (nathan 1.2.6, alice
 * 1.2.7, TEST 1.3.1), so that the answer seen is the call's "nothing".
 */
const ARGS: Record<string, unknown[]> = {
  'database.get_top_voters': [10],
  'database.list_liquidity_pools': [],
  'database.get_liquidity_pools_by_asset_a': ['BTS'],
  'database.get_liquidity_pools_by_asset_b': ['TEST'],
  'database.get_liquidity_pools_by_one_asset': ['BTS'],
  'database.get_liquidity_pools_by_both_assets': ['BTS', 'TEST'],
  'database.get_liquidity_pools': [['1.19.0', '1.19.1']],
  'database.get_liquidity_pools_by_share_asset': [['BTS', 'TEST', 'NOPE']],
  'database.get_liquidity_pools_by_owner': ['nathan'],
  'database.list_samet_funds': [],
  'database.get_samet_funds_by_owner': ['nathan'],
  'database.get_samet_funds_by_asset': ['BTS'],
  'database.list_credit_offers': [],
  'database.get_credit_offers_by_owner': ['nathan'],
  'database.get_credit_offers_by_asset': ['BTS'],
  'database.list_credit_deals': [],
  'database.get_credit_deals_by_offer_id': ['1.21.0'],
  'database.get_credit_deals_by_offer_owner': ['nathan'],
  'database.get_credit_deals_by_borrower': ['alice'],
  'database.get_credit_deals_by_debt_asset': ['BTS'],
  'database.get_credit_deals_by_collateral_asset': ['TEST'],
  'database.get_blinded_balances': [['02'.padEnd(66, '0')]],
  'database.get_withdraw_permissions_by_giver': ['nathan', '1.12.0', 10],
  'database.get_withdraw_permissions_by_recipient': ['alice', '1.12.0', 10],
  'database.list_tickets': [],
  'database.get_tickets_by_account': ['nathan'],
  'history.get_liquidity_pool_history': ['1.19.0'],
  'history.get_liquidity_pool_history_by_sequence': ['1.19.0'],
};

/** Whether `result` is the listed answer for a call made with `args`. */
function answers(entry: Unkept, args: unknown[], result: unknown): boolean {
  switch (entry.answer) {
    case '[]':
      return Array.isArray(result) && result.length === 0;
    case 'null':
      return result === null;
    case '0':
      return result === 0;
    case 'null for each':
      return Array.isArray(result) && result.length === (args[0] as unknown[]).length && result.every((x) => x === null);
  }
}

test('every listed call answers as listed on a fresh chain, after its checks pass', async (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  chain.block([op.assetCreate('TEST')]);
  const node = await chain.serve();
  const call = async (set: string, method: string, params: unknown[]) =>
    JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: [set, method, params] }))).text) as { result?: unknown; error?: { message: string } };
  t.deepEqual(Object.keys(ARGS).sort(), listed().sort(), 'this test has arguments for exactly the listed calls');
  for (const [set, methods] of Object.entries(UNKEPT)) {
    for (const [method, entry] of Object.entries(methods) as [string, Unkept][]) {
      const args = ARGS[`${set}.${method}`] ?? [];
      const reply = await call(set, method, args);
      t.is(reply.error, undefined, `${set}.${method}: ${reply.error?.message}`);
      t.true(answers(entry, args, reply.result), `${set}.${method} answered ${JSON.stringify(reply.result)}, listed as ${entry.answer}`);
    }
  }
});

test('every listed method exists in its API set, and runs in the worker pool', (t) => {
  for (const [set, methods] of Object.entries(UNKEPT)) {
    const spec = setFor(set, 'current');
    t.truthy(spec, set);
    for (const m of Object.keys(methods)) {
      t.truthy(spec && Object.hasOwn(spec.methods, m), `${set}.${m}`);
      t.is(spec && runsIn(spec, spec.methods[m]!), 'pool', `${set}.${m} runs in the front end`);
    }
  }
});

test('no database_api handler writes a fixed empty answer except through the table', (t) => {
  const dir = `${root}/workers/handlers/database`;
  // An unconditional statement of a handler body (four spaces in) that writes [], null or 0, or a
  // list of nulls: such an answer must come from answerNothing/answerNullForEach and the table.
  const fixed = /^ {4}(?:return void )?out\.(?:text\('(?:\[\]|null|0)'\)|json\((?:\[\]|null|0)\)|raw\(NULL\));$|=> out\.raw\(NULL\)\)/;
  let files = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    files++;
    readFileSync(`${dir}/${f}`, 'utf8')
      .split('\n')
      .forEach((line, i) => t.false(fixed.test(line), `${f}:${i + 1}: ${line.trim()}`));
  }
  t.true(files > 5);
});

test('docs/api/core-compatibility.md\'s table of calls answered as "no such objects" names exactly the listed calls', (t) => {
  const readme = readFileSync(`${root}/docs/api/core-compatibility.md`, 'utf8');
  const start = readme.indexOf('### Answered as "no such objects"');
  t.true(start >= 0);
  const end = readme.indexOf('\n### ', start + 1);
  const byAccess = new Map(Object.values(GETTER_SETS).map((s) => [s.accessName, s.name]));
  const named: string[] = [];
  for (const row of readme.slice(start, end).split('\n').filter((l) => l.startsWith('| `'))) {
    const [, setCell, functions] = row.split('|');
    const set = byAccess.get(setCell!.trim().replace(/`/g, ''));
    t.truthy(set, row);
    for (const m of functions!.matchAll(/`([a-z0-9_]+)`/g)) named.push(`${set}.${m[1]}`);
  }
  t.deepEqual([...named].sort(), listed().sort());
  t.is(new Set(named).size, named.length, 'a call is named twice');
});

// Rate limits, per-user quotas from the access file, and login throttling, against a real server.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestNode } from './helpers/node.js';
import { basic, connectWs, httpPost, callText } from './helpers/clients.js';
import { tempDir } from './helpers/temp.js';
import { captureLogs, type CapturedLogs } from './helpers/logs.js';
import { hashPassword, parseAccessFile } from '../src/access.js';
import { LOGIN_FIRST_DELAY_MS } from '../src/tuning.js';


/**
 * Per-user quotas and the login throttle are counted by each serving process (README "Scaling
 * out"), so the tests of their counts run on a node of one process whatever TEST_SERVING_PROCESSES
 * says: a second session may reach a second process.
 */
const ONE_PROCESS = { processes: '1' };

/** An access file with a user `limited` (password "pw") who has quotas, and the open wildcard. */
function accessFile(t: import('ava').ExecutionContext, limits: Record<string, number>): string {
  const file = path.join(tempDir(t), 'api-access.json');
  const entry = { ...hashPassword('pw'), allowed_apis: ['database_api', 'history_api'], ...limits };
  writeFileSync(file, JSON.stringify({ permission_map: [['limited', entry], ['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: ['database_api'] }]] }));
  return file;
}

test('the access file\'s per-user limits are read; Core\'s own fields are untouched, a bad value stops start-up', (t) => {
  const policy = parseAccessFile(
    JSON.stringify({ permission_map: [['a', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: [], max_calls_per_second: 5, max_connections: 2, call_budget_ms: 100 }]] }),
    'f.json',
  );
  t.deepEqual(policy.users.get('a')?.limits, { maxCallsPerSecond: 5, maxConnections: 2, callBudgetMs: 100 });
  t.throws(() => parseAccessFile(JSON.stringify({ permission_map: [['a', { password_hash_b64: '*', allowed_apis: [], max_connections: -1 }]] }), 'f.json'), {
    message: /permission_map\[0\] \("a"\): "max_connections" must be a positive integer/,
  });
});

test('max-calls-per-second: a WebSocket connection over its rate gets -32013 for the extra calls and stays up', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'max-calls-per-second': '50', 'max-pending-calls-per-connection': '10000' });
  const ws = await connectWs(t, wsUrl);
  for (let i = 0; i < 200; i++) ws.send(callText(i, 'get_chain_id', []));
  const replies = await Promise.all(Array.from({ length: 200 }, () => ws.next().then((m) => JSON.parse(m))));
  const limited = replies.filter((r) => r.error);
  t.true(limited.length >= 100, `${limited.length} of 200 refused`);
  t.deepEqual(limited[0].error, { code: -32013, message: 'Too many calls (50 per second on this connection: --max-calls-per-second)' });
  t.true(replies.filter((r) => r.result).length >= 50, 'a second\'s worth passed');
  // Another connection has a bucket of its own.
  const other = await connectWs(t, wsUrl);
  t.is(typeof (await other.call({ id: 1, method: 'get_chain_id', params: [] })).result, 'string');
});

test('max_calls_per_second of an access entry is shared by all its sessions', async (t) => {
  const { wsUrl } = await startTestNode(t, { ...ONE_PROCESS, 'api-access': accessFile(t, { max_calls_per_second: 10 }), 'max-calls-per-second': '0' });
  const a = await connectWs(t, wsUrl, { authorization: basic('limited', 'pw') });
  const b = await connectWs(t, wsUrl, { authorization: basic('limited', 'pw') });
  for (let i = 0; i < 10; i++) a.send(callText(i, 'get_chain_id', []));
  for (let i = 0; i < 10; i++) b.send(callText(i, 'get_chain_id', []));
  const all = [...(await Promise.all(Array.from({ length: 10 }, () => a.next()))), ...(await Promise.all(Array.from({ length: 10 }, () => b.next())))].map((m) => JSON.parse(m));
  const limited = all.filter((r) => r.error);
  t.true(limited.length >= 8, `${limited.length} of 20 refused`);
  t.is(limited[0].error.message, 'Too many calls (10 per second for this user: max_calls_per_second)');
  // The wildcard entry has no such limit.
  const anon = await connectWs(t, wsUrl);
  for (let i = 0; i < 30; i++) anon.send(callText(i, 'get_chain_id', []));
  const anonReplies = await Promise.all(Array.from({ length: 30 }, () => anon.next().then((m) => JSON.parse(m))));
  t.true(anonReplies.every((r) => r.result));
});

test('max_connections of an access entry: a login past it is refused with -32014 and gets no API sets', async (t) => {
  const { wsUrl, httpUrl } = await startTestNode(t, { ...ONE_PROCESS, 'api-access': accessFile(t, { max_connections: 1 }) });
  const first = await connectWs(t, wsUrl);
  t.true((await first.call({ id: 1, method: 'call', params: [1, 'login', ['limited', 'pw']] })).result);
  const second = await connectWs(t, wsUrl);
  const refused = await second.call({ id: 1, method: 'call', params: [1, 'login', ['limited', 'pw']] });
  t.deepEqual(refused.error, { code: -32014, message: 'Too many connections (1 for this user: max_connections)' });
  t.regex(JSON.stringify(await second.call({ id: 2, method: 'call', params: [1, 'history', []] })), /Access denied/);
  // Logging out frees the place.
  await first.call({ id: 3, method: 'call', params: [1, 'logout', []] });
  t.true((await second.call({ id: 4, method: 'call', params: [1, 'login', ['limited', 'pw']] })).result);
  // HTTP Basic at connect counts too: over the limit the request gets the wildcard's nothing.
  const overHttp = await httpPost(httpUrl, JSON.stringify({ id: 5, method: 'call', params: ['history', 'get_account_history', ['1.2.0', '1.11.0', 1, '1.11.0']] }), { authorization: basic('limited', 'pw') });
  t.regex(overHttp.text, /Access denied/);
});

test('call_budget_ms of an access entry replaces --call-budget-ms for its sessions', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'api-access': accessFile(t, { call_budget_ms: 10 }), 'max-pending-calls-per-connection': '100000', 'max-calls-per-second': '0' });
  const ws = await connectWs(t, wsUrl, { authorization: basic('limited', 'pw') });
  // 2,000 heavy calls, one at a time, take far longer than 10 ms: the later ones are over the user's budget.
  for (let i = 0; i < 2000; i++) ws.send(callText(i, 'get_full_accounts', [['nathan'], false]));
  const replies = await Promise.all(Array.from({ length: 2000 }, () => ws.next(20_000).then((m) => JSON.parse(m))));
  const over = replies.filter((r) => r.error);
  t.true(over.length > 0);
  t.is(over[0].error.message, 'Call exceeded its time budget (10 ms: --call-budget-ms)');
});

/** The waits the node applied to login attempts, in order, from its own log lines. */
const delays = (logs: CapturedLogs, user?: string): number[] =>
  logs.lines.filter((l) => l.msg === 'login attempt delayed' && (user === undefined || l.user === user)).map((l) => l.delayMs as number);

// The node's log says which attempts waited and how long: the checks read that rather than the
// wall clock, which a loaded machine stretches. The lower bounds on elapsed time are kept: a wait
// cannot end early.
test('login throttling: after the free failures an address waits longer at each attempt; others are not slowed', async (t) => {
  const logs = captureLogs('info');
  const { wsUrl } = await startTestNode(t, { ...ONE_PROCESS, 'api-access': accessFile(t, {}), 'login-failures-before-delay': '3', 'login-delay-max-ms': '2000' }, logs.log);
  const guesser = await connectWs(t, wsUrl);
  const attempt = async (password: string) => {
    const started = Date.now();
    const r = await guesser.call({ id: 1, method: 'call', params: [1, 'login', ['limited', password]] });
    return { result: r.result, ms: Date.now() - started };
  };
  for (let i = 0; i < 3; i++) t.false((await attempt('wrong')).result);
  t.deepEqual(delays(logs), [], 'the free failures are not delayed');
  const fourth = await attempt('wrong');
  t.is(fourth.result, false);
  t.true(fourth.ms >= LOGIN_FIRST_DELAY_MS, `4th attempt waited ${fourth.ms} ms`);
  const fifth = await attempt('wrong');
  t.true(fifth.ms >= 2 * LOGIN_FIRST_DELAY_MS, `5th attempt waited ${fifth.ms} ms`);
  // The right password waits the same: the delay says nothing about it, and then it succeeds.
  const right = await attempt('pw');
  t.true(right.result);
  t.deepEqual(delays(logs), [LOGIN_FIRST_DELAY_MS, 2 * LOGIN_FIRST_DELAY_MS, 4 * LOGIN_FIRST_DELAY_MS]);
  t.is(logs.lines.filter((l) => l.msg === 'login failed').length, 5, 'each failure is logged, never the password');
  t.false(JSON.stringify(logs.lines).includes('wrong'));
  // Another client is not slowed: its calls and its own login wait for nothing.
  const other = await connectWs(t, wsUrl);
  t.is(typeof (await other.call({ id: 1, method: 'get_chain_id', params: [] })).result, 'string');
  t.is(delays(logs).length, 3, 'no wait for the other client');
});

test('login throttling: unknown and listed user names wait alike, and HTTP Basic guesses count as login calls do', async (t) => {
  // No wildcard entry: any name but `limited` fails, as a wrong password for `limited` does.
  const onlyLimited = path.join(tempDir(t), 'api-access.json');
  writeFileSync(onlyLimited, JSON.stringify({ permission_map: [['limited', { ...hashPassword('pw'), allowed_apis: ['database_api'] }]] }));
  const delaysFor = async (user: string): Promise<number[]> => {
    const logs = captureLogs('info');
    const { httpUrl } = await startTestNode(t, { ...ONE_PROCESS, 'api-access': onlyLimited, 'login-failures-before-delay': '2', 'login-delay-max-ms': '2000' }, logs.log);
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      await httpPost(httpUrl, callText(1, 'get_chain_id', []), { authorization: basic(user, 'wrong') });
      if (i === 2) t.true(Date.now() - started >= LOGIN_FIRST_DELAY_MS, 'the third guess waited');
    }
    t.is(logs.lines.filter((l) => l.msg === 'login failed' && l.via === 'basic').length, 3);
    return delays(logs, user);
  };
  const unknown = await delaysFor('nobody');
  const listed = await delaysFor('limited');
  t.deepEqual(unknown, [LOGIN_FIRST_DELAY_MS], 'two free failures, then the first wait');
  t.deepEqual(listed, unknown, 'a listed name waits exactly as an unknown one');
});

test('a pipelined login and getter run in order: the getter sees the login', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'api-access': accessFile(t, {}) });
  const ws = await connectWs(t, wsUrl);
  ws.send(callText(1, 'call', [1, 'login', ['limited', 'pw']]));
  ws.send(callText(2, 'call', [1, 'history', []]));
  t.is(await ws.next(), '{"id":1,"result":true}');
  t.is(await ws.next(), '{"id":2,"result":2}');
});

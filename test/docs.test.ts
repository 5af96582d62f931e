// The README and config/config.ini are derived from the option table; these tests keep them so.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildConfig, OPTIONS } from '../src/config.js';
import ini from 'ini';
import { fixture } from './helpers/node.js';

const root = fixture('../..');

test('the README documents every option', (t) => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  for (const o of OPTIONS) t.true(readme.includes(`\`--${o.name}\``), `--${o.name} is missing from the README`);
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

// Every shell command in the README is run: the quick start's HTTP and WebSocket examples and
// hash-password's here, against a real node, with their output compared to the lines the README
// shows under them; every other command is listed in RUN_ELSEWHERE with the test or CI step that
// runs it. A command added to the README without either fails the last test.

interface ReadmeCommand {
  /** the heading it is under */
  readonly section: string;
  readonly command: string;
  /** the `# ` lines right below it, without the `# `: its output (`...` or `…` stand for anything) */
  readonly expected: string[];
}

/** The commands of the README's ```sh blocks; a command whose single quotes span lines is one command. */
function readmeCommands(): ReadmeCommand[] {
  const lines = readFileSync(`${root}/README.md`, 'utf8').split('\n');
  const out: ReadmeCommand[] = [];
  let section = '';
  let inSh = false;
  let pending: string[] = [];
  let last: { section: string; command: string; expected: string[] } | undefined;
  for (const line of lines) {
    if (!inSh && /^#+ /.test(line)) section = line.replace(/^#+ /, '');
    if (line.startsWith('```')) {
      inSh = !inSh && line === '```sh';
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
    last = { section, command: text, expected: [] };
    out.push(last);
    pending = [];
  }
  return out;
}

/** Commands run elsewhere, by where. Long runs (a full benchmark, a 2,000,000-operation chain) are run by their tests with smaller sizes. */
const RUN_ELSEWHERE: Record<string, string> = {
  'npm ci && npm start      # builds, creates ./data from config/genesis.json, serves on 127.0.0.1:8090': '.ci/run (npm ci); test/cli.test.ts serves as npm start does',
  'npm test                 # builds and runs the test suite': '.ci/run',
  'npm ci && npm pack                                   # in a checkout: graphene-rpc-0.1.0.tgz': 'test/install.test.ts',
  'mkdir -p /opt/graphene-rpc && cd /opt/graphene-rpc': 'test/install.test.ts (a temporary folder)',
  'npm install --omit=dev /path/to/graphene-rpc-0.1.0.tgz': 'test/install.test.ts',
  'npx graphene-rpc serve --data-dir /var/lib/graphene-rpc': 'test/install.test.ts (the installed bin, a temporary data directory)',
  'npm run -s build && node dist/src/cli.js hash-password              # prompts, without echo': 'test/cli.test.ts (from a pipe: the prompt needs a terminal)',
  'npm ci': '.ci/run',
  'npm start                                  # terminal 1: the devnet, a block every 3 s': 'test/example.test.ts (a node with 1 s blocks)',
  'node examples/devnet-transfer.mjs          # terminal 2': 'test/example.test.ts',
  'mkdir -p /tmp/btsdex-flow && (cd /tmp/btsdex-flow && npm init -y && npm install btsdex@0.7.11)': 'test/btsdex.test.ts (replays the frames; btsdex is not installed)',
  'npm start -- --data-dir /tmp/btsdex-devnet --block-interval 1            # terminal 1: a new devnet': 'test/btsdex.test.ts (a node of the bundled genesis, blocks as captured)',
  'NODE_PATH=/tmp/btsdex-flow/node_modules node examples/btsdex-bot-flow.cjs ws://127.0.0.1:8090/ws': 'test/btsdex.test.ts (the frames this script exchanged)',
  'npm run generate -- --data-dir data-big           # 100,000 accounts, 2,000,000 transfers (several minutes)': 'test/generate.test.ts (a smaller chain)',
  'npm run generate -- --data-dir data-small --accounts 2000 --operations 50000 --seed 7': 'test/generate.test.ts (a smaller chain)',
  'npm run generate -- --data-dir data-market --accounts 2000 --operations 50000 --orders 20000': 'test/generate.test.ts (a smaller chain with --orders)',
  'npm start -- --data-dir data-big': 'test/bench.test.ts (serves a generated chain)',
  'npm run bench                      # full run: generates the default chain once (bench/data/), then ~10 minutes': 'test/bench.test.ts (--tiny)',
  'npm run bench -- --quick           # under two minutes: a 2,000-account chain, shorter runs': 'test/bench.test.ts (--tiny)',
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

/** The sections whose commands this file runs against a node started with the sample access file. */
const RUN_HERE = new Set(['Over HTTP', 'Over WebSocket', 'Access file']);

function matches(output: string, expected: string[]): boolean {
  const pattern = expected
    .join('\n')
    .split(/\.\.\.|…/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(output.trim());
}

test('the README\'s HTTP, WebSocket and hash-password commands work as written and print what it shows', async (t) => {
  const { execFile } = await import('node:child_process');
  const { startTestNode } = await import('./helpers/node.js');
  const node = await startTestNode(t, { 'api-access': `${root}/config/api-access.example.json` });
  const commands = readmeCommands().filter((c) => RUN_HERE.has(c.section) && !(c.command in RUN_ELSEWHERE));
  t.true(commands.length >= 6, commands.map((c) => c.command).join('\n'));
  for (const { command, expected } of commands) {
    // The README's node listens on 127.0.0.1:8090; this one on an ephemeral port.
    const text = command.replaceAll('127.0.0.1:8090', `127.0.0.1:${node.port}`);
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile('sh', ['-c', text], { cwd: root, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr })),
    );
    t.is(r.code, 0, `${command}\n${r.stderr}`);
    t.false(/"error":/.test(r.stdout), `${command}\n${r.stdout}`);
    if (expected.length > 0) t.true(matches(r.stdout, expected), `${command}\nprinted:\n${r.stdout}\nREADME shows:\n${expected.join('\n')}`);
    else t.not(r.stdout.trim(), '', command);
  }
});

test('every shell command in the README is run here or listed with where it runs, and the list names only commands the README has', (t) => {
  const commands = readmeCommands();
  const unrun = commands.filter((c) => !RUN_HERE.has(c.section) && !(c.command in RUN_ELSEWHERE)).map((c) => `${c.section}: ${c.command}`);
  t.deepEqual(unrun, []);
  const texts = new Set(commands.map((c) => c.command));
  t.deepEqual(Object.keys(RUN_ELSEWHERE).filter((c) => !texts.has(c)), []);
});

test('the README shows the installed command\'s refusal line as the node prints it', async (t) => {
  const { supportedRuntimes } = await import('../src/transport/uws.js');
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  t.true(readme.includes(`this node runs on ${supportedRuntimes()} (…)`));
});

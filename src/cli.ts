#!/usr/bin/env node
// graphene-rpc's command line: `serve` and `hash-password`. Option names are witness_node's.
import { Command, Option, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import ini from 'ini';
import { read } from 'read';
import { OPTIONS, buildConfig, ConfigError } from './config.js';
import { hashPassword, AccessFileError } from './access.js';
import { GenesisError } from './chain/genesis.js';
import { createLogger } from './log.js';
import { startNode } from './main.js';
import { runGenerate } from './generate-command.js';

/** Reads an ini file whose keys are long option names (sections are not used). */
function readIni(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`config file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const parsed = ini.parse(text) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v === 'object' && v !== null) throw new ConfigError(`config file ${file}: sections ([${k}]) are not used; write options at the top level`);
    out[k] = String(v);
  }
  return out;
}

async function readPasswordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One password per run: the first line, without its line ending.
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

function positiveInt(name: string) {
  return (v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} expects a positive integer, got '${v}'`);
    return Number(v);
  };
}

const program = new Command('graphene-rpc').description('A BitShares/Graphene-compatible node RPC service').showHelpAfterError();

const serve = program.command('serve').description('Start the node').option('--config <file>', 'ini file of options (keys are the long option names)');
for (const o of OPTIONS) {
  const flag = o.kind.type === 'bool' ? `--${o.name} [bool]` : `--${o.name} <value>`;
  const opt = new Option(flag, o.help + (o.default !== null && o.default !== '' ? ` (default: ${o.default})` : ''));
  // Keep values as text; buildConfig validates every source the same way.
  opt.argParser((v: string | undefined) => {
    if (v !== undefined && typeof v !== 'string') throw new InvalidArgumentError('expected a value');
    return v ?? 'true';
  });
  serve.addOption(opt);
}
serve.action(async (opts: Record<string, string>) => {
  const cli: Record<string, string> = {};
  for (const o of OPTIONS) {
    const key = o.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const v = opts[key];
    if (v !== undefined) cli[o.name] = v === (true as unknown) ? 'true' : v;
  }
  const file = opts.config ? readIni(opts.config) : {};
  const config = buildConfig(cli, file, opts.config ? `config file ${opts.config}` : 'config file');
  const log = createLogger(config.logLevel);
  const node = await startNode(config, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    node.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
});

program
  .command('generate')
  .description('Write a deterministic synthetic chain into a new data directory (for tests and benchmarks)')
  .requiredOption('--data-dir <dir>', 'the data directory to create')
  .option('--accounts <n>', 'accounts to create, including 5 exchanges', positiveInt('--accounts'), 100_000)
  .option('--operations <m>', 'transfer operations to write', positiveInt('--operations'), 2_000_000)
  .option('--seed <s>', 'seed of the pseudo-random choices and of the account keys', positiveInt('--seed'), 1)
  .option('--genesis-json <file>', 'genesis file (default: the bundled config/genesis.json)')
  .action(async (opts: { dataDir: string; accounts: number; operations: number; seed: number; genesisJson?: string }) => {
    const summary = await runGenerate(opts);
    process.stdout.write(`${summary}\n`);
  });

program
  .command('bench')
  .description('Run the capacity benchmark (see README "Benchmarks"); --quick for a short smoke run')
  .allowUnknownOption(true)
  .helpOption(false)
  .argument('[options...]', '--quick, --out DIR, --data-dir DIR, --workers 1,2,4, --duration S, --p99-target MS, --deposit-sessions N, --idle-sessions N')
  .action(async (options: string[]) => {
    // Named by URL: the node itself never loads benchmark code.
    const { runBench } = (await import(new URL('../bench/run.js', import.meta.url).href)) as { runBench: (argv: string[]) => Promise<unknown> };
    await runBench(options);
  });

program
  .command('hash-password')
  .description('Print the api-access entry fields (password_hash_b64, password_salt_b64) for a password')
  .option('--password <password>', 'the password (visible to other local users in the process list; prefer the prompt or stdin)')
  .action(async (opts: { password?: string }) => {
    let password = opts.password;
    if (password === undefined) {
      password = process.stdin.isTTY ? String(await read({ prompt: 'Password: ', silent: true, replace: '' })) : await readPasswordFromStdin();
    }
    process.stdout.write(`${JSON.stringify(hashPassword(password), null, 3)}\n`);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AccessFileError || err instanceof GenesisError) {
    process.stderr.write(`graphene-rpc: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`graphene-rpc: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});

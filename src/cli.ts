#!/usr/bin/env node
// graphene-rpc's command line: `serve`, `config`, `generate`, `bench` and `hash-password`. Option
// names are witness_node's.
import { Command, Option, InvalidArgumentError } from 'commander';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ini from 'ini';
import { read } from 'read';
import { OPTIONS, ConfigError, envName, resolveConfig, type Config, type OptionSource } from './config.js';
import { hashPassword, AccessFileError } from './access.js';
import { GenesisError } from './chain/node/genesis.js';
import { createLogger } from './log.js';
import { startNode } from './main.js';
import { runGenerate } from './generate/command.js';
import { ServerPemError } from './transport/tls.js';
import { DataDirUnusable } from './data-dir-lock.js';
import { uwsBuild } from './transport/uws.js';

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

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; devDependencies?: Record<string, string> };
const { version } = packageJson;

const program = new Command('graphene-rpc').description('A BitShares/Graphene-compatible node RPC service').version(version).showHelpAfterError();

/** The node's options on a command: `--config` and every option of the table, kept as text. */
function withNodeOptions(cmd: Command): Command {
  cmd.option('--config <file>', 'ini file of options (keys are the long option names)');
  for (const o of OPTIONS) {
    const flag = o.kind.type === 'bool' ? `--${o.name} [bool]` : `--${o.name} <value>`;
    // A help text that says its default already (the signing key's, which is not printed) keeps its own.
    const shownDefault = o.default !== null && o.default !== '' && !o.help.includes('(default:') ? ` (default: ${o.default})` : '';
    const opt = new Option(flag, o.help + shownDefault);
    // Keep values as text; resolveConfig validates every source the same way.
    opt.argParser((v: string | undefined) => {
      if (v !== undefined && typeof v !== 'string') throw new InvalidArgumentError('expected a value');
      return v ?? 'true';
    });
    cmd.addOption(opt);
  }
  return cmd;
}

/** The effective configuration of a command's options, the --config file and the environment. */
function configFrom(opts: Record<string, string>): { config: Config; sources: Readonly<Record<string, OptionSource>>; fileName: string } {
  const cli: Record<string, string> = {};
  for (const o of OPTIONS) {
    const key = o.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const v = opts[key];
    if (v !== undefined) cli[o.name] = v === (true as unknown) ? 'true' : v;
  }
  if (opts.config) {
    const fileName = `config file ${opts.config}`;
    return { ...resolveConfig(cli, readIni(opts.config), fileName, process.env), fileName };
  }
  // Without --config, as witness_node: <data-dir>/config.ini, when there is one. The data directory
  // itself comes from the command line, the environment or the default, never from that file.
  const first = resolveConfig(cli, {}, 'config file', process.env);
  const inDataDir = dataDirIni(first.config);
  if (!existsSync(inDataDir)) return { ...first, fileName: 'config file' };
  const file = readIni(inDataDir);
  const fileName = `config file ${inDataDir}`;
  if ('data-dir' in file) throw new ConfigError(`${fileName}: data-dir cannot be set in the data directory's own config.ini`);
  return { ...resolveConfig(cli, file, fileName, process.env), fileName };
}

/** `<data-dir>/config.ini`: read when there is no --config, written with every option commented out on first start. */
const dataDirIni = (config: Config): string => path.join(config.dataDir, 'config.ini');
/** The bundled config.ini: every option, commented out, with its help and default. */
const CONFIG_TEMPLATE = fileURLToPath(new URL('../../config/config.ini', import.meta.url));

const serve = withNodeOptions(program.command('serve').description('Start the node'));

withNodeOptions(program.command('config').description('Print the effective configuration and where each value comes from (default, config file, environment, command line)')).action(
  (opts: Record<string, string>) => {
    const { config, sources, fileName } = configFrom(opts);
    const valueOf = (key: string): unknown =>
      key.startsWith('apiLimits.') ? (config.apiLimits as Record<string, unknown>)[key.slice(10)] : (config as unknown as Record<string, unknown>)[key];
    const shown = (o: (typeof OPTIONS)[number]): string => {
      const v = valueOf(o.key);
      // A password is shown as set or not: this output gets pasted into bug reports.
      if (o.secret) return v ? '(set, not shown)' : '';
      if (o.name === 'private-key' && typeof v === 'string') return `${v.slice(0, 60)}…"]`;
      if (v !== null && typeof v === 'object' && 'host' in v) {
        const e = v as unknown as { host: string; port: number };
        return `${e.host}:${e.port}`;
      }
      return Array.isArray(v) ? v.join(',') : String(v ?? '');
    };
    const width = Math.max(...OPTIONS.map((o) => o.name.length));
    for (const o of OPTIONS) {
      const source = sources[o.name]!;
      const from = source === 'config file' ? fileName : source === 'environment' ? `environment ${envName(o.name)}` : source;
      process.stdout.write(`${o.name.padEnd(width)} = ${shown(o)}    # ${from}\n`);
    }
  },
);

serve.action(async (opts: Record<string, string>) => {
  // First of all: a Node.js or glibc the transport cannot load on is refused in one line, before
  // the data directory is touched.
  const uws = uwsBuild();
  const { config } = configFrom(opts);
  const log = createLogger(config.logLevel, {}, config.logFormat);
  log.debug({ uws, node: process.versions.node }, 'transport build');
  // The signal handlers are in place before the node says it serves: a signal sent as soon as the
  // 'serving' line is read (a supervisor, a test) must find them. A signal before the node is up ends
  // the process as the default action would, but says so; SIGHUP then has nothing to reload.
  let node: Awaited<ReturnType<typeof startNode>> | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal means now: no more draining.
    if (stopping) {
      log.warn({ signal }, 'second signal: stopping at once');
      // Serving threads close their sockets first, or the exit would abort the process.
      void (node?.halt() ?? Promise.resolve()).finally(() => process.exit(1));
      return;
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    if (!node) process.exit(1);
    node.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // SIGHUP re-reads the configuration (the options that can change at run time take effect; the
  // others are named as needing a restart) and the access file; it does not stop the node.
  process.on('SIGHUP', () => {
    if (!node) return log.warn({ signal: 'SIGHUP' }, 'the node is still starting: nothing reloaded');
    log.info({ signal: 'SIGHUP' }, 're-reading the configuration and the api-access file');
    try {
      node.reloadOptions(configFrom(opts).config);
    } catch (err) {
      log.error({ error: (err as Error).message }, 'configuration not reloaded: the options in force stay');
    }
    node.reloadAccess();
  });
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  node = await startNode(config, log);
  // First start without --config: write the data directory's config.ini for the operator to edit.
  if (!opts.config && !existsSync(dataDirIni(config))) {
    try {
      copyFileSync(CONFIG_TEMPLATE, dataDirIni(config));
      log.info({ file: dataDirIni(config) }, 'wrote config.ini with every option commented out');
    } catch (err) {
      log.warn({ err, file: dataDirIni(config) }, 'could not write config.ini in the data directory');
    }
  }
});

program
  .command('generate')
  .description('Write a deterministic synthetic chain into a new data directory (for tests and benchmarks)')
  .requiredOption('--data-dir <dir>', 'the data directory to create')
  .option('--accounts <n>', 'accounts to create, including 5 exchanges', positiveInt('--accounts'), 100_000)
  .option('--operations <m>', 'transfer operations to write', positiveInt('--operations'), 2_000_000)
  .option('--seed <s>', 'seed of the pseudo-random choices and of the account keys', positiveInt('--seed'), 1)
  .option('--orders <n>', 'limit orders to place after the transfers, user assets against the core asset (default: none)', positiveInt('--orders'))
  .option('--genesis-json <file>', 'genesis file (default: the bundled config/genesis.json)')
  .addHelpText(
    'after',
    [
      '',
      'The data directory must not hold a chain yet. Generated accounts are exchange-1 … exchange-5 and',
      'user-1 …; the private key of account NAME is sha256("graphene-rpc:SEED:NAME"). Then serve it:',
      '  graphene-rpc serve --data-dir DIR',
      'See README "A synthetic chain".',
      '',
    ].join('\n'),
  )
  .action(async (opts: { dataDir: string; accounts: number; operations: number; seed: number; orders?: number; genesisJson?: string }) => {
    const summary = await runGenerate(opts);
    process.stdout.write(`${summary}\n`);
  });

program
  .command('bench')
  .description('Run the capacity benchmark (see README "Benchmarks"); --quick for a short run, bench --help for its options')
  .allowUnknownOption(true)
  .helpOption(false)
  .argument('[options...]', 'the options `graphene-rpc bench --help` lists')
  .action(async (options: string[]) => {
    // Named by URL: the node itself never loads benchmark code, and the benchmark's own packages
    // (devDependencies) are loaded only here.
    const bench = (file: string) => new URL(`../bench/${file}`, import.meta.url).href;
    if (options.includes('--help') || options.includes('-h')) {
      const { benchHelp } = (await import(bench('options.js'))) as { benchHelp: () => string };
      process.stdout.write(benchHelp());
      return;
    }
    let runBench: (argv: string[]) => Promise<unknown>;
    try {
      ({ runBench } = (await import(bench('run.js'))) as { runBench: typeof runBench });
    } catch (err) {
      throw benchNeeds(err);
    }
    await runBench(options);
  });

/**
 * The error for a bench whose packages are missing: an install with --omit=dev leaves out the
 * benchmark's (fastify, hdr-histogram-js, vega, vega-lite, ws). Names them, with their versions.
 */
function benchNeeds(err: unknown): unknown {
  if ((err as NodeJS.ErrnoException)?.code !== 'ERR_MODULE_NOT_FOUND') return err;
  const missing = /Cannot find package '([^']+)'/.exec((err as Error).message)?.[1];
  if (missing === undefined) return err;
  const dev = packageJson.devDependencies ?? {};
  const needed = ['fastify', 'hdr-histogram-js', 'vega', 'vega-lite', 'ws'].map((p) => (dev[p] ? `${p}@${dev[p]}` : p));
  return new Error(`bench needs packages this install left out (${missing} first): run it from a checkout after npm ci, or npm install ${needed.join(' ')} here`);
}

program
  .command('hash-password')
  .description('Print the api-access entry fields (password_hash_b64, password_salt_b64) for a password')
  .option('--password <password>', 'the password (visible to other local users in the process list; prefer the prompt or stdin)')
  .action(async (opts: { password?: string }) => {
    let password = opts.password;
    if (password === undefined) {
      password = process.stdin.isTTY ? String(await read({ prompt: 'Password: ', silent: true, replace: '' })) : await readPasswordFromStdin();
    }
    // An empty password would make an entry anyone can log in to by sending no password at all.
    if (password === '') throw new ConfigError('hash-password: the password is empty; give one (a prompt, a line on stdin, or --password)');
    process.stdout.write(`${JSON.stringify(hashPassword(password), null, 3)}\n`);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AccessFileError || err instanceof GenesisError || err instanceof ServerPemError || err instanceof DataDirUnusable) {
    process.stderr.write(`graphene-rpc: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`graphene-rpc: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});

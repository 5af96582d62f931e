// HAProxy from the shipped deploy/haproxy.cfg, in front of test nodes on loopback: the file as an
// operator installs it, with only what a test machine needs changed (its addresses, no syslog socket,
// a maxconn the sandbox's file limit allows, the admin socket in a temp directory, faster checks).
import type { ExecutionContext } from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** deploy/haproxy.cfg as shipped. */
export const SHIPPED_HAPROXY_CFG = readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8');

/** True where Debian's haproxy is installed (.ci/run installs it); tests that need it skip without. */
export const haveHaproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

export interface HaproxyOptions {
  /** The frontend's port on 127.0.0.1. */
  front: number;
  /** A port for each of the shipped file's servers, in order (as many as it has). */
  servers: number[];
  /** The health checks' interval instead of the shipped 2 s, so that a test does not wait on their pace. */
  inter?: string;
  /** Where the admin socket goes instead of the shipped path. */
  socket?: string;
}

/** The shipped file with a test's addresses; throws if a line it rewrites is no longer there. */
export function haproxyConfig(o: HaproxyOptions): string {
  const rewrite = (cfg: string, re: RegExp, to: string | ((...m: string[]) => string), what: string) => {
    if (!re.test(cfg)) throw new Error(`deploy/haproxy.cfg has no ${what}`);
    return cfg.replace(re, to as string);
  };
  let cfg = SHIPPED_HAPROXY_CFG;
  cfg = rewrite(cfg, /^\s*log \/dev\/log local0$/m, '', 'syslog line');
  cfg = rewrite(cfg, /maxconn \d+/, 'maxconn 1000', 'global maxconn');
  cfg = rewrite(cfg, /^(\s*)bind :80$/m, `$1bind 127.0.0.1:${o.front}`, 'bind :80');
  if (o.inter) cfg = rewrite(cfg, /inter 2s/, `inter ${o.inter}`, 'default-server inter 2s');
  if (o.socket) cfg = rewrite(cfg, /^(\s*stats socket )\S+/m, `$1${o.socket}`, 'stats socket');
  const servers = [...cfg.matchAll(/^(\s*server \S+) 127\.0\.0\.1:\d+ check$/gm)];
  if (o.servers.length !== servers.length) throw new Error(`deploy/haproxy.cfg has ${servers.length} servers, not ${o.servers.length}`);
  servers.forEach((m, i) => (cfg = cfg.replace(m[0], `${m[1]} 127.0.0.1:${o.servers[i]} check`)));
  return cfg;
}

export interface Haproxy {
  readonly proxy: ChildProcess;
  readonly front: number;
  /** What HAProxy wrote to stderr so far. */
  stderr(): string;
  /** One command on the admin socket (`set server …`, `show servers state`); its answer. */
  admin(command: string): Promise<string>;
}

/** HAProxy running `cfg` (written to a temp file), killed at the test's teardown. */
export function startHaproxy(t: ExecutionContext, o: HaproxyOptions): Haproxy {
  const dir = tempDir(t, 'graphene-rpc-haproxy-');
  const socket = path.join(dir, 'admin.sock');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig({ ...o, socket }));
  const proxy = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proxy.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  t.teardown(() => void proxy.kill('SIGKILL'));
  const admin = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const s = net.connect(socket);
      let out = '';
      s.setEncoding('utf8');
      s.on('connect', () => s.end(`${command}\n`));
      s.on('data', (d: string) => (out += d));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
  return { proxy, front: o.front, stderr: () => stderr, admin };
}

/** Resolves once `url` answers 200 through HAProxy (its checks found a ready server); throws after `ms`. */
export async function untilServed(h: Haproxy, url: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await fetch(url).then((r) => r.status, () => 0)) !== 200) {
    if (h.proxy.exitCode !== null) throw new Error(`haproxy exited: ${h.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no 200 from ${url} through HAProxy within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

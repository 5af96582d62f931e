// Records the replay transcript: runs the requests of replay-script.ts against a built copy of the
// project and writes every reply, byte for byte, to test/fixtures/replay/transcript.txt. Not run by
// `npm test`; run it by hand before a change whose replies must not move:
//
//   npm run -s build && node dist/test/helpers/record-replay.js /path/to/built/checkout [out-file]
//
// The checkout is imported from its own dist/ (generate, node, config, logger), so the replies are
// that build's, whatever the current tree holds.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixture } from './fixtures.js';
import { WsClient, httpPostBytes } from './clients.js';
import { CHAIN, replayScript } from './replay-script.js';
import { authHeaders, formatHttpReply, formatWsReply, maskClock, nodeOptions } from './replay-file.js';

/** How long a WebSocket request may stay unanswered before it counts as one that gets no reply. */
const NO_REPLY_MS = 1000;

interface Build {
  runGenerate(o: { dataDir: string; accounts: number; operations: number; seed: number; progress?: boolean }): Promise<string>;
  startNode(config: unknown, log: unknown): Promise<{ port: number; close(): Promise<void> }>;
  buildConfig(options: Record<string, string>): unknown;
  createLogger(level: string): unknown;
}

async function loadBuild(root: string): Promise<Build> {
  const load = (file: string) => import(pathToFileURL(path.join(root, 'dist', file)).href);
  // `generate`'s command was src/generate-command.js in builds before src/generate/ existed.
  const generate = () => load('src/generate/command.js').catch(() => load('src/generate-command.js'));
  const [gen, main, config, log] = await Promise.all([generate(), load('src/main.js'), load('src/config.js'), load('src/log.js')]);
  return { runGenerate: gen.runGenerate, startNode: main.startNode, buildConfig: config.buildConfig, createLogger: log.createLogger };
}

async function record(root: string, out: string): Promise<void> {
  const build = await loadBuild(root);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-replay-'));
  const lines: string[] = [
    '# Replay transcript (format: test/helpers/replay-file.ts). Recorded by test/helpers/record-replay.ts',
    '# from the requests in test/helpers/replay-script.ts; replayed by test/replay.test.ts. Do not edit',
    '# by hand: a reply that must change is recorded again, and the diff is reviewed.',
    `@chain accounts=${CHAIN.accounts} operations=${CHAIN.operations} seed=${CHAIN.seed}`,
  ];
  let calls = 0;
  try {
    const store = path.join(tmp, 'store');
    await build.runGenerate({ dataDir: store, ...CHAIN, progress: false });
    for (const script of replayScript()) {
      // Each node gets its own copy of the store, so nothing one node does can reach the next.
      const dataDir = path.join(tmp, script.name);
      cpSync(store, dataDir, { recursive: true });
      const node = await build.startNode(build.buildConfig(nodeOptions(script.options, dataDir)), build.createLogger('silent'));
      lines.push('', `@node ${script.name} ${JSON.stringify(script.options)}`);
      try {
        for (const conn of script.connections) {
          lines.push(conn.auth ? `@${conn.transport} ${conn.auth}` : `@${conn.transport}`);
          if (conn.transport === 'http') {
            for (const request of conn.requests) {
              const reply = await httpPostBytes(`http://127.0.0.1:${node.port}/rpc`, request, authHeaders(conn.auth));
              lines.push(`--> ${request}`, formatHttpReply(reply.status, reply.contentType, maskClock(reply.bytes)));
              calls++;
            }
          } else {
            const ws = await WsClient.connect(`ws://127.0.0.1:${node.port}/ws`, authHeaders(conn.auth));
            try {
              for (const request of conn.requests) {
                ws.send(request);
                const frame = await ws.nextFrame(NO_REPLY_MS).catch((e: Error) => {
                  if (/^no message within/.test(e.message)) return undefined;
                  throw new Error(`request '${request}': ${e.message}`);
                });
                if (frame?.binary) throw new Error(`request '${request}': the reply came in a binary frame, which the transcript cannot hold`);
                lines.push(`--> ${request}`, formatWsReply(frame && maskClock(frame.data)));
                calls++;
              }
              // The replay checks a request without a reply through the reply of the one after it.
              if (lines.at(-1) === formatWsReply(undefined)) throw new Error(`${script.name}: a WebSocket connection must end with a request that gets a reply`);
            } finally {
              await ws.close();
            }
          }
        }
      } finally {
        await node.close();
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`recorded ${calls} calls from ${root} into ${out}`);
}

const [root, out] = process.argv.slice(2);
if (!root) {
  console.error('usage: node dist/test/helpers/record-replay.js <built checkout> [out-file]');
  process.exit(2);
}
await record(path.resolve(root), path.resolve(out ?? fixture('replay/transcript.txt')));

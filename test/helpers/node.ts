// Starts a real node in this process: a temp LMDB data directory, an ephemeral port, real workers.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startNode, type RunningNode } from '../../src/main.js';

/**
 * Serving processes of the nodes tests start: TEST_SERVING_PROCESSES, or 1; serving threads:
 * TEST_SERVING_THREADS, or 1. (The node itself never reads the environment outside config.ts; these
 * are the test suite's own switches.)
 */
export const TEST_PROCESSES = process.env.TEST_SERVING_PROCESSES ?? '1';
export const TEST_THREADS = process.env.TEST_SERVING_THREADS ?? '1';

/**
 * The front-end options of a test's node: the test's own when it names --processes or
 * --serving-threads (a test of one process keeps one), else the suite's switches.
 */
export function frontEndOptions(options: Readonly<Record<string, string>>): Record<string, string> {
  if ('processes' in options || 'serving-threads' in options) return {};
  return { processes: TEST_PROCESSES, 'serving-threads': TEST_THREADS };
}

export interface TestNode {
  readonly node: RunningNode;
  readonly config: Config;
  readonly port: number;
  readonly httpUrl: string;
  readonly wsUrl: string;
  readonly dataDir: string;
}

/**
 * Options as on the command line, without the dashes: { 'login-api-variant': 'legacy' }. `log`
 * replaces the silent logger, for tests that wait for what the node logs (helpers/logs.ts).
 */
export async function startTestNode(t: ExecutionContext, options: Record<string, string> = {}, log: Logger = createLogger('silent')): Promise<TestNode> {
  const dataDir = options['data-dir'] ?? mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-test-'));
  // Blocks only on demand unless a test asks for an interval: most tests read a chain that holds still.
  // `npm run test:processes` runs the transport tests against nodes of one writer and two serving
  // processes (TEST_PROCESSES), `npm run test:threads` against nodes of two serving threads
  // (TEST_THREADS); a test that names --processes or --serving-threads itself keeps its own.
  const config = buildConfig({ 'rpc-endpoint': '127.0.0.1:0', workers: '1', 'log-level': 'silent', 'block-interval': '0', 'shutdown-drain-ms': '300', ...frontEndOptions(options), ...options, 'data-dir': dataDir });
  const node = await startNode(config, log);
  t.teardown(async () => {
    await node.close();
    if (!options['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  });
  return { node, config, port: node.port, httpUrl: `http://127.0.0.1:${node.port}/rpc`, wsUrl: `ws://127.0.0.1:${node.port}/ws`, dataDir };
}

export { fixture } from './fixtures.js';

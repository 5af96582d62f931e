// Replays the recorded transcript (test/fixtures/replay/transcript.txt) against this build: every
// reply must be the recorded one, byte for byte (see test/helpers/replay-file.ts for the one masked
// field). The transcript was recorded from the build before the front end was reshaped, so this is
// the proof that no client sees a difference.
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGenerate } from '../src/generate/command.js';
import { fixture } from './helpers/fixtures.js';
import { startTestNode } from './helpers/node.js';
import { WsClient, httpPostBytes } from './helpers/clients.js';
import { authHeaders, maskClock, nodeOptions, parseReplayFile, type ReplayStep } from './helpers/replay-file.js';

const transcript = parseReplayFile(readFileSync(fixture('replay/transcript.txt'), 'utf8'));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-replay-'));
const store = path.join(tmp, 'store');

test.before(async () => {
  await runGenerate({ dataDir: store, ...transcript.chain, progress: false });
});
test.after.always(() => rmSync(tmp, { recursive: true, force: true }));

/** The transcript cut at its @node lines. */
const nodes: { node: Extract<ReplayStep, { kind: 'node' }>; steps: ReplayStep[] }[] = [];
for (const step of transcript.steps) {
  if (step.kind === 'node') nodes.push({ node: step, steps: [] });
  else if (nodes.length === 0) throw new Error(`replay transcript line ${step.line}: a step before the first @node`);
  else nodes.at(-1)!.steps.push(step);
}

const show = (bytes: Buffer | undefined): string => (bytes === undefined ? '(no reply)' : bytes.toString('utf8'));

for (const { node: spec, steps } of nodes) {
  test.serial(`replay transcript: node ${spec.name} (line ${spec.line})`, async (t) => {
    const dataDir = path.join(tmp, spec.name);
    cpSync(store, dataDir, { recursive: true });
    const node = await startTestNode(t, nodeOptions(spec.options, dataDir));
    const failures: string[] = [];
    let calls = 0;
    let ws: WsClient | undefined;
    let http: { auth?: string } | undefined;
    t.teardown(() => ws?.close());
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.kind === 'ws') {
        await ws?.close();
        ws = await WsClient.connect(node.wsUrl, authHeaders(step.auth));
        http = undefined;
        continue;
      }
      if (step.kind === 'http') {
        await ws?.close();
        ws = undefined;
        http = { auth: step.auth };
        continue;
      }
      const expected = steps[++i];
      if (step.kind !== 'send' || !expected || (expected.kind !== 'ws-reply' && expected.kind !== 'http-reply')) {
        throw new Error(`replay transcript line ${step.line}: expected a request followed by its reply`);
      }
      calls++;
      const fail = (what: string, want: string, got: string) =>
        failures.push(`line ${step.line}: ${what}\n  request:  ${step.text}\n  expected: ${want}\n  actual:   ${got}`);
      if (expected.kind === 'ws-reply') {
        if (!ws) throw new Error(`replay transcript line ${step.line}: a WebSocket reply outside @ws`);
        ws.send(step.text);
        // A request that gets no reply is checked by the next one: a stray reply would arrive first.
        if (!expected.bytes) continue;
        const frame = await ws.nextFrame(10_000);
        const got = maskClock(frame.data);
        if (frame.binary) fail('binary frame', 'a text frame', 'a binary frame');
        if (!got.equals(expected.bytes)) fail('reply differs', show(expected.bytes), show(got));
      } else {
        if (!http) throw new Error(`replay transcript line ${step.line}: an HTTP reply outside @http`);
        const reply = await httpPostBytes(node.httpUrl, step.text, authHeaders(http.auth));
        const got = maskClock(reply.bytes);
        if (reply.status !== expected.status) fail('HTTP status differs', String(expected.status), String(reply.status));
        if (reply.contentType !== expected.contentType) fail('content-type differs', String(expected.contentType), String(reply.contentType));
        if (!got.equals(expected.bytes)) fail('reply differs', show(expected.bytes), show(got));
      }
    }
    t.is(failures.length, 0, `${failures.length} of ${calls} replies differ from the recording:\n\n${failures.slice(0, 30).join('\n\n')}`);
  });
}

test('the replay transcript holds a few hundred calls on every node', (t) => {
  const sends = transcript.steps.filter((s) => s.kind === 'send').length;
  t.true(sends >= 300, `${sends} calls`);
  t.deepEqual(
    nodes.map((n) => n.node.name),
    ['access-file', 'all-sets-open', 'default-policy', 'legacy'],
  );
});

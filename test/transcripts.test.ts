// Replays every file in test/transcripts against a real server, one test per file.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, startTestNode } from './helpers/node.js';
import { WsClient, basic, httpPost } from './helpers/clients.js';
import { normalise, parseTranscript } from './helpers/transcript.js';

const dir = path.resolve(fixture('.'), '../transcripts');

for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
  test(`transcript ${file}`, async (t) => {
    const { options, steps } = parseTranscript(readFileSync(path.join(dir, file), 'utf8'));
    // Fixture paths in options are relative to test/fixtures.
    for (const k of ['api-access', 'genesis-json']) if (options[k]) options[k] = fixture(options[k]!);
    const node = await startTestNode(t, options);
    let mode: 'ws' | 'http' | undefined;
    let ws: WsClient | undefined;
    let auth: string | undefined;
    let headers: Record<string, string> = {};
    const sockets: WsClient[] = [];
    t.teardown(() => Promise.all(sockets.map((s) => s.close())).then(() => undefined));
    let pendingHttp: Promise<{ status: number; text: string }>[] = [];
    for (const step of steps) {
      const at = `${file}:${step.line}`;
      switch (step.kind) {
        case 'ws': {
          if (ws) t.true(await ws.drained(), `${at}: unexpected extra message before switching connection`);
          mode = 'ws';
          const [user, ...pw] = (step.auth ?? '').split(':');
          ws = await WsClient.connect(node.wsUrl, step.auth ? { authorization: basic(user!, pw.join(':')) } : {});
          sockets.push(ws);
          break;
        }
        case 'http': {
          mode = 'http';
          const [user, ...pw] = (step.auth ?? '').split(':');
          auth = step.auth ? basic(user!, pw.join(':')) : undefined;
          headers = {};
          break;
        }
        case 'header':
          headers[step.name] = step.value;
          break;
        case 'send':
          if (mode === 'ws') ws!.send(step.text);
          else if (mode === 'http') pendingHttp.push(httpPost(node.httpUrl, step.text, { ...(auth ? { authorization: auth } : {}), ...headers }));
          else throw new Error(`${at}: no @ws or @http before the first request`);
          break;
        case 'expect':
          if (mode === 'ws') {
            if (step.none) break;
            const got = normalise(await ws!.next());
            t.is(got, step.text!, `${at}`);
          } else {
            const next = pendingHttp.shift();
            if (!next) throw new Error(`${at}: expected reply without a request`);
            const got = await next;
            t.is(got.status, step.status ?? 200, `${at}: HTTP status`);
            t.is(normalise(got.text), step.text ?? '', `${at}`);
          }
          break;
      }
    }
    if (ws) t.true(await ws.drained(), `${file}: unexpected extra message at the end`);
    t.is(pendingHttp.length, 0, `${file}: HTTP requests without an expected reply`);
    pendingHttp = [];
  });
}

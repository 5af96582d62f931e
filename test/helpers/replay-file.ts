// The replay transcript file (test/fixtures/replay/transcript.txt): requests and the exact reply
// bytes a build gave, written by test/helpers/record-replay.ts and replayed by test/replay.test.ts.
//
//   # comment                        ignored
//   @chain accounts=N operations=M seed=S
//                                    the store: `graphene-rpc generate` with these arguments
//   @node NAME {"option":"value"}    start a node on its own copy of that store; serve options as
//                                    on the command line, fixture files relative to test/fixtures
//   @ws [user:password]              open a WebSocket (with Basic credentials if given)
//   @http [user:password]            later requests are HTTP POSTs to /rpc
//   --> TEXT                         send exactly TEXT (one text frame, or one POST body)
//   <-- TEXT                         WebSocket: the reply is one text frame of exactly TEXT
//   <-- (none)                       WebSocket: no reply to that request (the next reply
//                                    belongs to the next request)
//   <-- STATUS TYPE BODY             HTTP: status, content-type as a JSON string (or null), body
//   <-b64 ...                        the same, with the frame or body in base64 (for bytes that are
//                                    not one line of UTF-8 text)
//
// Everything is compared byte for byte except the time in fc's log context in error data
// ("thread_name":"th_a","timestamp":"…"), which is the server's wall clock: its digits are written
// as 0 here and masked the same way in what a build sends before comparing, so its place and shape
// are still checked. Block and operation timestamps are chain data and are compared as they are.

import { basic } from './clients.js';
import { fixture } from './fixtures.js';

export type ReplayStep =
  | { kind: 'node'; name: string; options: Record<string, string>; line: number }
  | { kind: 'ws'; auth?: string; line: number }
  | { kind: 'http'; auth?: string; line: number }
  | { kind: 'send'; text: string; line: number }
  | { kind: 'ws-reply'; bytes: Buffer | undefined; line: number }
  | { kind: 'http-reply'; status: number; contentType: string | null; bytes: Buffer; line: number };

export interface ReplayFile {
  chain: { accounts: number; operations: number; seed: number };
  steps: ReplayStep[];
}

const pairs = (words: string[]): Record<string, string> =>
  Object.fromEntries(
    words.map((w) => {
      const eq = w.indexOf('=');
      if (eq < 1) throw new Error(`expected name=value, got '${w}'`);
      return [w.slice(0, eq), w.slice(eq + 1)];
    }),
  );

/** Digits of fc's log context times become 0: the only part of a reply that follows the wall clock. */
export const maskClock = (bytes: Buffer): Buffer => {
  const text = bytes.toString('latin1');
  const masked = text.replace(/("thread_name":"[^"]*","timestamp":")([^"]*)"/g, (_, head: string, time: string) => `${head}${time.replace(/[0-9]/g, '0')}"`);
  return masked === text ? bytes : Buffer.from(masked, 'latin1');
};

/** One line of reply bytes: as text when they are one line of valid UTF-8, else in base64. */
function replyLine(prefix: string, bytes: Buffer): string {
  const text = bytes.toString('utf8');
  const plain = Buffer.from(text, 'utf8').equals(bytes) && !/[\r\n]/.test(text);
  return plain ? `<-- ${prefix}${text}` : `<-b64 ${prefix}${bytes.toString('base64')}`;
}

export const formatWsReply = (bytes: Buffer | undefined): string => (bytes ? replyLine('', bytes) : '<-- (none)');

export const formatHttpReply = (status: number, contentType: string | null, bytes: Buffer): string =>
  replyLine(`${status} ${JSON.stringify(contentType)}${bytes.length ? ' ' : ''}`, bytes).trimEnd();

export function parseReplayFile(source: string): ReplayFile {
  let chain: ReplayFile['chain'] | undefined;
  const steps: ReplayStep[] = [];
  let mode: 'ws' | 'http' | undefined;
  source.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const fail = (why: string): never => {
      throw new Error(`replay file line ${line}: ${why}`);
    };
    if (raw === '' || raw.startsWith('#')) return;
    const [word, ...rest] = raw.split(' ');
    const tail = raw.slice(word!.length + 1);
    switch (word) {
      case '@chain': {
        const p = pairs(rest);
        chain = { accounts: Number(p.accounts), operations: Number(p.operations), seed: Number(p.seed) };
        break;
      }
      case '@node':
        steps.push({ kind: 'node', name: rest[0] ?? fail('a node needs a name'), options: JSON.parse(rest.slice(1).join(' ') || '{}') as Record<string, string>, line });
        mode = undefined;
        break;
      case '@ws':
      case '@http':
        mode = word === '@ws' ? 'ws' : 'http';
        steps.push({ kind: mode, auth: rest[0], line });
        break;
      case '-->':
        steps.push({ kind: 'send', text: tail, line });
        break;
      case '<--':
      case '<-b64': {
        const decode = (s: string) => (word === '<--' ? Buffer.from(s, 'utf8') : Buffer.from(s, 'base64'));
        if (mode === 'ws') {
          steps.push({ kind: 'ws-reply', bytes: tail === '(none)' && word === '<--' ? undefined : decode(tail), line });
        } else if (mode === 'http') {
          const m = /^(\d{3}) (null|"(?:[^"\\]|\\.)*")(?: (.*))?$/.exec(tail) ?? fail(`cannot read the HTTP reply '${tail}'`);
          steps.push({ kind: 'http-reply', status: Number(m[1]), contentType: JSON.parse(m[2]!) as string | null, bytes: decode(m[3] ?? ''), line });
        } else fail('a reply before @ws or @http');
        break;
      }
      default:
        fail(`cannot read '${raw}'`);
    }
  });
  if (!chain) throw new Error('replay file: no @chain line');
  return { chain, steps };
}

/** Serve options of a transcript node: fixture files resolved, blocks only on demand, no logs. */
export const nodeOptions = (options: Record<string, string>, dataDir: string): Record<string, string> => {
  const resolved = { ...options };
  if (resolved['api-access']) resolved['api-access'] = fixture(resolved['api-access']);
  return { 'rpc-endpoint': '127.0.0.1:0', workers: '1', 'log-level': 'silent', 'block-interval': '0', ...resolved, 'data-dir': dataDir };
};

/** Basic credentials of a `user:password` connection, as request headers. */
export const authHeaders = (auth?: string): Record<string, string> => {
  if (!auth) return {};
  const colon = auth.indexOf(':');
  return { authorization: basic(auth.slice(0, colon), auth.slice(colon + 1)) };
};

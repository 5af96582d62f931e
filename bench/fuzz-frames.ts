// The fuzzer's frames: requests a hostile or careless client sends, from a seed. Every frame is
// bytes (a WebSocket message or an HTTP body) plus what the node must answer for it, which comes from
// the node's own envelope parser: an envelope it can read with an id gets exactly one reply carrying
// that id, an unreadable one a reply with "id":null, a notification none.
//
// Kinds of frames, each a share of the stream:
//  - sweep: every method of every API set, a value of a wrong type at each argument position in
//    turn (and one argument too few and one too many), direct and in the call form;
//  - valid / random-args: plausible or arbitrary arguments for a random method;
//  - mutated: a valid request's text with characters dropped, inserted, repeated or cut; and its bytes
//    with invalid UTF-8 put in (WebSocket binary frames, HTTP bodies);
//  - envelope: ids, versions and params of every type, duplicate and escaped keys;
//  - numbers: integer and float literals no double holds, 64-bit edges, exponents of 999999;
//  - deep: arrays and objects nested 100 to 100,000 deep;
//  - random: any JSON value, any bytes;
//  - big: bodies near and over --max-request-bytes.
import { API_SETS, GETTER_SETS } from '../src/api/registry.js';
import type { MethodSpec } from '../src/api/types.js';
import { invalidReply, parseInbound, resultReply } from '../src/protocol/jsonrpc.js';
import { prng } from '../src/prng.js';

/** A small fast seeded generator (mulberry32): the same seed gives the same frames. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

export const DEV_PUB = 'BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV';

/** A JSON literal put into a request as is (numbers JSON.stringify cannot write). */
class Raw {
  constructor(readonly text: string) {}
}

const RAW_NUMBERS = [
  '1e999999', '-1e999999', '1e-999999', '-0', '0.0', '1E400', '1' + '0'.repeat(400), '-' + '9'.repeat(300), '18446744073709551615', '18446744073709551616',
  '-9223372036854775808', '-9223372036854775809', '9007199254740993', '4294967296', '2147483648', '123456789012345678901234567890.5', '0.' + '0'.repeat(300) + '1',
];

/** Values of every type, for the argument positions that expect another. */
const WRONG: readonly unknown[] = [
  0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 65536, 4294967296, '', 'x', 'x'.repeat(300), 'x'.repeat(20_000), '1.2.0', '1.2.-1', '1.2.99999999999', 'nathan', 'BTS', DEV_PUB,
  'BTS1111111111111111111111111111111114T1Anm', '2020-01-01T00:00:00', '9999-99-99T99:99:99', '0'.repeat(40), 'zz', true, false, null, [], {}, [[]], [{}], { a: 1 }, [1, 2, 3],
  ['nathan', '1.2.0'], [[0, {}]], [0, {}], { ref_block_num: 'x', operations: 5 }, { operations: [[0, { amount: { amount: '1e400' } }]] }, '\u0000', '\ud800', 'é',
  ...RAW_NUMBERS.map((n) => new Raw(n)),
];

const ACCOUNTS = ['nathan', 'committee-account', 'init0', '1.2.0', '1.2.6', 'nobody'];
const ASSETS = ['BTS', '1.3.0', 'NOPE'];
const TRX = { ref_block_num: 0, ref_block_prefix: 0, expiration: '2030-01-01T00:00:00', operations: [[0, { fee: { amount: 0, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.0', amount: { amount: 1, asset_id: '1.3.0' }, extensions: [] }]], extensions: [], signatures: [] };

/** A well-formed value for a parameter, guessed from its name: calls then get past their first arguments. */
function plausible(rng: Rng, name: string): unknown {
  const list = <T>(xs: readonly T[]) => (rng.chance(0.5) ? rng.pick(xs) : [rng.pick(xs), rng.pick(xs)]);
  if (name === 'trx' || name === 'block') return TRX;
  if (name === 'ops') return TRX.operations;
  if (/keys|public_key|addrs/.test(name)) return list([DEV_PUB]);
  if (/symbol|^asset|^base|^quote|^a$|^b$/.test(name)) return list(ASSETS);
  if (/account|name|issuer|signers|user|password/.test(name)) return list(ACCOUNTS);
  if (/time|^start$|^end$|^stop$/.test(name)) return rng.pick(['2020-01-01T00:00:00', '1.11.0', 0]);
  if (/limit|num|count|trx_in_block|space_id|type_id|seconds|operation_type|bits|exp|^value$|^group$/.test(name)) return rng.pick([0, 1, 10, 100, 101, '5']);
  if (/id/.test(name)) return list(['1.2.0', '1.3.0', '1.11.0', '2.1.0', '1.6.0', '1.5.0']);
  if (/^cb$|callback/.test(name)) return rng.int(1000);
  if (/subscribe|with_|is_|enable|notify/.test(name)) return rng.pick([true, false]);
  return rng.pick(WRONG);
}

/** A method of the catalogue: how a client names it (direct for database_api, else the call form). */
interface Target {
  readonly set: string;
  readonly method: string;
  readonly spec: MethodSpec;
}

/** Every method of every set a client can reach (the login API of both variants included). */
export const CATALOGUE: readonly Target[] = [...Object.entries(GETTER_SETS), ['login', API_SETS.login] as const, ['login', API_SETS.login_legacy] as const].flatMap(([set, s]) =>
  Object.entries(s.methods as Record<string, MethodSpec>).map(([method, spec]) => ({ set, method, spec })),
);

/** What the node must answer for a frame: a reply with this id (its JSON text), or none. */
export type Expectation = { readonly id: string } | 'none';

/** The node's reading of a text, as the decode layer reads it. */
export function expectationFor(text: string, maxDepth: number): Expectation {
  const r = parseInbound(text, maxDepth);
  if (r.kind === 'ignore') return 'none';
  if (r.kind === 'invalid') return { id: JSON.stringify((JSON.parse(invalidReply(r.error, r.to)) as { id: unknown }).id) };
  if (!r.request.wantsReply) return 'none';
  return { id: JSON.stringify((JSON.parse(resultReply(r.request, 'null')) as { id: unknown }).id) };
}

export type FrameKind = 'sweep' | 'valid' | 'random-args' | 'mutated' | 'mutated-bytes' | 'envelope' | 'numbers' | 'deep' | 'random-json' | 'random-bytes' | 'big' | 'oversized';

export interface Frame {
  readonly kind: FrameKind;
  readonly bytes: Buffer;
  /** whether the bytes are valid UTF-8 (else a WebSocket sends them in a binary frame) */
  readonly utf8: boolean;
}

function toText(v: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (x instanceof Raw) {
      raws.push(x.text);
      return `\u0000RAW${raws.length - 1}\u0000`;
    }
    return x;
  });
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}

const isUtf8 = (b: Buffer): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

/** Bytes that are never valid UTF-8 wherever they stand: lone continuation bytes, overlongs, surrogates, 0xFF. */
const BAD_UTF8 = [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xfe], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]];

/** Frames in an endless seeded stream. `maxRequestBytes` is the node's limit (for big and oversized ones). */
export class FrameSource {
  private readonly rng: Rng;
  private sweepAt = 0;
  private nextId = 1;
  /** Sweep items: each (method, position) with a wrong value, plus one argument too few and one too many. */
  private readonly sweep: { t: Target; position: number | 'fewer' | 'more' }[];
  sweepRounds = 0;

  constructor(
    seed: number,
    private readonly maxRequestBytes: number,
  ) {
    this.rng = new Rng(seed);
    this.sweep = CATALOGUE.flatMap((t) => [...t.spec.params.map((_, i) => ({ t, position: i as number | 'fewer' | 'more' })), { t, position: 'fewer' as const }, { t, position: 'more' as const }]);
  }

  /** Items in one sweep over every method and position. */
  get sweepSize(): number {
    return this.sweep.length;
  }

  private id(): unknown {
    const n = this.nextId++;
    return this.rng.chance(0.7) ? n : this.rng.chance(0.5) ? `req-${n}` : this.rng.pick([n + 0.5, -n, new Raw(`${n}0000000000000000000000`), new Raw(`${n}e2`)]);
  }

  /** A request for `t` with `args`, direct or in one of the call forms. */
  private request(t: Target, args: unknown[]): unknown {
    const env: Record<string, unknown> = { id: this.id() };
    if (this.rng.chance(0.3)) env.jsonrpc = '2.0';
    const form = t.set === 'database' ? this.rng.int(3) : 1 + this.rng.int(2);
    if (form === 0) {
      env.method = t.method;
      env.params = args;
    } else {
      const api = form === 1 ? t.set : t.set === 'login' ? 1 : t.set === 'database' ? 0 : this.rng.pick([2, 3, 99, -1, '2']);
      env.method = 'call';
      env.params = [api, t.method, args];
    }
    return env;
  }

  private argsFor(t: Target, wrongAt?: number): unknown[] {
    return t.spec.params.map((p, i) => (i === wrongAt ? this.rng.pick(WRONG) : plausible(this.rng, p.name)));
  }

  private text(kind: FrameKind, v: unknown): Frame {
    const bytes = Buffer.from(typeof v === 'string' ? v : toText(v), 'utf8');
    return { kind, bytes, utf8: true };
  }

  private mutateText(s: string): string {
    let out = s;
    const edits = 1 + this.rng.int(4);
    for (let e = 0; e < edits; e++) {
      const i = out.length === 0 ? 0 : this.rng.int(out.length);
      const j = out.length === 0 ? 0 : this.rng.int(out.length);
      const ch = this.rng.pick(['{', '}', '[', ']', '"', ',', ':', '\\', '0', '-', 'e', '.', ' ', '\u0000', '\ud800', 'é', 'n', 't', '1', '"id":', '\\u0069d']);
      switch (this.rng.int(6)) {
        case 0: out = out.slice(0, i) + out.slice(i + 1); break;
        case 1: out = out.slice(0, i) + ch + out.slice(i); break;
        case 2: out = out.slice(0, i) + ch + out.slice(i + 1); break;
        case 3: out = out.slice(0, Math.max(i, j)) + out.slice(Math.min(i, j), Math.max(i, j)) + out.slice(Math.max(i, j)); break;
        case 4: out = out.slice(0, i); break;
        default: out = out.slice(0, Math.min(i, j)) + out.slice(Math.max(i, j)) + out.slice(Math.min(i, j), Math.max(i, j));
      }
    }
    return out;
  }

  private randomJson(depth = 0): unknown {
    const r = this.rng.int(depth > 3 ? 5 : 8);
    switch (r) {
      case 0: return null;
      case 1: return this.rng.chance(0.5);
      case 2: return this.rng.pick([0, -1, 1.5, 2 ** 53, 1e300, this.rng.int(1e9)]);
      case 3: return this.rng.pick(['', 'call', 'id', 'method', 'params', '2.0', 'x'.repeat(this.rng.int(100))]);
      case 4: return this.rng.pick(WRONG);
      case 5: return Array.from({ length: this.rng.int(4) }, () => this.randomJson(depth + 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let k = this.rng.int(4); k > 0; k--) o[this.rng.pick(['id', 'method', 'params', 'jsonrpc', 'result', 'error', 'x', '__proto__', 'constructor'])] = this.randomJson(depth + 1);
        return o;
      }
    }
  }

  next(): Frame {
    const roll = this.rng.int(100);
    if (roll < 30) {
      const item = this.sweep[this.sweepAt++]!;
      if (this.sweepAt === this.sweep.length) {
        this.sweepAt = 0;
        this.sweepRounds++;
      }
      const { t, position } = item;
      let args: unknown[];
      if (position === 'fewer') args = this.argsFor(t).slice(0, Math.max(0, t.spec.params.length - 1));
      else if (position === 'more') args = [...this.argsFor(t), this.rng.pick(WRONG)];
      else args = this.argsFor(t, position);
      return this.text('sweep', this.request(t, args));
    }
    if (roll < 42) return this.text('valid', this.request(this.rng.pick(CATALOGUE), this.argsFor(this.rng.pick(CATALOGUE))));
    if (roll < 50) {
      const t = this.rng.pick(CATALOGUE);
      return this.text('random-args', this.request(t, Array.from({ length: this.rng.int(5) }, () => this.randomJson())));
    }
    if (roll < 64) {
      const t = this.rng.pick(CATALOGUE);
      return this.text('mutated', this.mutateText(toText(this.request(t, this.argsFor(t)))));
    }
    if (roll < 72) {
      // Invalid UTF-8 put into a valid request's bytes: in a string, or anywhere.
      const t = this.rng.pick(CATALOGUE);
      const base = Buffer.from(toText(this.request(t, this.argsFor(t))), 'utf8');
      const at = this.rng.int(base.length + 1);
      const bytes = Buffer.concat([base.subarray(0, at), Buffer.from(this.rng.pick(BAD_UTF8)), base.subarray(at)]);
      return { kind: 'mutated-bytes', bytes, utf8: isUtf8(bytes) };
    }
    if (roll < 80) {
      const env: Record<string, unknown> = {};
      const values = [this.id(), this.id(), null, true, [], {}, '2.0', '1.0', 'call', 'get_chain_id', [0, 'get_chain_id', []], { a: 1 }, new Raw('1e999999')];
      for (const k of ['id', 'method', 'params', 'jsonrpc', 'result', 'error']) if (this.rng.chance(0.6)) env[k] = this.rng.pick(values);
      let s = toText(env);
      // Duplicate and escaped keys: JSON.parse keeps the last, spelt any way.
      if (this.rng.chance(0.3)) s = s.replace('{', `{${this.rng.pick(['"id":1,', '"\\u0069d":"esc",', '"id":{},', '"method":"x",', '"params":[1],'])}`);
      if (this.rng.chance(0.2)) s = s.replace(/}$/, `,${this.rng.pick(['"id":2', '"\\u0069d":3.50', '"id":null', '"method":""'])}}`);
      return this.text('envelope', s);
    }
    if (roll < 85) {
      const t = this.rng.pick(CATALOGUE);
      const args = t.spec.params.map(() => new Raw(this.rng.pick(RAW_NUMBERS)));
      const env = this.request(t, args) as Record<string, unknown>;
      if (this.rng.chance(0.3)) env.id = new Raw(this.rng.pick(RAW_NUMBERS));
      return this.text('numbers', env);
    }
    if (roll < 89) {
      const depth = this.rng.pick([100, 249, 250, 251, 1000, 10_000, 100_000]);
      const [open, close] = this.rng.pick([['[', ']'], ['{"a":', '}'], ['[{"a":', '}]']] as const);
      const closed = this.rng.chance(0.8);
      const inner = open.repeat(depth) + (open === '[' ? '' : '1') + (closed ? close.repeat(depth) : '');
      return this.text('deep', `{"id":${this.nextId++},"method":"call","params":[0,"get_objects",${inner}]}`);
    }
    if (roll < 94) return this.text('random-json', this.randomJson());
    if (roll < 98) {
      const bytes = Buffer.from(Array.from({ length: this.rng.int(200) }, () => this.rng.int(256)));
      return { kind: 'random-bytes', bytes, utf8: isUtf8(bytes) };
    }
    if (roll < 99) {
      // Near the request limit, under and over it (answered -32007 up to twice the limit).
      const size = this.rng.pick([this.maxRequestBytes - 64, this.maxRequestBytes + 1, Math.floor(this.maxRequestBytes * 1.5)]);
      const head = `{"id":${this.nextId++},"method":"call","params":[0,"get_accounts",[["`;
      return this.text(size > this.maxRequestBytes ? 'oversized' : 'big', `${head}${'a'.repeat(Math.max(0, size - head.length - 5))}"]]]}`);
    }
    const t = this.rng.pick(CATALOGUE);
    return this.text('valid', this.request(t, this.argsFor(t)));
  }
}

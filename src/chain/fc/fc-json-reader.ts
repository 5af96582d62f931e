// bitshares-fc's JSON reader, `fc::json::from_string` with its default legacy parser (src/io/json.cpp,
// variant_from_stream<…, legacy_parser>), and the text that variant becomes in an RPC reply
// (`json::to_string` with stringify_large_ints_and_doubles). The custom_operations plugin stores each
// value a user writes through it, so what a value is, and whether it is refused, must be fc's answer,
// not JSON.parse's:
//
//  - it is lenient where JSON is strict: anything after the first value is ignored; commas between
//    array elements and object members are optional (and repeated ones skipped); an unquoted word
//    made of letters, digits and `_-.:/` (`abc`, `12abc`, `1e5`, `tru`) is a string; `\x` in a
//    string is `x` except `\t`, `\n`, `\r`, `\\` (so `\u0041` is `u0041`); an object keeps repeated
//    keys, in order;
//  - numbers with a `.` are doubles, written back as `"%.17f"` text; other negative numbers are
//    int64 and the rest uint64, written as strings beyond 32 bits as every fc reply does;
//  - it fails in two ways that the plugin tells apart: parse_error_exception (the plugin skips that
//    one key) and eof_exception, raised when the text ends where a value, a string's closing quote or
//    an array's `]` was still due (the plugin then drops the rest of the operation). Inside an
//    object an early end is a parse error, as objectFromStreamBase converts it.
//
// It reads bytes, as fc reads a std::string, so each byte is a signed char: 0xff is EOF to fc, and
// other bytes above 0x7f start no value. The text a string becomes is its bytes as UTF-8 (fc writes
// the bytes as they are; bytes that are not UTF-8 become U+FFFD here).

/** fc's DEFAULT_MAX_RECURSION_DEPTH, json::from_string's default max_depth. */
const MAX_DEPTH = 200;

export type FcJsonRead = { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: 'parse' | 'eof'; readonly message: string };

class Eof extends Error {}
class ParseError extends Error {}

const INT32_MAX = 2147483647n;
const INT32_MIN = -2147483648n;
const UINT32_MAX = 0xffffffffn;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** C's isalnum in the "C" locale; a byte above 0x7f is a negative char, which it never counts. */
const isAlnum = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** What stringFromToken keeps besides letters and digits. */
const isTokenChar = (c: number): boolean => isAlnum(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x3a || c === 0x2f;
/** token_from_stream's letters: those of null, true and false. */
const isWordChar = (c: number): boolean => 'nultrefas'.includes(String.fromCharCode(c));

const utf8 = new TextDecoder('utf-8');
/** A string variant as fc's escape_string writes it; for UTF-8 text that is JSON.stringify's escaping. */
const stringJson = (bytes: number[]): string => JSON.stringify(utf8.decode(Uint8Array.from(bytes)));

/** fc::to_string(double): `std::fixed` with 17 digits after the point, rounded exactly (half to even, as glibc). */
export function fixed17(d: number): string {
  const negative = d < 0 || Object.is(d, -0);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(d));
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // |d| = mantissa * 2^exponent
  const mantissa = exponentBits === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (exponentBits === 0 ? 1 : exponentBits) - 1075;
  const scale = 10n ** 17n;
  let q: bigint;
  if (exponent >= 0) q = (mantissa << BigInt(exponent)) * scale;
  else {
    const num = mantissa * scale;
    const den = 1n << BigInt(-exponent);
    q = num / den;
    const twice = 2n * (num % den);
    if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  }
  return `${negative ? '-' : ''}${q / scale}.${(q % scale).toString().padStart(17, '0')}`;
}

class Reader {
  private pos = 0;

  constructor(private readonly b: Uint8Array) {}

  /** fc's istream peek: the next byte, or eof_exception at the end. */
  peek(): number {
    if (this.pos >= this.b.length) throw new Eof('unexpected end of file');
    return this.b[this.pos]!;
  }

  get(): number {
    const c = this.peek();
    this.pos++;
    return c;
  }

  skipWhiteSpace(): boolean {
    let skipped = false;
    for (;;) {
      const c = this.peek();
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return skipped;
      skipped = true;
      this.pos++;
    }
  }

  value(depth: number): string {
    if (depth === 0) throw new ParseError('Too many nested items in JSON input!');
    this.skipWhiteSpace();
    const c = this.peek();
    if (c === 0x22) return stringJson(this.quoted());
    if (c === 0x7b) return this.object(depth - 1);
    if (c === 0x5b) return this.array(depth - 1);
    if (c === 0x2d || c === 0x2e || isDigit(c)) return this.number();
    if (c === 0x6e || c === 0x74 || c === 0x66) return this.word();
    // ^D and (signed char)0xff, which equals EOF
    if (c === 0x04 || c === 0xff) throw new Eof('unexpected end of file');
    throw new ParseError(`Unexpected char '${String.fromCharCode(c)}'`);
  }

  /** parseEscape: the byte after a backslash, with fc's four escapes. */
  private escape(): number {
    this.get();
    const c = this.get();
    return c === 0x74 ? 0x09 : c === 0x6e ? 0x0a : c === 0x72 ? 0x0d : c;
  }

  /** stringFromStream: a quoted string's bytes. */
  quoted(): number[] {
    if (this.peek() !== 0x22) throw new ParseError(`Expected '"' but read '${String.fromCharCode(this.peek())}'`);
    this.get();
    const out: number[] = [];
    for (;;) {
      const c = this.peek();
      if (c === 0x5c) out.push(this.escape());
      else if (c === 0x04) throw new ParseError("EOF before closing '\"' in string");
      else if (c === 0x22) {
        this.get();
        return out;
      } else out.push(this.get());
    }
  }

  /** stringFromToken: an unquoted word; the end of the text, or a blank (taken), ends it. */
  private token(): number[] {
    const out: number[] = [];
    try {
      for (;;) {
        const c = this.peek();
        if (c === 0x5c) out.push(this.escape());
        else if (c === 0x09 || c === 0x20 || c === 0x00 || c === 0x0a) {
          this.get();
          return out;
        } else if (isTokenChar(c)) out.push(this.get());
        else return out;
      }
    } catch (err) {
      if (err instanceof Eof) return out;
      throw err;
    }
  }

  private object(depth: number): string {
    const members: string[] = [];
    try {
      this.get(); // '{', seen by value()
      while (this.peek() !== 0x7d) {
        if (this.peek() === 0x2c) {
          this.get();
          continue;
        }
        if (this.skipWhiteSpace()) continue;
        const key = this.quoted();
        this.skipWhiteSpace();
        if (this.peek() !== 0x3a) throw new ParseError(`Expected ':' after key "${utf8.decode(Uint8Array.from(key))}"`);
        this.get();
        members.push(`${stringJson(key)}:${this.value(depth)}`);
      }
      this.get();
      return `{${members.join(',')}}`;
    } catch (err) {
      // objectFromStreamBase turns an early end, also one inside a member, into a parse error.
      if (err instanceof Eof) throw new ParseError('Unexpected EOF');
      throw err;
    }
  }

  private array(depth: number): string {
    const items: string[] = [];
    this.get(); // '['
    while (this.peek() !== 0x5d) {
      if (this.peek() === 0x2c) {
        this.get();
        continue;
      }
      if (this.skipWhiteSpace()) continue;
      items.push(this.value(depth));
    }
    this.get();
    return `[${items.join(',')}]`;
  }

  /** number_from_stream: digits, one '.', a leading '-'; a letter after them makes the whole a word. */
  private number(): string {
    const text: number[] = [];
    let dot = false;
    let negative = false;
    if (this.peek() === 0x2d) {
      negative = true;
      text.push(this.get());
    }
    try {
      for (;;) {
        const c = this.peek();
        if (c === 0x00) break;
        if (c === 0x2e) {
          if (dot) throw new ParseError("Can't parse a number with two decimal places");
          dot = true;
          text.push(this.get());
        } else if (isDigit(c)) text.push(this.get());
        else if (isAlnum(c)) return stringJson([...text, ...this.token()]);
        else break;
      }
    } catch (err) {
      if (!(err instanceof Eof)) throw err;
    }
    const s = String.fromCharCode(...text);
    if (s === '-.' || s === '.' || s === '-') throw new ParseError(`Can't parse token "${s}" as a JSON numeric constant`);
    if (dot) {
      // boost::lexical_cast<double>: a value beyond the double range is refused
      const d = Number(s);
      if (!Number.isFinite(d)) throw new ParseError("Couldn't parse double");
      return JSON.stringify(fixed17(d));
    }
    const n = BigInt(s);
    if (negative) {
      if (n < INT64_MIN) throw new ParseError("Couldn't parse int64_t");
      return n > INT32_MAX || n < INT32_MIN ? `"${n}"` : String(n);
    }
    if (n > UINT64_MAX) throw new ParseError("Couldn't parse uint64_t");
    return n > UINT32_MAX ? `"${n}"` : String(n);
  }

  /** token_from_stream: null, true, false, or else a word (an early end keeps what was read). */
  private word(): string {
    const text: number[] = [];
    let ended = false;
    try {
      for (;;) {
        const c = this.peek();
        if (c === 0x00 || !isWordChar(c)) break;
        text.push(this.get());
      }
    } catch (err) {
      if (!(err instanceof Eof)) throw err;
      ended = true;
    }
    const s = String.fromCharCode(...text);
    if (s === 'null') return 'null';
    if (s === 'true' || s === 'false') return s;
    return stringJson(ended ? text : [...text, ...this.token()]);
  }
}

/**
 * `fc::json::from_string(text)` as the value's reply JSON, or which of fc's two exceptions it raises.
 * Nothing after the first value is read.
 */
export function readFcJson(text: Uint8Array): FcJsonRead {
  try {
    return { ok: true, json: new Reader(text).value(MAX_DEPTH) };
  } catch (err) {
    if (err instanceof Eof) return { ok: false, error: 'eof', message: err.message };
    if (err instanceof ParseError) return { ok: false, error: 'parse', message: err.message };
    throw err;
  }
}

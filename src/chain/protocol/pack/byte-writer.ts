// The byte buffer the serializer packs into (serializer.ts), with fc's primitive encodings: integers
// little-endian, unsigned_int as LEB128, vector<char> and std::string with a varint length
// (bitshares-fc include/fc/io/raw.hpp, varint.hpp).

/** A growing byte buffer with fc's primitive encodings. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  constructor(initialSize = 256) {
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.len;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  uint8(v: number): this {
    this.reserve(1);
    this.view.setUint8(this.len, v);
    this.len += 1;
    return this;
  }

  uint16(v: number): this {
    this.reserve(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  uint32(v: number): this {
    this.reserve(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }

  uint64(v: bigint | number): this {
    this.reserve(8);
    this.view.setBigUint64(this.len, BigInt(v), true);
    this.len += 8;
    return this;
  }

  int64(v: bigint | number): this {
    this.reserve(8);
    this.view.setBigInt64(this.len, BigInt(v), true);
    this.len += 8;
    return this;
  }

  /** fc::unsigned_int: 7 bits a byte, low bits first, high bit set on all but the last (raw.hpp). */
  varint(v: bigint | number): this {
    let n = BigInt(v);
    if (n < 0n) throw new Error(`varint: negative value ${n}`);
    do {
      let b = Number(n & 0x7fn);
      n >>= 7n;
      if (n > 0n) b |= 0x80;
      this.uint8(b);
    } while (n > 0n);
    return this;
  }

  /** Raw bytes, no length prefix (fixed-size values such as hashes, keys, signatures). */
  raw(data: Uint8Array): this {
    this.reserve(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** vector<char>: varint length, then the bytes. */
  bytes(data: Uint8Array): this {
    return this.varint(data.length).raw(data);
  }

  /** std::string: varint byte length, then UTF-8. */
  string(s: string): this {
    return this.bytes(new TextEncoder().encode(s));
  }

  bool(v: boolean): this {
    return this.uint8(v ? 1 : 0);
  }

  /** A copy of exactly the bytes written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// The one msgpackr configuration, for both sides of the pool.
//
// - No `sequential`/shared structures: a structure defined in a message to one worker would not be
//   known to another, and decoding would fail there (style-models §10.2).
// - `pack()` returns a view into msgpackr's shared 8 KiB buffer; we copy to an exact-size array so
//   that what we transfer is only our bytes and the packer stays usable (§10.3).
import { Packr, Unpackr } from 'msgpackr';

const packr = new Packr({ useRecords: false, moreTypes: false });
const unpackr = new Unpackr({ useRecords: false });

export function encode(value: unknown): Uint8Array {
  return Uint8Array.prototype.slice.call(packr.pack(value));
}

export function decode<T>(bytes: Uint8Array): T {
  return unpackr.unpack(bytes) as T;
}

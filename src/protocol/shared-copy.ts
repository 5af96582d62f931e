// Copies into and out of the memory the front end and the workers share (the reply slab, the task
// slab) at memcpy's speed.
//
// V8 copies between typed arrays with relaxed atomic moves whenever either lies in a
// SharedArrayBuffer (TypedArray.prototype.set, and Buffer.prototype.copy, which is that set on
// Node 20): word by word where source and target are equally aligned, byte by byte where not. On the
// 2-CPU machine 30 KB took 1.2 µs aligned and 8.5 µs unaligned that way, against 0.9 µs with memcpy
// (docs/design/shared-copies.md); a task leaves msgpackr's buffer at any offset. Buffer.prototype.fill
// with a Uint8Array exactly as long as the range it fills copies it once, with memcpy
// (node_buffer.cc Fill), whatever memory either lies in.
// Plain memcpy is enough: no other thread reads these bytes until their place crosses to it in a
// message, which orders the writes before the reads, as it did for the relaxed moves.
import { NATIVE_COPY_FROM_BYTES } from '../tuning.js';

const fill = Buffer.prototype.fill;

/** Copies all of `source` into `target` from `at` (which must have room), by memcpy when it is large enough to pay. */
export function copyBytes(target: Uint8Array, at: number, source: Uint8Array): void {
  const n = source.length;
  if (n >= NATIVE_COPY_FROM_BYTES) fill.call(target, source, at, at + n);
  else if (n > 0) target.set(source, at);
}

/** A copy of `source` in memory of its own (not shared), by memcpy when it is large enough to pay. */
export function ownCopy(source: Uint8Array): Buffer {
  const own = Buffer.allocUnsafeSlow(source.length);
  copyBytes(own, 0, source);
  return own;
}

// The one msgpackr configuration, for both sides of the pool.
//
// - No `sequential`/shared structures: a structure defined in a message to one worker would not be
//   known to another, and decoding would fail there (style-models §10.2).
// - `pack()` returns a view into msgpackr's shared 8 KiB buffer; we copy it at once, to an exact-size
//   array or into the task slab, so that what crosses is only our bytes and the packer stays usable
//   (§10.3).
import { Packr, Unpackr } from 'msgpackr';
import { PACK_BUFFER_KEPT_BYTES } from '../tuning.js';
import type { PoolTask } from './thread-messages.js';

const packr = new Packr({ useRecords: false, moreTypes: false });
const unpackr = new Unpackr({ useRecords: false });

/**
 * The packer's buffer, written from its start by every pack: what a pack returns is copied at once
 * (above), so nothing reads it after the next one. Left to itself msgpackr writes each pack after
 * the last and, near the end of its buffer or short of room, allocates a fresh one (four times what
 * a large pack needs): a task carrying a 1 MB request made a 4 MB buffer outside V8's heap every
 * few tasks, and V8 answered such allocations with full collections of the front end's heap
 * (docs/design/large-replies.md). A buffer grown for a large pack is kept, up to PACK_BUFFER_KEPT_BYTES.
 */
let target = Buffer.allocUnsafeSlow(8192);

function pack(value: unknown): Uint8Array {
  packr.useBuffer(target);
  const out = packr.pack(value);
  if (out.buffer !== target.buffer && out.buffer.byteLength <= PACK_BUFFER_KEPT_BYTES) target = Buffer.from(out.buffer as ArrayBuffer);
  return out;
}

export function encode(value: unknown): Uint8Array {
  return ownBytes(pack(value));
}

/** An exact-size copy of packed bytes, ours to transfer (a view into msgpackr's buffer is not). */
export function ownBytes(packed: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(packed);
}

export function decode<T>(bytes: Uint8Array): T {
  return unpackr.unpack(bytes) as T;
}

// A task of calls crosses as one flat array, TASK_FIELDS values per call, not as an array of
// objects: msgpackr writes an object's keys as strings every time and the worker builds an object
// per call from them, which cost more than the calls' own few values (a third of what the front
// end spent handing a task to the pool). Absent fields are null.
const TASK_FIELDS = 10;

/**
 * A task's calls as bytes in msgpackr's own buffer: valid until the next pack, so copied at once
 * (into the task slab, src/protocol/task-slab.ts).
 */
export function packTasks(tasks: readonly PoolTask[]): Uint8Array {
  const flat: unknown[] = new Array(tasks.length * TASK_FIELDS);
  let i = 0;
  for (const t of tasks) {
    flat[i++] = t.set;
    flat[i++] = t.method;
    flat[i++] = t.packed ? withPackedBytes(t.params, t.packed) : t.params;
    flat[i++] = t.head ?? null;
    flat[i++] = t.deadline ?? null;
    flat[i++] = t.budgetMs ?? null;
    flat[i++] = t.cancelSlot ?? null;
    flat[i++] = t.subscribe === true;
    flat[i++] = t.sliceMs ?? null;
    flat[i++] = t.packed ?? null;
  }
  return pack(flat);
}

/**
 * A call's arguments with its packed ones (PackedArg, src/protocol/read-in-pool.ts) as their bytes:
 * they cross as binary, copied, never unpacked and packed again on the front end.
 */
function withPackedBytes(params: readonly unknown[], packed: readonly number[]): unknown[] {
  const out = params.slice();
  for (const k of packed) out[k] = (params[k] as { readonly bytes: Uint8Array }).bytes;
  return out;
}

/** The calls of a task, as packTasks wrote them. */
export function decodeTasks(bytes: Uint8Array): PoolTask[] {
  const flat = decode<unknown[]>(bytes);
  if (!Array.isArray(flat) || flat.length % TASK_FIELDS !== 0) throw new Error(`not a task: ${Array.isArray(flat) ? `${flat.length} values` : typeof flat}`);
  const tasks: PoolTask[] = new Array(flat.length / TASK_FIELDS);
  for (let i = 0, n = 0; i < flat.length; i += TASK_FIELDS, n++) {
    const params = flat[i + 2] as unknown[];
    const packed = flat[i + 9] as number[] | null;
    // Unpacked here, while their bytes (a view of the task's) are still there.
    if (packed) for (const k of packed) params[k] = decode(params[k] as Uint8Array);
    tasks[n] = {
      set: flat[i] as string,
      method: flat[i + 1] as string,
      params,
      head: (flat[i + 3] ?? undefined) as string | undefined,
      deadline: (flat[i + 4] ?? undefined) as number | undefined,
      budgetMs: (flat[i + 5] ?? undefined) as number | undefined,
      cancelSlot: (flat[i + 6] ?? undefined) as number | undefined,
      subscribe: flat[i + 7] === true,
      sliceMs: (flat[i + 8] ?? undefined) as number | undefined,
    };
  }
  return tasks;
}

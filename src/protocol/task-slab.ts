// The task slab: memory shared by the front end and every worker thread, where the front end writes
// each task's calls (codec.ts: packTasks) for a worker to read. A task written there crosses as one
// number (where it is, how long) instead of a transferred buffer: posting a message that transfers
// an ArrayBuffer detaches it, and the worker gets a new backing store, each task. Measured on this
// project's 2-core machine, a task posted as a number costs the two threads together a third to a
// half of one posted with a 200-byte transferred buffer.
//
// Only the front end takes and frees slots (src/pool/task-slots.ts), one per task for as long as its
// promise is unsettled; the worker copies the bytes out before it reads them, so the slot is not
// read after the task's answer is back. A task larger than a slot takes a run of pages in the
// slab's large part: a request of 1 MB read in the pool, then its call with the packed argument,
// each made a 1 MB buffer on the front end to transfer, and at tens of them a second V8 started
// full collections of the front end's heap for them (docs/design/large-replies.md). A task that
// finds no place (the retries of a failed task, one per call; a large part that is full) crosses
// as before, in a buffer of its own.
//
// Both sides import this file: the layout, and the workers' reader.
import { slabLength as taskLength, slabOffset as taskOffset, slabRef as taskRef } from './reply-slab.js';
import { TASK_SLOT_BYTES } from '../tuning.js';

// A task's place crosses as one number, written as a reply's place in the reply slab is.
export { taskLength, taskOffset, taskRef };

/**
 * `slots` slots, then a large part of `largeBytes` in pages of a slot's size, where a task larger
 * than a slot takes a run of pages (src/pool/task-slots.ts).
 */
export function createTaskSlab(slots: number, largeBytes = 0): SharedArrayBuffer {
  return new SharedArrayBuffer((Math.max(1, slots) + Math.floor(largeBytes / TASK_SLOT_BYTES)) * TASK_SLOT_BYTES);
}

/**
 * A worker's reader of tasks: a task's own buffer as it is, or a copy of its place in the slab. The
 * copy is what is decoded, not the slab: msgpackr decodes long strings with TextDecoder, which
 * refuses shared memory, and the front end reuses the slot once the task is answered. The copy is
 * one buffer, reused: a worker reads one task at a time and decodes it at once.
 */
export function taskReader(slab: SharedArrayBuffer | undefined): (task: Uint8Array | number) => Uint8Array {
  // Typed arrays take a SharedArrayBuffer; the lib types name ArrayBuffer only.
  const shared = slab ? new Uint8Array(slab as unknown as ArrayBuffer) : undefined;
  const copy = new Uint8Array(TASK_SLOT_BYTES);
  return (task) => {
    if (typeof task !== 'number') return task;
    if (!shared) throw new Error('a task in the task slab, but this worker was given none');
    const offset = taskOffset(task);
    const length = taskLength(task);
    // A task from the large part gets a copy of its own: what it carries (a request read in the
    // pool, packed arguments) may be read after the next task is.
    const into = length <= copy.length ? copy : new Uint8Array(length);
    into.set(shared.subarray(offset, offset + length));
    return into.subarray(0, length);
  };
}

// The front end's side of the task slab (src/protocol/task-slab.ts): a slot per task in the pool,
// taken when the task is posted and freed when its answers (or its failure) are back.
import { taskOffset, taskRef } from '../protocol/task-slab.js';
import { TASK_SLOT_BYTES } from '../tuning.js';

export class TaskSlots {
  private readonly bytes: Uint8Array;
  /** the free slots, as a stack: the slot freed last is warm in the cache and taken next */
  private readonly free: number[] = [];

  constructor(slab: SharedArrayBuffer) {
    // Typed arrays take a SharedArrayBuffer; the lib types name ArrayBuffer only.
    this.bytes = new Uint8Array(slab as unknown as ArrayBuffer);
    const slots = Math.floor(slab.byteLength / TASK_SLOT_BYTES);
    for (let i = slots - 1; i >= 0; i--) this.free.push(i);
  }

  /** `task` copied into a free slot, as the number that names it; undefined when it does not fit or none is free. */
  take(task: Uint8Array): number | undefined {
    if (task.byteLength > TASK_SLOT_BYTES) return undefined;
    const slot = this.free.pop();
    if (slot === undefined) return undefined;
    const offset = slot * TASK_SLOT_BYTES;
    this.bytes.set(task, offset);
    return taskRef(offset, task.byteLength);
  }

  /** The slot of a task taken earlier is free again (its worker has copied it out long since). */
  release(ref: number): void {
    this.free.push(Math.floor(taskOffset(ref) / TASK_SLOT_BYTES));
  }

  /** Slots free now (for tests). */
  get available(): number {
    return this.free.length;
  }
}

// The front end's side of the task slab (src/protocol/task-slab.ts): a slot per task in the pool,
// taken when the task is posted and freed when its answers (or its failure) are back. A task larger
// than a slot takes a run of pages of the slab's large part, as long.
import { claimRun, MAX_PLACED_BYTES } from '../protocol/reply-slab.js';
import { taskLength, taskOffset, taskRef } from '../protocol/task-slab.js';
import { TASK_SLOT_BYTES } from '../tuning.js';
import { copyBytes } from '../protocol/shared-copy.js';

export class TaskSlots {
  private readonly bytes: Uint8Array;
  /** the free slots, as a stack: the slot freed last is warm in the cache and taken next */
  private readonly free: number[] = [];
  /** the large part: 1 per page held, after the `slots` slots; where the next search starts */
  private readonly pages: Uint8Array;
  private nextPage = 0;

  /** `slots`: how many of the slab's pages are slots (createTaskSlab); the rest are its large part. */
  constructor(
    slab: SharedArrayBuffer,
    private readonly slots = Math.floor(slab.byteLength / TASK_SLOT_BYTES),
  ) {
    // Typed arrays take a SharedArrayBuffer; the lib types name ArrayBuffer only.
    this.bytes = new Uint8Array(slab as unknown as ArrayBuffer);
    for (let i = slots - 1; i >= 0; i--) this.free.push(i);
    this.pages = new Uint8Array(Math.floor(slab.byteLength / TASK_SLOT_BYTES) - slots);
  }

  /**
   * `task` copied into a free slot, or if larger into a run of the large part, as the number that
   * names it; undefined when no place is free (or it is larger than a reference can name).
   */
  take(task: Uint8Array): number | undefined {
    const at = task.byteLength <= TASK_SLOT_BYTES ? this.slot() : this.run(task.byteLength);
    if (at === undefined) return undefined;
    copyBytes(this.bytes, at, task);
    return taskRef(at, task.byteLength);
  }

  private slot(): number | undefined {
    const slot = this.free.pop();
    return slot === undefined ? undefined : slot * TASK_SLOT_BYTES;
  }

  /** The offset of a run of free pages for `length` bytes, now held; undefined when none is free. */
  private run(length: number): number | undefined {
    if (length > MAX_PLACED_BYTES) return undefined;
    const need = Math.ceil(length / TASK_SLOT_BYTES);
    const start = claimRun(
      this.pages.length,
      need,
      this.nextPage,
      (page) => {
        if (this.pages[page] !== 0) return false;
        this.pages[page] = 1;
        return true;
      },
      (page) => {
        this.pages[page] = 0;
      },
    );
    if (start < 0) return undefined;
    this.nextPage = (start + need) % this.pages.length;
    return (this.slots + start) * TASK_SLOT_BYTES;
  }

  /** The place of a task taken earlier is free again (its worker has copied it out long since). */
  release(ref: number): void {
    const page = Math.floor(taskOffset(ref) / TASK_SLOT_BYTES);
    if (page < this.slots) this.free.push(page);
    else this.pages.fill(0, page - this.slots, page - this.slots + Math.ceil(taskLength(ref) / TASK_SLOT_BYTES));
  }

  /** Pages of the large part held now (for tests). */
  get largePagesInUse(): number {
    let n = 0;
    for (const p of this.pages) n += p;
    return n;
  }

  /** Slots free now (for tests). */
  get available(): number {
    return this.free.length;
  }
}

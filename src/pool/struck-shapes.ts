// Shapes (src/pool/learnt-costs.ts shapeOf) whose light calls used up their slice lately, until
// one of their light calls runs within it again, for at most STRUCK_FOR_MS. A light task stops at
// the first call that uses up its slice and sends the calls behind it back unrun: a thousand calls
// of one such shape queued at once, many owners' calls ahead of a neighbour's in every task, made
// every task one slice for one call, and held the neighbour's for most of a second. So the scheduler
// puts the calls of a struck shape last in their light task: the calls before them lose nothing,
// and the first of them still tells whether the shape is light after all. Unlike LearntCosts this
// decides no call's class: a shape a busy node serves a thousand times a second, struck once (a
// collection in its worker, its thread waiting for a CPU), has its calls run last in their tasks
// until one is back within its slice (README "Struck shapes"). Sending the struck shape's other
// calls to the heavy ones instead held a neighbour's everyday calls behind full blocks for a second
// on a loaded machine.

import { shapeOf } from './learnt-costs.js';
import { STRUCK_FOR_MS, STRUCK_SHAPES } from '../tuning.js';

/** A call as a task carries it: API set, method, arguments. */
interface TaskCall {
  readonly set: string;
  readonly method: string;
  readonly params: readonly unknown[];
}

const shapeOfCall = (c: TaskCall) => shapeOf({ setKey: c.set, method: c.method, args: c.params });

export class StruckShapes {
  /** shape → performance.now() of its last strike; Map order is the order of last strikes */
  private readonly shapes = new Map<string, { readonly method: string; at: number }>();
  /** methods with a shape here, and how many: a call of another method is no suspect, and its shape is not made */
  private readonly methods = new Map<string, number>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly max = STRUCK_SHAPES,
  ) {}

  /** A light call of this shape used up its slice (stopped, or ran on past it). */
  strike(call: TaskCall, shape = shapeOfCall(call)): void {
    const known = this.shapes.get(shape);
    if (known) {
      this.shapes.delete(shape);
      known.at = this.now();
      this.shapes.set(shape, known);
      return;
    }
    this.shapes.set(shape, { method: call.method, at: this.now() });
    this.methods.set(call.method, (this.methods.get(call.method) ?? 0) + 1);
    if (this.shapes.size > this.max) this.forgetOldest();
  }

  /** A light call ran within its slice: its shape is light again. */
  clear(call: TaskCall): void {
    if (this.shapes.size === 0 || !this.methods.has(call.method)) return;
    const shape = shapeOfCall(call);
    const known = this.shapes.get(shape);
    if (!known) return;
    this.shapes.delete(shape);
    this.forgetMethod(known.method);
  }

  /** Whether a call's shape struck within STRUCK_FOR_MS (and ran within its slice since). */
  has(call: TaskCall): boolean {
    if (this.shapes.size === 0) return false;
    // The oldest strikes go first: they are at the Map's head.
    const now = this.now();
    while (this.shapes.size > 0 && now - this.shapes.values().next().value!.at > STRUCK_FOR_MS) this.forgetOldest();
    if (!this.methods.has(call.method)) return false;
    return this.shapes.has(shapeOfCall(call));
  }

  get size(): number {
    return this.shapes.size;
  }

  private forgetOldest(): void {
    const [shape, { method }] = this.shapes.entries().next().value!;
    this.shapes.delete(shape);
    this.forgetMethod(method);
  }

  private forgetMethod(method: string): void {
    const n = (this.methods.get(method) ?? 0) - 1;
    if (n > 0) this.methods.set(method, n);
    else this.methods.delete(method);
  }
}

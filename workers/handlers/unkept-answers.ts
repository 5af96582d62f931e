// The fixed answers of calls about subsystems this chain does not keep, written from their entry in
// src/api/unkept.ts: a handler can only give such an answer for a method listed there (the method
// parameter's type is the table's keys with that answer), so the table and the handlers cannot
// drift apart.
import { UNKEPT, type Unkept, type UnkeptAnswer, type UnkeptTable } from '../../src/api/unkept.js';
import type { ReplyWriter } from '../reply-writer.js';

/** The methods of set S whose table entry has an answer among A. */
type Answering<S extends keyof UnkeptTable, A extends UnkeptAnswer> = {
  [M in keyof UnkeptTable[S]]: UnkeptTable[S][M] extends { readonly answer: A } ? M : never;
}[keyof UnkeptTable[S]];

const entry = <S extends keyof UnkeptTable>(set: S, method: keyof UnkeptTable[S]): Unkept => UNKEPT[set][method] as Unkept;

/** Writes the listed `[]` or `null`, after the call's argument and limit checks. */
export function answerNothing<S extends keyof UnkeptTable>(out: ReplyWriter, set: S, method: Answering<S, '[]' | 'null'>): void {
  out.text(entry(set, method).answer);
}

/**
 * Writes `[null,…]`, one for each of the `n` ids or symbols asked for. The set and method name the
 * table's entry; only their types matter here.
 */
export function answerNullForEach<S extends keyof UnkeptTable>(out: ReplyWriter, _set: S, _method: Answering<S, 'null for each'>, n: number): void {
  out.text('[');
  for (let i = 0; i < n; i++) out.text(i > 0 ? ',null' : 'null');
  out.text(']');
}

// src/tuning.ts and docs/reference/tuning.md say the same: every tuning constant is in the table with
// its value, the table lists nothing else, and each constant names a test that exists.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import * as tuning from '../src/tuning.js';
import { fixture } from './helpers/node.js';

const root = fixture('../..');

/** The table's rows: constant name → the text of its value cell. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readFileSync(`${root}/docs/reference/tuning.md`, 'utf8').split('\n')) {
    const row = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/.exec(line);
    if (row) rows.set(row[1]!, row[2]!.trim());
  }
  return rows;
}

/** A value as the table writes it: a number with optional `_` between digits, or `key value` pairs. */
function readValue(cell: string, like: unknown): unknown {
  if (typeof like === 'number') return Number(cell.replace(/_/g, ''));
  return Object.fromEntries(cell.split(', ').map((pair) => [pair.split(' ')[0], Number(pair.split(' ')[1])]));
}

test('docs/reference/tuning.md lists every constant of src/tuning.ts with its value, and no other', (t) => {
  const rows = documented();
  const exports = Object.entries(tuning);
  t.true(exports.length > 0);
  for (const [name, value] of exports) {
    const cell = rows.get(name);
    if (cell === undefined) {
      t.fail(`${name} is not in docs/reference/tuning.md`);
      continue;
    }
    t.deepEqual(readValue(cell, value), value, `${name}: the doc says ${cell}`);
  }
  t.deepEqual([...rows.keys()].sort(), exports.map(([name]) => name).sort());
});

test('each tuning constant has a reason and names a test file that exists', (t) => {
  const source = readFileSync(`${root}/src/tuning.ts`, 'utf8');
  for (const name of Object.keys(tuning)) {
    const at = source.search(new RegExp(`^export const ${name}\\b`, 'm'));
    t.true(at > 0, name);
    const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(source.slice(0, at));
    t.truthy(comment, `${name} has no doc comment`);
    const pointer = /(?:Test|Exercised by): ([^*]+?)\.?\s*$/.exec(comment![1]!);
    t.truthy(pointer, `${name} names no test`);
    for (const file of pointer![1]!.split(', ')) t.true(existsSync(`${root}/${file.trim()}`), `${name}: ${file} does not exist`);
  }
});

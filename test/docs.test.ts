// The README and config/config.ini are derived from the option table; these tests keep them so.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildConfig, OPTIONS } from '../src/config.js';
import ini from 'ini';
import { fixture } from './helpers/node.js';

const root = fixture('../..');

test('the README documents every option', (t) => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  for (const o of OPTIONS) t.true(readme.includes(`\`--${o.name}\``), `--${o.name} is missing from the README`);
});

test('config/config.ini lists every option, and uncommented it is a valid config', (t) => {
  const text = readFileSync(`${root}/config/config.ini`, 'utf8');
  for (const o of OPTIONS) t.true(text.includes(`# ${o.name} = `), `${o.name} is missing from config.ini`);
  const uncommented = text
    .split('\n')
    .filter((l) => /^# [a-z0-9-]+ = /.test(l))
    .map((l) => l.slice(2))
    .filter((l) => !/ = $/.test(l))
    .join('\n');
  const file = ini.parse(uncommented) as Record<string, string>;
  t.notThrows(() => buildConfig({}, Object.fromEntries(Object.entries(file).map(([k, v]) => [k, String(v)]))));
});

test('the sample access file is the seed sample: a named user with four sets, the wildcard with three', (t) => {
  const doc = JSON.parse(readFileSync(`${root}/config/api-access.example.json`, 'utf8'));
  t.deepEqual(
    doc.permission_map.map(([user, e]: [string, { allowed_apis: string[] }]) => [user, e.allowed_apis]),
    [
      ['bytemaster', ['database_api', 'network_broadcast_api', 'history_api', 'network_node_api']],
      ['*', ['database_api', 'network_broadcast_api', 'history_api']],
    ],
  );
});

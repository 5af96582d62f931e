// The README's devnet walkthrough script works against a real node.
import test from 'ava';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestNode } from './helpers/node.js';
import { headAtLeast } from './helpers/blocks.js';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/devnet-transfer.mjs');

test('examples/devnet-transfer.mjs registers alice, sends her a transfer with a memo and sees the notice', async (t) => {
  const node = await startTestNode(t, { 'block-interval': '1' });
  const { wsUrl } = node;
  // Let the first block bring the head time to now, as a running devnet has.
  await headAtLeast(node, 1);
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [script, wsUrl], { timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout))),
  );
  t.regex(out, /registered alice as 1\.2\.7/);
  t.regex(out, /confirmed: transaction [0-9a-f]{40} in block \d+/);
  t.regex(out, /notice for callback 1: /);
  t.regex(out, /alice's newest operation: 1\.11\.\d+, 100000 of 1\.3\.0, memo "hello alice"/);
});

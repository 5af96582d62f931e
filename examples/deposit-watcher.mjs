#!/usr/bin/env node
// A deposit watcher for an exchange: the deposit feed (deposits_api, docs/api/deposit-feed.md),
// exactly once across restarts, with nothing but `ws` and a file for the cursor.
//
//   node examples/deposit-watcher.mjs [ws://127.0.0.1:8090] [--accounts alice,bob]
//     [--user exchange --password change-this-password] [--cursor-file deposit-cursor.txt]
//     [--from-start] [--irreversible] [--stop-after N]
//
// 1. reads the stored cursor; a first run starts after the head block (stored at once), or with
//    --from-start at the chain's start;
// 2. logs in, and asks the login API for the deposits set's id;
// 3. subscribes to the accounts' transfers from the cursor: first the backlog, then each new block's;
// 4. processes each transfer (here: prints it), then stores its cursor, so that a restart resumes
//    after the last transfer processed, never before it and never after one not processed;
// 5. on a lost connection, connects again and resumes from the stored cursor.
//
// A real watcher credits a deposit in its own database and stores the cursor in the same database
// transaction; with --irreversible it is told of a transfer only once its block is irreversible.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    accounts: { type: 'string', default: 'alice' },
    user: { type: 'string', default: 'exchange' },
    password: { type: 'string', default: 'change-this-password' },
    'cursor-file': { type: 'string', default: 'deposit-cursor.txt' },
    'from-start': { type: 'boolean', default: false },
    irreversible: { type: 'boolean', default: false },
    'stop-after': { type: 'string' },
  },
});
const url = positionals[0] ?? 'ws://127.0.0.1:8090';
const accounts = opts.accounts.split(',');
const cursorFile = opts['cursor-file'];
const stopAfter = opts['stop-after'] === undefined ? Infinity : Number(opts['stop-after']);
/** The start of the chain: the one cursor the feed accepts that it did not return. */
const CHAIN_START = '1' + '0'.repeat(28);
const CALLBACK = 1;

function loadCursor() {
  if (existsSync(cursorFile)) return readFileSync(cursorFile, 'utf8').trim();
  return opts['from-start'] ? CHAIN_START : null; // null: after the head block
}

/** Written to a new file and renamed over the old one, so a crash leaves one cursor or the other. */
function storeCursor(cursor) {
  writeFileSync(`${cursorFile}.tmp`, cursor);
  renameSync(`${cursorFile}.tmp`, cursorFile);
}

/** What an exchange does with a deposit: here, print it. */
function processTransfer(t) {
  const memo = t.memo === null ? 'no memo' : 'encrypted memo';
  const state = t.irreversible ? 'irreversible' : 'reversible';
  console.log(`transfer ${t.from} -> ${t.to}: ${t.amount.amount} of ${t.amount.asset_id}, block ${t.block_num}, ${memo}, ${state}`);
}

let processed = 0;

function watch() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let nextId = 1;
    const pending = new Map();
    const call = (api, method, params) =>
      new Promise((res, rej) => {
        const id = nextId++;
        pending.set(id, { res, rej });
        ws.send(JSON.stringify({ id, method: 'call', params: [api, method, params] }));
      });
    ws.on('error', reject);
    ws.on('close', () => resolve('closed'));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.method === 'notice' && m.params[0] === CALLBACK) {
        for (const t of m.params[1][0]) {
          processTransfer(t);
          storeCursor(t.cursor);
          processed++;
          if (processed >= stopAfter) {
            console.log(`stored cursor ${t.cursor} in ${cursorFile}; stopping after ${processed} transfers`);
            ws.close();
            resolve('done');
            return;
          }
        }
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.rej(new Error(m.error.message));
      else p.res(m.result);
    });
    ws.on('open', async () => {
      try {
        if ((await call(1, 'login', [opts.user, opts.password])) !== true) throw new Error(`login as ${opts.user} refused: wrong user or password`);
        const api = await call(1, 'deposits', []).catch((e) => {
          throw new Error(`${e.message}: the access file must grant deposits_api to ${opts.user} (docs/api/deposit-feed.md)`);
        });
        console.log(`logged in as ${opts.user}; the deposits API is API ${api}`);
        let cursor = loadCursor();
        if (cursor === null) {
          // First run, from now: store where "now" is before anything else, so that a restart
          // before the first deposit still resumes here.
          cursor = (await call(api, 'get_transfers', [accounts, null, 0])).next_cursor;
          storeCursor(cursor);
          console.log(`first run: starting after the head block, at cursor ${cursor}`);
        }
        const from = cursor === CHAIN_START ? 'the start of the chain' : `cursor ${cursor}`;
        console.log(`subscribing to ${accounts.join(', ')} from ${from}`);
        await call(api, 'subscribe_transfers', [CALLBACK, accounts, cursor, opts.irreversible]);
      } catch (e) {
        ws.close();
        reject(e);
      }
    });
  });
}

process.on('SIGINT', () => process.exit(0));
for (;;) {
  try {
    if ((await watch()) === 'done') break;
    console.log('connection closed; resuming from the stored cursor in 1 s');
  } catch (e) {
    if (/login|deposits_api/.test(e.message)) {
      console.error(e.message);
      process.exit(1);
    }
    console.log(`${e.message}; trying again in 1 s`);
  }
  await new Promise((r) => setTimeout(r, 1000));
}

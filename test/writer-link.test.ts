// A serving process' link to the writer process: its log lines travel over the IPC channel, and a
// process that stops waits for them to be written before it exits.
import test from 'ava';
import { WriterLink, type Channel } from '../src/processes/writer-link.js';
import type { ToServing, ToWriter } from '../src/processes/messages.js';

/** A channel that writes a message only when the test says so. */
function slowChannel() {
  const unwritten: (() => void)[] = [];
  const sent: ToWriter[] = [];
  const channel: Channel = {
    connected: true,
    send(message, done) {
      sent.push(message);
      unwritten.push(() => done?.(null));
      return true;
    },
    on() {
      return undefined;
    },
  };
  return { channel, sent, writeOne: () => unwritten.shift()?.() };
}

const init = { t: 'init', index: 0, config: {}, sharedPort: false, logLevel: 'info', signingPublicKey: undefined, state: {} } as unknown as Extract<ToServing, { t: 'init' }>;

test('logsFlushed resolves once every log line given so far is written to the channel, and at once when none waits', async (t) => {
  const { channel, sent, writeOne } = slowChannel();
  const link = new WriterLink(channel, init);
  await link.logsFlushed(10_000);
  link.logDestination.write('{"msg":"one"}\n');
  link.logDestination.write('{"msg":"serving process stopped"}\n');
  t.is(sent.length, 2);
  let flushed = false;
  const waiting = link.logsFlushed(10_000).then(() => (flushed = true));
  writeOne();
  await new Promise((r) => setImmediate(r));
  t.false(flushed, 'the last line is not written yet');
  writeOne();
  await waiting;
  t.true(flushed);
});

test('logsFlushed gives up after its bound when the channel never writes', async (t) => {
  const { channel } = slowChannel();
  const link = new WriterLink(channel, init);
  link.logDestination.write('{"msg":"stuck"}\n');
  const started = Date.now();
  await link.logsFlushed(50);
  t.true(Date.now() - started >= 45);
});

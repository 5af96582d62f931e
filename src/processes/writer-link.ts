// A front end's side of --processes N > 1 or --serving-threads N > 1: the chain's one writer, seen
// through the channel to it (a serving process' IPC channel, process.send / 'message'; a serving
// thread's MessagePort). It is a ChainWriter like the local producer, so the front end of a serving
// process or thread is the front end of a single-process node.
//
// Ordering: the writer sends an event after its commit, and answers a push after the producer has
// emitted the push's 'pending' event; one channel keeps its messages in order. So a serving process
// has handled a transaction's 'pending' (its pool told that the store changed) before the push's
// reply resolves: a client that broadcasts and then reads, here or on any other serving process
// that has had the event, reads the new state.
import { EventEmitter } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import type { ChainWriter, ChainWriterEvents } from '../chain/node/chain-writer.js';
import { RPC, RpcError, limitError } from '../errors.js';
import type { MetricsJson, ToServing, ToWriter, WriterOp, WriterState } from './messages.js';

/** The IPC channel of a forked process (node's `process`), as far as this module uses it. */
export interface Channel {
  /** `sent` is called once the message is written to the channel (or could not be) */
  send(message: ToWriter, sent?: (err: Error | null) => void): unknown;
  on(event: 'message', listener: (message: ToServing) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  readonly connected: boolean;
}

/**
 * A serving thread's channel: its Worker's MessagePort. A message is posted at once (structured clone,
 * as the fork's 'advanced' serialization), so `sent` is called at once; the port closes only when the
 * writer's side does.
 */
export function portChannel(port: MessagePort): Channel {
  let connected = true;
  // First: a 'disconnect' listener reads `connected` false.
  port.on('close', () => (connected = false));
  return {
    send(message, sent) {
      if (connected) port.postMessage(message);
      sent?.(connected ? null : new Error('the port is closed'));
      return connected;
    },
    on(event: 'message' | 'disconnect', listener: (message: ToServing) => void) {
      return event === 'disconnect' ? port.on('close', listener as () => void) : port.on('message', listener);
    },
    get connected() {
      return connected;
    },
  } as Channel;
}

/** What the writer asks of a serving process beyond the chain's events. */
export interface ServingControl {
  metrics(): Promise<MetricsJson>;
  reloadOptions(config: Extract<ToServing, { t: 'reload-options' }>['config']): void;
  reloadAccess(): void;
  close(): void;
  /** close every socket at once and end (a serving thread, when the node's process is about to exit) */
  halt(): void;
  /** the writer process is gone (the channel closed without a 'close' first) */
  writerGone(): void;
}

export class WriterLink implements ChainWriter {
  private readonly events = new EventEmitter<ChainWriterEvents>();
  /** node-local state the writer wrote (add_node's peer list): the workers must read it afresh */
  private readonly stored: (() => void)[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private readonly scrapes = new Map<number, (r: { contentType: string; text: string }) => void>();
  private control: ServingControl | undefined;
  private current: WriterState;
  readonly producing: ChainWriter['producing'];

  constructor(
    private readonly channel: Channel,
    init: Extract<ToServing, { t: 'init' }>,
  ) {
    this.current = init.state;
    const key = init.signingPublicKey;
    this.producing = key === undefined ? undefined : { signingPublicKey: key, produce: async (count) => void (await this.ask({ op: 'produce', count })) };
    channel.on('message', (m) => this.receive(m));
    channel.on('disconnect', () => {
      // Whatever was asked is never answered: a push may or may not have been applied, as when a
      // node dies mid-call; the client hears the node is going away and asks again elsewhere.
      const gone = limitError(RPC.SHUTTING_DOWN, 'the node\'s writer process is gone');
      for (const w of this.waiting.values()) w.reject(gone);
      this.waiting.clear();
      this.control?.writerGone();
    });
  }

  on<K extends keyof ChainWriterEvents>(event: K, listener: (...args: ChainWriterEvents[K]) => void): this {
    // EventEmitter's conditional listener type does not narrow on a generic key (as producer.asWriter).
    this.events.on(event, listener as never);
    return this;
  }

  onStored(listener: () => void): void {
    this.stored.push(listener);
  }

  /** Handlers of the writer's requests; set once the front end is up. */
  controlledBy(control: ServingControl): void {
    this.control = control;
  }

  /** The writer's state as last sent: what /ready and /metrics say of block writing. */
  get state(): WriterState {
    return this.current;
  }

  push(trx: unknown): Promise<string> {
    return this.ask({ op: 'push', trx }) as Promise<string>;
  }

  validate(trx: unknown): Promise<Record<string, unknown>> {
    return this.ask({ op: 'validate', trx }) as Promise<Record<string, unknown>>;
  }

  async recordPeer(endpoint: string): Promise<void> {
    await this.ask({ op: 'recordPeer', endpoint });
  }

  /** The node's /metrics: every process' metrics, aggregated by the writer. */
  scrape(): Promise<{ contentType: string; text: string }> {
    if (!this.channel.connected) return Promise.reject(new Error('the writer process is gone'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.scrapes.set(id, resolve);
      this.channel.send({ t: 'scrape', id });
    });
  }

  /** Log lines given to the channel and not yet written to it, and who waits for them. */
  private logsUnwritten = 0;
  private logsWaiting: (() => void)[] = [];
  private readonly logWritten = (): void => {
    if (--this.logsUnwritten === 0) for (const resolve of this.logsWaiting.splice(0)) resolve();
  };

  /** A destination for this process' logger: its lines go to the writer's log. */
  readonly logDestination = {
    write: (line: string): void => {
      if (this.channel.connected) {
        this.logsUnwritten++;
        this.channel.send({ t: 'log', line }, this.logWritten);
      }
      // The writer is gone: say it where someone may still read it.
      else process.stderr.write(line);
    },
  };

  /**
   * Resolves once every log line given so far has been written to the channel, or after `ms`.
   * process.exit drops what the channel has not written yet: a process that says why it stops and
   * then exits at once would lose the line under load.
   */
  logsFlushed(ms: number): Promise<void> {
    if (this.logsUnwritten === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.logsWaiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Tells the writer this process listens (or could not start). */
  tell(message: Extract<ToWriter, { t: 'listening' | 'start-failed' }>): void {
    if (this.channel.connected) this.channel.send(message);
  }

  private ask(op: WriterOp): Promise<unknown> {
    if (!this.channel.connected) return Promise.reject(limitError(RPC.SHUTTING_DOWN, 'the node\'s writer process is gone'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send({ t: 'call', id, ...op });
    });
  }

  private receive(m: ToServing): void {
    switch (m.t) {
      // The listeners (main.ts) tell the pool the store changed before anything else; once they have
      // run, this process' workers read the new state, which the ack tells the writer: it holds a
      // push's (or a production's) reply until every serving process has acked.
      case 'block':
        this.events.emit('block', m.block);
        this.channel.send({ t: 'applied', seq: m.seq });
        return;
      case 'pending':
        this.events.emit('pending', m.trx);
        this.channel.send({ t: 'applied', seq: m.seq });
        return;
      case 'stored':
        for (const f of this.stored) f();
        this.channel.send({ t: 'applied', seq: m.seq });
        return;
      case 'dropped':
        this.events.emit('dropped', m.id, m.reason);
        return;
      case 'state':
        this.current = m.state;
        return;
      case 'reply': {
        const w = this.waiting.get(m.id);
        if (!w) return;
        this.waiting.delete(m.id);
        if (m.ok) w.resolve(m.value);
        // A refusal keeps its wire error (code, message, data) as the producer made it; anything
        // else is a failure of the writer, an internal error here as it would be in one process.
        else w.reject(m.wire ? new RpcError(m.wire) : new Error(m.message));
        return;
      }
      case 'scraped':
        this.scrapes.get(m.id)?.({ contentType: m.contentType, text: m.text });
        this.scrapes.delete(m.id);
        return;
      case 'metrics': {
        const control = this.control;
        if (!control) {
          this.channel.send({ t: 'metrics-json', id: m.id, json: [] });
          return;
        }
        // A process whose metrics cannot be read counts nothing in this scrape rather than stall it.
        const answer = (json: MetricsJson) => void (this.channel.connected && this.channel.send({ t: 'metrics-json', id: m.id, json }));
        control.metrics().then(answer, () => answer([]));
        return;
      }
      case 'reload-options':
        this.control?.reloadOptions(m.config);
        return;
      case 'reload-access':
        this.control?.reloadAccess();
        return;
      case 'close':
        this.control?.close();
        return;
      case 'halt':
        this.control?.halt();
        return;
      case 'drill':
        if (m.fault === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, m.ms);
        // Thrown outside this handler, as a failure of the thread's own code would be.
        else setImmediate(() => {
          throw new Error('a drill: this serving thread was asked to fail');
        });
        return;
      case 'init':
        return;
    }
  }
}

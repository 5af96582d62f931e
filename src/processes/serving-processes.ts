// The writer's side of several front ends: --processes N > 1 (N serving processes, child_process.fork
// of src/serving-process.ts) or --serving-threads N > 1 (N worker threads of this process running
// src/serving-thread.ts). Either way it starts them, relays the chain writer's events to every one of
// them, answers what they ask of the writer, restarts one that ends without being asked to, and
// aggregates their metrics for whichever of them a scrape reaches. What differs between the two
// kinds (starting, ending, names) is in serving-units.ts.
//
// Port 0 (tests): uSockets sets SO_REUSEPORT only on a socket listening on a port it was given, not
// on one that asks the kernel for any free port (checked on uWS 20.30: a second process cannot join
// a port the first got from port 0). So the writer asks the kernel for a free port first, and every
// front end listens on that one; should another program take it in between, the first front end
// fails to listen and the writer picks again (FREE_PORT_TRIES).
//
// Why several front ends: the front end's serial part (decode, schedule, write: README "Benchmarks")
// is one event loop, and uWS runs one loop per thread; N front ends share the port through
// SO_REUSEPORT, which uWebSockets.js sets on every listening socket on Linux, so the kernel spreads
// new connections over them (threads of one process as it does processes: each listens on its own
// socket). docs/design/front-end-threads.md weighs processes against threads.
//
// The writer owns the data directory's lock and the store's only writable handle (as a
// single-process node does); front ends open the store read-only. A serving process never outlives
// the writer: when the IPC channel closes it stops (writer-link.ts, main.ts); a thread cannot.
import net from 'node:net';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ChainWriter } from '../chain/node/chain-writer.js';
import { RpcError, isWireError } from '../errors.js';
import { aggregateMetrics, foldCounts, retiredCounts, servingProcessesMetrics, type MetricsJson } from '../metrics/node-metrics.js';
import type { ToServing, ToWriter, WriterOp, WriterState } from './messages.js';
import { NAMES, forkedProcess, workerThread, type ServingKind, type ServingUnit } from './serving-units.js';
import { RESTART_WINDOW_MS, RESTART_FIRST_DELAY_MS, RESTART_MAX_DELAY_MS, METRICS_WAIT_MS, ACK_WAIT_MS, STOP_GRACE_MS, HALT_WAIT_MS, FREE_PORT_TRIES } from '../tuning.js';

/** A port the kernel says is free now on `host`. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The wait before restarting a process that ended `recentEnds` times (this one included) within the window. */
export const restartDelay = (recentEnds: number): number => (recentEnds <= 1 ? 0 : Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** (recentEnds - 2)));

export interface ServingFrontEndsOptions {
  readonly kind: ServingKind;
  readonly count: number;
  readonly config: Config;
  readonly log: Logger;
  /** the chain's one writer, in this process */
  readonly writer: ChainWriter;
  readonly state: () => WriterState;
  /** calls `listener` when the writer's state changes */
  readonly onState: (listener: () => void) => void;
  /** the entry module of a serving process (forked) or thread (a Worker) */
  readonly entry: URL;
}

export interface ServingFrontEnds {
  readonly kind: ServingKind;
  readonly port: number;
  readonly tlsPort: number | undefined;
  /** the pid of each serving process, or threadId of each serving thread, running now, by index (undefined while one is being restarted) */
  ids(): (number | undefined)[];
  /** front ends restarted since the start */
  readonly restarts: number;
  /** front ends listening now */
  readonly listening: number;
  reloadOptions(config: Config): void;
  reloadAccess(): void;
  /** Asks every front end to shut down gracefully, and waits for them to end. */
  close(): Promise<void>;
  /** Asks every serving thread to close its sockets at once and waits for them to end (a bounded wait); a process' exit does that for its serving processes. */
  halt(): Promise<void>;
  /**
   * Makes serving thread `index` fail on purpose (tests; a thread cannot be killed from outside as a
   * process can): 'throw', as an error it does not catch, or 'hang', its event loop held for `ms`.
   */
  drill(index: number, fault: 'throw' | 'hang', ms?: number): void;
}

interface Slot {
  readonly index: number;
  unit: ServingUnit | undefined;
  /** asked to stop by the acknowledgement watch (a thread, which cannot be killed alone) */
  stopAsked: boolean;
  /** the last sequence number this front end acked (its workers read the store as of that event) */
  acked: number;
  listening: boolean;
  /** its metrics as last scraped: its counts stay in the node's totals after it ends */
  lastMetrics: MetricsJson;
  /** when it ended on its own, within the restart window */
  ends: number[];
  restartTimer: NodeJS.Timeout | undefined;
}

export async function startServingFrontEnds(opts: ServingFrontEndsOptions): Promise<ServingFrontEnds> {
  const { log, writer, kind } = opts;
  const names = NAMES[kind];
  /** A front end's fields in the log: its index and its pid or threadId. */
  const who = (slot: Slot, unit = slot.unit) => ({ [names.field]: slot.index, [names.id]: unit?.id });
  const slots: Slot[] = Array.from({ length: opts.count }, (_, index) => ({ index, unit: undefined, stopAsked: false, acked: 0, listening: false, lastMetrics: [], ends: [], restartTimer: undefined }));
  let closing = false;
  /** every serving process listened once: from here on one that ends is restarted */
  let started = false;
  let config = opts.config;
  let port = config.rpcEndpoint.port;
  let tlsPort = config.rpcTlsEndpoint?.port;
  /** the sequence number of the last event that changed the store */
  let seq = 0;
  /** replies held until every serving process has acked the store change before them */
  let held: { seq: number; since: number; send: () => void }[] = [];
  /** the counts of serving processes that ended, summed into one set */
  let retired: MetricsJson = [];
  /** folds run one after another: two processes ending at once must both count */
  let folding: Promise<void> = Promise.resolve();
  const metrics = servingProcessesMetrics({ kind, running: () => slots.filter((s) => s.listening).length, configured: opts.count });

  const send = (slot: Slot, message: ToServing): void => {
    // A front end that is gone (or going) gets nothing; its restart starts from the store as it is.
    if (slot.unit?.connected) slot.unit.send(message);
  };
  const toAll = (message: ToServing): void => {
    for (const s of slots) send(s, message);
  };
  /** Sends the replies every connected front end has caught up for (one asked to stop is not waited for). */
  const release = (): void => {
    const live = slots.filter((s) => s.unit?.connected && !s.stopAsked);
    const upTo = live.length === 0 ? seq : Math.min(...live.map((s) => s.acked));
    if (held.length === 0 || held[0]!.seq > upTo) return;
    const ready = held.filter((h) => h.seq <= upTo);
    held = held.filter((h) => h.seq > upTo);
    for (const h of ready) h.send();
  };
  /** A reply to a serving process, sent once every serving process reads what the writer did before it. */
  const reply = (slot: Slot, message: ToServing): void => {
    held.push({ seq, since: Date.now(), send: () => send(slot, message) });
    release();
  };

  // A front end that holds replies back too long is replaced; its restart reads the store afresh. A
  // process is killed. A thread cannot be killed alone while it holds sockets (serving-units.ts): it is
  // asked to stop, its replies no longer wait for it, and only if it does not end in time is it
  // terminated, which ends the node's process if it still holds them.
  const ackWatch = setInterval(() => {
    const oldest = held[0];
    if (!oldest || Date.now() - oldest.since < ACK_WAIT_MS) return;
    for (const s of slots) {
      if (!s.unit?.connected || s.stopAsked || s.acked >= oldest.seq) continue;
      const unit = s.unit;
      const waitedMs = Date.now() - oldest.since;
      if (kind === 'processes') {
        log.error({ ...who(s), waitedMs }, 'serving process did not acknowledge a change of the store in time; killing it');
        unit.kill();
        continue;
      }
      log.error({ ...who(s), waitedMs }, 'serving thread did not acknowledge a change of the store in time; asking it to stop');
      s.stopAsked = true;
      unit.send({ t: 'close' });
      release();
      setTimeout(() => {
        if (s.unit !== unit || !unit.connected) return;
        log.error({ ...who(s) }, 'serving thread did not stop in time; terminating it (a thread that still holds sockets takes the process down)');
        unit.kill();
      }, config.shutdownDrainMs + STOP_GRACE_MS).unref();
    }
  }, 1000);
  ackWatch.unref();

  writer.on('block', (block) => toAll({ t: 'block', seq: ++seq, block }));
  writer.on('pending', (trx) => toAll({ t: 'pending', seq: ++seq, trx }));
  writer.on('dropped', (id, reason) => toAll({ t: 'dropped', id, reason }));
  // Sent as it changes, before the writer logs it: a serving process' /ready says why at once.
  opts.onState(() => toAll({ t: 'state', state: opts.state() }));

  const perform = async (op: WriterOp): Promise<unknown> => {
    switch (op.op) {
      case 'push':
        return writer.push(op.trx);
      case 'validate':
        return writer.validate(op.trx);
      case 'recordPeer':
        await writer.recordPeer(op.endpoint);
        // The peer list is in the store: every serving process' workers must read it too.
        toAll({ t: 'stored', seq: ++seq });
        return undefined;
      case 'produce':
        if (!writer.producing) throw new Error('this node does not produce blocks');
        await writer.producing.produce(op.count);
        return undefined;
    }
  };

  let scrapeIds = 0;
  const metricsWaits = new Map<number, (json: MetricsJson) => void>();
  const metricsOf = (slot: Slot): Promise<MetricsJson> =>
    new Promise((resolve) => {
      if (!slot.unit?.connected) return resolve([]);
      const id = ++scrapeIds;
      const timer = setTimeout(() => {
        metricsWaits.delete(id);
        resolve(slot.lastMetrics);
      }, METRICS_WAIT_MS);
      metricsWaits.set(id, (json) => {
        clearTimeout(timer);
        slot.lastMetrics = json;
        resolve(json);
      });
      send(slot, { t: 'metrics', id });
    });
  const scrape = async (): Promise<{ contentType: string; text: string }> => {
    const each = await Promise.all(slots.map(metricsOf));
    return aggregateMetrics([await metrics.json(), ...each, retired]);
  };

  /** A front end's log line, written by the writer's logger (its level, format and destination). */
  const relayLog = (line: string): void => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      log.warn({ line }, `a ${names.one} wrote a log line that is not JSON`);
      return;
    }
    const { level, msg, time: _time, ...fields } = parsed;
    const label = log.levels.labels[level as number] as 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | undefined;
    if (label) log[label](fields, msg as string);
  };

  const receive = (slot: Slot, m: ToWriter): void => {
    switch (m.t) {
      case 'call':
        perform(m).then(
          (value) => reply(slot, { t: 'reply', id: m.id, ok: true, value }),
          (err: unknown) =>
            reply(slot, {
              t: 'reply',
              id: m.id,
              ok: false,
              wire: err instanceof RpcError ? err.wire : isWireError(err) ? err : undefined,
              message: (err as Error)?.message ?? String(err),
            }),
        );
        return;
      case 'applied':
        slot.acked = Math.max(slot.acked, m.seq);
        release();
        return;
      case 'metrics-json':
        metricsWaits.get(m.id)?.(m.json);
        metricsWaits.delete(m.id);
        return;
      case 'scrape':
        scrape().then(
          (r) => send(slot, { t: 'scraped', id: m.id, ...r }),
          (err: unknown) => {
            log.error({ err }, `metrics of the ${names.many} could not be aggregated`);
            send(slot, { t: 'scraped', id: m.id, contentType: 'text/plain', text: '' });
          },
        );
        return;
      case 'log':
        relayLog(m.line);
        return;
      case 'listening':
      case 'start-failed':
        return;
    }
  };

  /** The options as a front end takes them: the endpoints with the port they all listen on (port 0 picked once). */
  const servingConfig = (c: Config): Config => ({
    ...c,
    rpcEndpoint: { ...c.rpcEndpoint, port },
    rpcTlsEndpoint: c.rpcTlsEndpoint && { ...c.rpcTlsEndpoint, port: tlsPort ?? c.rpcTlsEndpoint.port },
  });

  /** Starts the front end of a slot; resolves once it listens, rejects if it ends or fails first. */
  const start = (slot: Slot, sharedPort: boolean): Promise<void> => {
    const unit = kind === 'processes' ? forkedProcess(opts.entry) : workerThread(opts.entry, (err) => log.error({ ...who(slot, unit), err }, 'serving thread failed'));
    slot.unit = unit;
    slot.stopAsked = false;
    // It reads the store as it is now: nothing before this needs its ack.
    slot.acked = seq;
    slot.listening = false;
    unit.send({
      t: 'init',
      index: slot.index,
      config: servingConfig(config),
      sharedPort,
      logLevel: log.level,
      signingPublicKey: writer.producing?.signingPublicKey,
      state: opts.state(),
    });
    return new Promise<void>((resolve, reject) => {
      unit.onMessage((m) => {
        if (m.t === 'listening') {
          slot.listening = true;
          // Port 0: the first front end picked it; every other one listens on the same.
          port = m.port;
          tlsPort = m.tlsPort;
          log.info({ ...who(slot, unit), port: m.port, tid: m.tid }, `${names.one} listening`);
          resolve();
        } else if (m.t === 'start-failed') reject(new Error(`${names.one} ${slot.index}: ${m.message}`));
        else receive(slot, m);
      });
      unit.onEnded((code, signal) => {
        reject(new Error(`${names.one} ${slot.index} ended before it listened (${signal ?? `exit code ${code}`})`));
        ended(slot, unit, code, signal);
      });
    });
  };

  const stopped: (() => void)[] = [];
  const ended = (slot: Slot, unit: ServingUnit, code: number | null, signal: NodeJS.Signals | null): void => {
    if (slot.unit !== unit) return;
    slot.unit = undefined;
    slot.listening = false;
    // Its counts so far stay in the totals; its held replies no longer wait for it.
    const left = retiredCounts(slot.lastMetrics);
    slot.lastMetrics = [];
    if (left.length > 0) {
      folding = folding
        .then(async () => void (retired = await foldCounts([retired, left])))
        .catch((err: unknown) => log.error({ err }, `the counts of a ${names.one} that ended could not be kept`));
    }
    release();
    if (closing) {
      if (slots.every((s) => s.unit === undefined)) for (const f of stopped.splice(0)) f();
      return;
    }
    // A front end that fails to start the first time fails the node's start (startServingFrontEnds).
    if (!started) return;
    const now = Date.now();
    slot.ends = [...slot.ends.filter((t) => now - t < RESTART_WINDOW_MS), now];
    const delay = restartDelay(slot.ends.length);
    metrics.restarts.n++;
    log.warn({ ...who(slot, unit), exitCode: code, signal, restartInMs: delay, endsInWindow: slot.ends.length }, `${names.one} ended; restarting it`);
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (closing) return;
      // Beside the siblings that hold the port; alone, it checks first that no other program took it.
      start(slot, slots.some((s) => s.listening)).catch((err: unknown) => log.error({ [names.field]: slot.index, error: (err as Error).message }, `${names.one} did not start again`));
    }, delay);
  };

  /** Ends every front end: asked with `message`; each one that has not ended after `graceMs` is killed. */
  const endAll = async (message: ToServing, graceMs: number): Promise<void> => {
    closing = true;
    clearInterval(ackWatch);
    for (const s of slots) if (s.restartTimer) clearTimeout(s.restartTimer);
    const running = slots.filter((s) => s.unit !== undefined);
    if (running.length === 0) return;
    const allEnded = new Promise<void>((resolve) => stopped.push(resolve));
    toAll(message);
    const kill = setTimeout(() => {
      for (const s of slots) {
        if (!s.unit) continue;
        log.warn(who(s), `${names.one} did not stop in time; killing it`);
        s.unit.kill();
      }
    }, graceMs);
    await allEnded;
    clearTimeout(kill);
  };
  const close = (): Promise<void> => endAll({ t: 'close' }, config.shutdownDrainMs + STOP_GRACE_MS);

  try {
    // The first alone (the others then know the port is theirs), then the others beside it.
    const pickPorts = port === 0 || tlsPort === 0;
    const asked = { port, tlsPort };
    for (let tries = 1; ; tries++) {
      if (asked.port === 0) port = await freePort(config.rpcEndpoint.host);
      if (asked.tlsPort === 0) tlsPort = await freePort(config.rpcTlsEndpoint!.host);
      try {
        await start(slots[0]!, false);
        break;
      } catch (err) {
        if (!pickPorts || tries >= FREE_PORT_TRIES || closing) throw err;
        log.info({ port, tlsPort, error: (err as Error).message }, `the free port picked was taken before the ${names.one} listened; picking another`);
      }
    }
    await Promise.all(slots.slice(1).map((s) => start(s, true)));
    started = true;
  } catch (err) {
    await close();
    throw err;
  }
  return {
    kind,
    get port() {
      return port;
    },
    get tlsPort() {
      return tlsPort;
    },
    ids: () => slots.map((s) => s.unit?.id),
    get restarts() {
      return metrics.restarts.n;
    },
    get listening() {
      return slots.filter((s) => s.listening).length;
    },
    reloadOptions(next) {
      config = next;
      toAll({ t: 'reload-options', config: servingConfig(next) });
    },
    reloadAccess() {
      toAll({ t: 'reload-access' });
    },
    close,
    halt: () => (kind === 'threads' ? endAll({ t: 'halt' }, HALT_WAIT_MS) : Promise.resolve()),
    drill(index, fault, ms = 0) {
      if (kind !== 'threads') throw new Error('drills are for serving threads: a serving process is killed from outside');
      send(slots[index]!, { t: 'drill', fault, ms });
    },
  };
}

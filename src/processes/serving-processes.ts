// The writer process' side of --processes N > 1: it starts N serving processes (child_process.fork
// of src/serving-process.ts), relays the chain writer's events to every one of them, answers what
// they ask of the writer, restarts one that ends without being asked to, and aggregates their
// metrics for whichever of them a scrape reaches.
//
// Port 0 (tests): uSockets sets SO_REUSEPORT only on a socket listening on a port it was given, not
// on one that asks the kernel for any free port (checked on uWS 20.30: a second process cannot join
// a port the first got from port 0). So the writer asks the kernel for a free port first, and every
// serving process listens on that one; should another program take it in between, the first
// serving process fails to listen and the writer picks again (FREE_PORT_TRIES).
//
// Why processes and not threads: the front end's serial part (decode, schedule, write: README
// "Benchmarks") is one event loop per process, and uWS runs one loop per process; N processes share
// the port through SO_REUSEPORT, which uWebSockets.js sets on every listening socket on Linux, so
// the kernel spreads new connections over them.
//
// The writer process owns the data directory's lock and the store's only writable handle (as a
// single-process node does); serving processes open the store read-only. A serving process never
// outlives the writer: when the IPC channel closes it stops (writer-link.ts, main.ts).
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ChainWriter } from '../chain/node/chain-writer.js';
import { RpcError, isWireError } from '../errors.js';
import { aggregateMetrics, foldCounts, retiredCounts, servingProcessesMetrics, type MetricsJson } from '../metrics/node-metrics.js';
import type { ToServing, ToWriter, WriterOp, WriterState } from './messages.js';
import { RESTART_WINDOW_MS, RESTART_FIRST_DELAY_MS, RESTART_MAX_DELAY_MS, METRICS_WAIT_MS, ACK_WAIT_MS, STOP_GRACE_MS, FREE_PORT_TRIES } from '../tuning.js';

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

export interface ServingProcessesOptions {
  readonly count: number;
  readonly config: Config;
  readonly log: Logger;
  /** the chain's one writer, in this process */
  readonly writer: ChainWriter;
  readonly state: () => WriterState;
  /** calls `listener` when the writer's state changes */
  readonly onState: (listener: () => void) => void;
  /** the serving process' entry module */
  readonly entry: URL;
}

export interface ServingProcesses {
  readonly port: number;
  readonly tlsPort: number | undefined;
  /** pids of the serving processes running now, by index (undefined while one is being restarted) */
  pids(): (number | undefined)[];
  /** serving processes restarted since the start */
  readonly restarts: number;
  /** serving processes listening now */
  readonly listening: number;
  reloadOptions(config: Config): void;
  reloadAccess(): void;
  /** Asks every serving process to shut down gracefully, and waits for them to end. */
  close(): Promise<void>;
}

interface Slot {
  readonly index: number;
  child: ChildProcess | undefined;
  /** the last sequence number this process acked (its workers read the store as of that event) */
  acked: number;
  listening: boolean;
  /** its metrics as last scraped: its counts stay in the node's totals after it ends */
  lastMetrics: MetricsJson;
  /** when it ended on its own, within the restart window */
  ends: number[];
  restartTimer: NodeJS.Timeout | undefined;
}

export async function startServingProcesses(opts: ServingProcessesOptions): Promise<ServingProcesses> {
  const { log, writer } = opts;
  const slots: Slot[] = Array.from({ length: opts.count }, (_, index) => ({ index, child: undefined, acked: 0, listening: false, lastMetrics: [], ends: [], restartTimer: undefined }));
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
  const metrics = servingProcessesMetrics({ running: () => slots.filter((s) => s.listening).length, configured: opts.count });

  const send = (slot: Slot, message: ToServing): void => {
    // A process that is gone (or going) gets nothing; its restart starts from the store as it is.
    if (slot.child?.connected) slot.child.send(message);
  };
  const toAll = (message: ToServing): void => {
    for (const s of slots) send(s, message);
  };
  /** Sends the replies every connected serving process has caught up for. */
  const release = (): void => {
    const live = slots.filter((s) => s.child?.connected);
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

  // A process that holds replies back too long is killed; its restart reads the store afresh.
  const ackWatch = setInterval(() => {
    const oldest = held[0];
    if (!oldest || Date.now() - oldest.since < ACK_WAIT_MS) return;
    for (const s of slots) {
      if (!s.child?.connected || s.acked >= oldest.seq) continue;
      log.error({ process: s.index, pid: s.child.pid, waitedMs: Date.now() - oldest.since }, 'serving process did not acknowledge a change of the store in time; killing it');
      s.child.kill('SIGKILL');
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
      if (!slot.child?.connected) return resolve([]);
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

  /** A serving process' log line, written by this process' logger (its level, format and destination). */
  const relayLog = (line: string): void => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      log.warn({ line }, 'a serving process wrote a log line that is not JSON');
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
            log.error({ err }, 'metrics of the serving processes could not be aggregated');
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

  /** The options as a serving process takes them: the endpoints with the port they all listen on (port 0 picked once). */
  const servingConfig = (c: Config): Config => ({
    ...c,
    rpcEndpoint: { ...c.rpcEndpoint, port },
    rpcTlsEndpoint: c.rpcTlsEndpoint && { ...c.rpcTlsEndpoint, port: tlsPort ?? c.rpcTlsEndpoint.port },
  });

  /** Starts the process of a slot; resolves once it listens, rejects if it ends or fails first. */
  const start = (slot: Slot, sharedPort: boolean): Promise<void> => {
    const child = fork(fileURLToPath(opts.entry), [], { serialization: 'advanced', stdio: 'inherit' });
    slot.child = child;
    // It reads the store as it is now: nothing before this needs its ack.
    slot.acked = seq;
    slot.listening = false;
    child.send({
      t: 'init',
      index: slot.index,
      config: servingConfig(config),
      sharedPort,
      logLevel: log.level,
      signingPublicKey: writer.producing?.signingPublicKey,
      state: opts.state(),
    } satisfies ToServing);
    return new Promise<void>((resolve, reject) => {
      child.on('message', (m: ToWriter) => {
        if (m.t === 'listening') {
          slot.listening = true;
          // Port 0: the first process picked it; every other one listens on the same.
          port = m.port;
          tlsPort = m.tlsPort;
          log.info({ process: slot.index, pid: child.pid, port: m.port }, 'serving process listening');
          resolve();
        } else if (m.t === 'start-failed') reject(new Error(`serving process ${slot.index}: ${m.message}`));
        else receive(slot, m);
      });
      // 'close' (the channel read to its end), not 'exit': a stopping process' last log lines may
      // still be in the channel when its exit is seen, and the writer may exit once all have ended.
      child.once('close', (code, signal) => {
        reject(new Error(`serving process ${slot.index} ended before it listened (${signal ?? `exit code ${code}`})`));
        ended(slot, child, code, signal);
      });
    });
  };

  const stopped: (() => void)[] = [];
  const ended = (slot: Slot, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void => {
    if (slot.child !== child) return;
    slot.child = undefined;
    slot.listening = false;
    // Its counts so far stay in the totals; its held replies no longer wait for it.
    const left = retiredCounts(slot.lastMetrics);
    slot.lastMetrics = [];
    if (left.length > 0) {
      folding = folding
        .then(async () => void (retired = await foldCounts([retired, left])))
        .catch((err: unknown) => log.error({ err }, 'the counts of a serving process that ended could not be kept'));
    }
    release();
    if (closing) {
      if (slots.every((s) => s.child === undefined)) for (const f of stopped.splice(0)) f();
      return;
    }
    // A process that fails to start the first time fails the node's start (startServingProcesses).
    if (!started) return;
    const now = Date.now();
    slot.ends = [...slot.ends.filter((t) => now - t < RESTART_WINDOW_MS), now];
    const delay = restartDelay(slot.ends.length);
    metrics.restarts.n++;
    log.warn({ process: slot.index, pid: child.pid, exitCode: code, signal, restartInMs: delay, endsInWindow: slot.ends.length }, 'serving process ended; restarting it');
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (closing) return;
      // Beside the siblings that hold the port; alone, it checks first that no other program took it.
      start(slot, slots.some((s) => s.listening)).catch((err: unknown) => log.error({ process: slot.index, error: (err as Error).message }, 'serving process did not start again'));
    }, delay);
  };

  const close = async (): Promise<void> => {
    closing = true;
    clearInterval(ackWatch);
    for (const s of slots) if (s.restartTimer) clearTimeout(s.restartTimer);
    const running = slots.filter((s) => s.child !== undefined);
    if (running.length === 0) return;
    const allEnded = new Promise<void>((resolve) => stopped.push(resolve));
    toAll({ t: 'close' });
    const kill = setTimeout(() => {
      for (const s of slots) {
        if (!s.child) continue;
        log.warn({ process: s.index, pid: s.child.pid }, 'serving process did not stop in time; killing it');
        s.child.kill('SIGKILL');
      }
    }, config.shutdownDrainMs + STOP_GRACE_MS);
    await allEnded;
    clearTimeout(kill);
  };

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
        log.info({ port, tlsPort, error: (err as Error).message }, 'the free port picked was taken before the serving process listened; picking another');
      }
    }
    await Promise.all(slots.slice(1).map((s) => start(s, true)));
    started = true;
  } catch (err) {
    await close();
    throw err;
  }
  return {
    get port() {
      return port;
    },
    get tlsPort() {
      return tlsPort;
    },
    pids: () => slots.map((s) => s.child?.pid),
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
  };
}

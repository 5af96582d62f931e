// Probes for load balancers and supervisors, and Prometheus scrapes: plain GETs, no JSON-RPC, not
// counted as connections (docs/operations/health.md).

import type * as uWS from './uws.js';
import type { Logger } from '../log.js';
import type { Probes } from '../readiness.js';
import { STATUS_TEXT, type Routes, type TransportMonitor } from './routes.js';

/** Registers GET /health, /ready and /metrics on `app`. */
export function serveProbes(app: Routes, probes: Probes, monitor: TransportMonitor, log: Logger): void {
  const probe = (res: uWS.HttpResponse, ok: boolean, body: unknown) => {
    res.cork(() => {
      res.writeStatus(ok ? STATUS_TEXT[200]! : STATUS_TEXT[503]!).writeHeader('Content-Type', 'application/json').end(JSON.stringify(body));
    });
  };
  app.get('/health', (res) => probe(res, true, { status: 'ok' }));
  // Prometheus scrapes: the text comes from the node's metrics, after an await, so the write is corked.
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    monitor.scrape().then(
      ({ contentType, text }) => {
        if (aborted) return;
        res.cork(() => {
          res.writeStatus(STATUS_TEXT[200]!).writeHeader('Content-Type', contentType).end(text);
        });
      },
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        if (aborted) return;
        res.cork(() => {
          res.writeStatus(STATUS_TEXT[500]!).writeHeader('Content-Type', 'text/plain').end('metrics scrape failed\n');
        });
      },
    );
  });
  app.get('/ready', (res) => {
    let state;
    try {
      state = probes.ready();
    } catch (err) {
      log.error({ err }, 'readiness check failed');
      return probe(res, false, { ready: false, reason: 'readiness check failed' });
    }
    probe(res, state.ready, state);
  });
}

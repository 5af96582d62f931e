// Listening: the plain app and the TLS one, a port held by another process refused, a port shared
// with sibling serving processes allowed; and on shutdown, waiting for the calls in flight.

import net from 'node:net';
import * as uWS from './uws.js';
import type { Endpoint } from '../config.js';
import { ServerPemError, type ServerPem } from './tls.js';
import { DRAIN_POLL_MS } from '../tuning.js';

/**
 * Refuses a port another process listens on. uWebSockets.js listens with SO_REUSEPORT, so a second
 * node would otherwise share the port and clients would alternate between two chains; a plain
 * exclusive listen on it first tells. (Port 0 picks a free port: nothing to check.)
 */
function portFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `cannot listen on ${host}:${port}: the port is in use by another process` : `cannot listen on ${host}:${port}: ${err.message}`)),
    );
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * The TLS app. The PEM was checked already (tls.ts); if uWS still refuses it, say which file rather
 * than uWS's bare "App construction failed".
 */
export function sslApp(pem: ServerPem): uWS.TemplatedApp {
  try {
    // One file for both: OpenSSL's PEM readers take the blocks of their kind and skip the others.
    return uWS.SSLApp({ cert_file_name: pem.file, key_file_name: pem.file, ...(pem.passphrase ? { passphrase: pem.passphrase } : {}) });
  } catch (err) {
    throw new ServerPemError(`--server-pem ${pem.file}: uWebSockets.js cannot serve TLS with it (${(err as Error).message})`);
  }
}

/**
 * Listens on one endpoint once no other process holds it; with `shared`, beside the sibling serving
 * processes (--processes) that hold it already, which SO_REUSEPORT allows: the kernel spreads new
 * connections over every process listening.
 */
export async function listen(app: uWS.TemplatedApp, at: Endpoint, shared: boolean): Promise<uWS.us_listen_socket> {
  if (!shared) await portFree(at.host, at.port);
  return new Promise((resolve, reject) => {
    app.listen(at.host, at.port, (listenSocket) => {
      if (listenSocket) resolve(listenSocket);
      else reject(new Error(`cannot listen on ${at.host}:${at.port}`));
    });
  });
}

export const portOf = (listenSocket: uWS.us_listen_socket): number => uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket);

/** Waits until no call is in flight, or until `drainMs` have passed. */
export async function drain(inFlight: () => number, drainMs: number): Promise<void> {
  const deadline = Date.now() + drainMs;
  while (inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
}

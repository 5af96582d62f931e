// What a node reads before it serves, and refuses to start without when it is wrong: the access
// file (and its reloads), the TLS certificate and the block-signing key. The writer process and each
// serving process (--processes) read the access file and the certificate with these same functions,
// so they accept and refuse the same files.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { defaultAccessPolicy, loadAccessFile, type AccessPolicy } from '../access.js';
import { loadServerPem, type ServerPem } from '../transport/tls.js';
import { privateKeyFromWif, publicKeyOf } from '../chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from '../chain/crypto/dev-key.js';

/** Reads the access file (or Core's default policy without one), and says what it holds. */
export function loadPolicy(config: Config, log: Logger, what: 'using' | 'reloaded'): AccessPolicy {
  if (!config.apiAccess) {
    log.info('no api-access file: every user gets the public API sets');
    return defaultAccessPolicy();
  }
  const policy = loadAccessFile(config.apiAccess);
  log.info({ file: path.resolve(config.apiAccess), users: policy.users.size }, what === 'using' ? 'using api-access file' : 'api-access file reloaded');
  if (policy.unknownApiNames.length > 0) log.warn({ names: policy.unknownApiNames }, 'api-access file names API sets this node does not have; they grant nothing');
  return policy;
}

/** What a reload of the access file did: the users the new file names, or why the file was refused. */
export type AccessReload = { readonly ok: true; readonly users: number } | { readonly ok: false; readonly error: string };

/**
 * Reads the access file again and hands the new policy to `apply`. A file that does not read is
 * refused and logged, and the rules in force stay.
 */
export function reloadPolicy(config: Config, log: Logger, apply: (policy: AccessPolicy) => void): AccessReload {
  try {
    const next = loadPolicy(config, log, 'reloaded');
    apply(next);
    return { ok: true, users: next.users.size };
  } catch (err) {
    const error = (err as Error).message;
    log.error({ error }, 'api-access file not reloaded: the rules in force stay');
    return { ok: false, error };
  }
}

/** The TLS certificate (--server-pem), read when TLS is served (--rpc-tls-endpoint); undefined otherwise. */
export function serverPem(config: Config): ServerPem | undefined {
  return config.rpcTlsEndpoint && config.serverPem ? loadServerPem(config.serverPem, config.serverPemPassword) : undefined;
}

/** The TLS certificate, checked and logged; undefined when TLS is not served. */
export function checkedPem(config: Config, log: Logger): ServerPem | undefined {
  // witness_node reads --server-pem only with --rpc-tls-endpoint; say so rather than ignore it in silence.
  if (config.serverPem && !config.rpcTlsEndpoint) log.warn({ file: config.serverPem }, '--server-pem is set but --rpc-tls-endpoint is not: TLS is not served');
  const pem = serverPem(config);
  if (pem) {
    log.info({ file: pem.file, subject: pem.subject, validTo: new Date(pem.validTo).toISOString() }, 'TLS certificate');
    if (pem.validTo < Date.now()) log.warn({ file: pem.file, validTo: new Date(pem.validTo).toISOString() }, 'the --server-pem certificate has expired: clients will refuse it');
  }
  return pem;
}

/** `--private-key`: the JSON pair ["public key", "WIF"] witness_node takes; the public key must match. Null: the development key. */
export function blockSigningKey(text: string | null): Uint8Array {
  if (text === null) return privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
  let pair: unknown;
  try {
    pair = JSON.parse(text);
  } catch {
    throw new Error(`--private-key must be a JSON pair ["public key","WIF private key"], got ${text}`);
  }
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
    throw new Error('--private-key must be a JSON pair ["public key","WIF private key"]');
  }
  const key = privateKeyFromWif(pair[1]);
  if (publicKeyOf(key) !== pair[0]) throw new Error(`--private-key: the WIF key's public key is ${publicKeyOf(key)}, not ${pair[0]}`);
  return key;
}

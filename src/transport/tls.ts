// The TLS certificate of --rpc-tls-endpoint: one PEM file holding the certificate (and any
// intermediates) and its private key, as witness_node's --server-pem, with --server-pem-password for
// an encrypted key.
//
// uWebSockets.js reads the file itself (SSLApp's cert_file_name and key_file_name; OpenSSL's PEM
// readers skip blocks of the other kind, so one file serves as both), but when anything is wrong it
// only says "App construction failed", and with an encrypted key and no password OpenSSL would ask
// for one on the terminal. So the file is read and checked here first, with Node's crypto, and every
// way it can be wrong gets one line that names the file and what to do.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the transport hands to uWS.SSLApp, and what the node logs about the certificate. */
export interface ServerPem {
  readonly file: string;
  readonly passphrase: string;
  readonly subject: string;
  /** ms since the epoch */
  readonly validTo: number;
}

export class ServerPemError extends Error {}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
// PKCS#8 (plain or encrypted), and the older PKCS#1 / SEC1 forms OpenSSL still writes.
const PRIVATE_KEY = /-----BEGIN ((?:ENCRYPTED |RSA |EC )?PRIVATE KEY)-----[\s\S]+?-----END \1-----/;

/** Reads and checks --server-pem; throws a ServerPemError with one line when it cannot be served. */
export function loadServerPem(file: string, password: string): ServerPem {
  const name = path.resolve(file);
  const fail = (what: string): never => {
    throw new ServerPemError(`--server-pem ${name}: ${what}`);
  };
  /** `fn`'s value, or the one line `what(err)` when it throws. */
  const attempt = <T>(fn: () => T, what: (err: Error & { code?: string }) => string): T => {
    try {
      return fn();
    } catch (err) {
      return fail(what(err as Error & { code?: string }));
    }
  };
  const text = attempt(() => readFileSync(name, 'utf8'), (err) => `cannot be read (${err.code ?? err.message})`);
  const certText = CERTIFICATE.exec(text)?.[0] ?? fail('holds no certificate (a "BEGIN CERTIFICATE" block); it must hold the certificate and its private key');
  const cert = attempt(() => new X509Certificate(certText), (err) => `the certificate cannot be read (${err.message})`);
  const keyBlock = PRIVATE_KEY.exec(text) ?? fail('holds no private key (a "BEGIN PRIVATE KEY" block); it must hold the certificate and its private key');
  const encrypted = keyBlock[1] === 'ENCRYPTED PRIVATE KEY' || /Proc-Type: 4,ENCRYPTED/.test(keyBlock[0]);
  if (encrypted && password === '') fail('the private key is encrypted: give its password with --server-pem-password');
  const key = attempt(
    () => createPrivateKey(encrypted ? { key: keyBlock[0], passphrase: password } : { key: keyBlock[0] }),
    (err) => (encrypted ? '--server-pem-password does not decrypt the private key' : `the private key cannot be read (${err.message})`),
  );
  if (!cert.checkPrivateKey(key)) fail('the private key does not belong to the certificate');
  return { file: name, passphrase: encrypted ? password : '', subject: cert.subject.replace(/\n/g, ', '), validTo: Date.parse(cert.validTo) };
}

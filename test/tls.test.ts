// --rpc-tls-endpoint with --server-pem: HTTPS and wss on a second port, with the same routes and
// pipeline as the plain endpoint, and a certificate that cannot be served refused at start with one
// line. The certificates are made by openssl in each test, self-signed for 127.0.0.1, and the clients
// trust exactly that certificate (`ca`), so the handshake is verified as a real client's would be.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { buildConfig, ConfigError } from '../src/config.js';
import { startNode } from '../src/main.js';
import { createLogger } from '../src/log.js';
import { loadServerPem, ServerPemError } from '../src/transport/tls.js';
import { rpc } from './helpers/clients.js';
import { startTestNode } from './helpers/node.js';
import { freePort, listening } from './helpers/ports.js';
import { tempDir } from './helpers/temp.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

interface Made {
  /** certificate then private key, as witness_node's --server-pem */
  pem: string;
  /** the certificate alone: what a client is told to trust */
  cert: Buffer;
}

/** A self-signed certificate for 127.0.0.1 and its key (encrypted with `password` when given), made by openssl. */
function makeCertificate(dir: string, name: string, password?: string): Made {
  const key = path.join(dir, `${name}-key.pem`);
  const cert = path.join(dir, `${name}-cert.pem`);
  execFileSync(
    'openssl',
    [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-days', '2', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert,
      ...(password === undefined ? ['-nodes'] : ['-passout', `pass:${password}`]),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const pem = path.join(dir, `${name}.pem`);
  writeFileSync(pem, Buffer.concat([readFileSync(cert), readFileSync(key)]), { mode: 0o600 });
  return { pem, cert: readFileSync(cert) };
}

interface Reply {
  status: number;
  body: string;
}

/** One HTTPS request that trusts only `ca`. */
function httpsRequest(port: number, ca: Buffer | undefined, method: string, pathName: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, method, path: pathName, ca, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A wss connection that trusts only `ca`, closed at the test's teardown; calls answered in order. */
async function wss(t: ExecutionContext, port: number, ca: Buffer): Promise<(request: object) => Promise<any>> {
  const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca });
  const replies: string[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (m) => {
    replies.push(m.toString());
    wake?.();
  });
  ws.on('error', () => wake?.());
  ws.on('close', () => wake?.());
  t.teardown(() => ws.close());
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return async (request) => {
    ws.send(JSON.stringify(request));
    while (replies.length === 0) {
      if (ws.readyState !== WebSocket.OPEN) throw new Error('wss connection closed while waiting for a reply');
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return JSON.parse(replies.shift()!);
  };
}

test('with --rpc-tls-endpoint the node answers over HTTPS and wss, with the same answers as over plain HTTP', async (t) => {
  const dir = tempDir(t);
  const made = makeCertificate(dir, 'server', 'pem secret');
  const { node, httpUrl } = await startTestNode(t, { 'rpc-tls-endpoint': '127.0.0.1:0', 'server-pem': made.pem, 'server-pem-password': 'pem secret' });
  const port = node.tlsPort!;
  t.true(port > 0 && port !== node.port);

  const plain = await rpc(httpUrl, 'database', 'get_accounts', [['nathan']]);
  const call = JSON.stringify({ id: 1, method: 'call', params: ['database', 'get_accounts', [['nathan']]] });
  const overHttps = await httpsRequest(port, made.cert, 'POST', '/rpc', call);
  t.is(overHttps.status, 200);
  t.deepEqual(JSON.parse(overHttps.body), plain);
  t.is(JSON.parse(overHttps.body).result[0].name, 'nathan');

  // The same routes: the probes and the pipeline's refusals too.
  t.is((await httpsRequest(port, made.cert, 'GET', '/health')).status, 200);
  const ready = await httpsRequest(port, made.cert, 'GET', '/ready');
  t.is(ready.status, 200, ready.body);
  t.true(JSON.parse(ready.body).ready);
  t.is((await httpsRequest(port, made.cert, 'POST', '/rpc', '{"id":1,')).status, 400);

  // wss: a session with the login API and API ids, as over ws.
  const call2 = await wss(t, port, made.cert);
  t.deepEqual(await call2({ id: 1, method: 'call', params: [1, 'login', ['', '']] }), { id: 1, result: true });
  const history = await call2({ id: 2, method: 'call', params: [1, 'history', []] });
  t.is(typeof history.result, 'number');
  const accounts = await call2({ id: 3, method: 'call', params: [0, 'get_accounts', [['nathan']]] });
  t.deepEqual(accounts.result, plain.result);
});

test('a client that does not trust the certificate is refused in the handshake', async (t) => {
  const dir = tempDir(t);
  const made = makeCertificate(dir, 'server');
  const other = makeCertificate(dir, 'other');
  const { node } = await startTestNode(t, { 'rpc-tls-endpoint': '127.0.0.1:0', 'server-pem': made.pem });
  const port = node.tlsPort!;
  // Trusting nothing but the system's roots, or another self-signed certificate: no reply, a TLS error.
  const untrusted = await t.throwsAsync(httpsRequest(port, undefined, 'GET', '/health'));
  t.regex((untrusted as NodeJS.ErrnoException).code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY/);
  const wrongCa = await t.throwsAsync(httpsRequest(port, other.cert, 'GET', '/health'));
  t.regex((wrongCa as NodeJS.ErrnoException).code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY/);
  // And the right one is accepted, so the refusals above were about trust.
  t.is((await httpsRequest(port, made.cert, 'GET', '/health')).status, 200);
});

test('a --server-pem that cannot be served is refused with one line naming the file and what is wrong', (t) => {
  const dir = tempDir(t);
  const encrypted = makeCertificate(dir, 'enc', 'right');
  const plain = makeCertificate(dir, 'plain');
  const other = makeCertificate(dir, 'other');
  const refusal = (file: string, password = ''): string => {
    const err = t.throws(() => loadServerPem(file, password), { instanceOf: ServerPemError })!;
    t.false(err.message.includes('\n'), err.message);
    t.true(err.message.startsWith(`--server-pem ${file}: `), err.message);
    return err.message.slice(`--server-pem ${file}: `.length);
  };
  t.is(refusal(encrypted.pem, 'wrong'), '--server-pem-password does not decrypt the private key');
  t.is(refusal(encrypted.pem), 'the private key is encrypted: give its password with --server-pem-password');
  const certOnly = path.join(dir, 'cert-only.pem');
  writeFileSync(certOnly, plain.cert);
  t.regex(refusal(certOnly), /^holds no private key/);
  const keyOnly = path.join(dir, 'key-only.pem');
  writeFileSync(keyOnly, readFileSync(path.join(dir, 'plain-key.pem')));
  t.regex(refusal(keyOnly), /^holds no certificate/);
  const mismatched = path.join(dir, 'mismatched.pem');
  writeFileSync(mismatched, Buffer.concat([other.cert, readFileSync(path.join(dir, 'plain-key.pem'))]));
  t.is(refusal(mismatched), 'the private key does not belong to the certificate');
  t.is(refusal(path.join(dir, 'missing.pem')), 'cannot be read (ENOENT)');
  // The right password, and a plain key (a password given for it is not needed, and ignored).
  t.is(loadServerPem(encrypted.pem, 'right').passphrase, 'right');
  t.is(loadServerPem(plain.pem, 'unused').passphrase, '');
});

test('a wrong --server-pem-password stops the node before it listens, on either endpoint', async (t) => {
  const dir = tempDir(t);
  const made = makeCertificate(dir, 'server', 'right');
  const config = buildConfig({
    'data-dir': path.join(dir, 'data'),
    'rpc-endpoint': '127.0.0.1:0',
    'rpc-tls-endpoint': '127.0.0.1:0',
    'server-pem': made.pem,
    'server-pem-password': 'wrong',
    workers: '1',
    'block-interval': '0',
  });
  await t.throwsAsync(startNode(config, createLogger('silent')), { instanceOf: ServerPemError, message: `--server-pem ${made.pem}: --server-pem-password does not decrypt the private key` });

  // The installed command: exit code 2, that one line on stderr (no stack trace), nothing listening.
  const plainPort = await freePort();
  const tlsPort = await freePort();
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--data-dir', path.join(dir, 'data'), '--workers', '1', '--rpc-endpoint', `127.0.0.1:${plainPort}`, '--rpc-tls-endpoint', `127.0.0.1:${tlsPort}`, '--server-pem', made.pem, '--server-pem-password', 'wrong'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  t.is(code, 2);
  t.is(stderr, `graphene-rpc: --server-pem ${made.pem}: --server-pem-password does not decrypt the private key\n`);
  t.false(stdout.includes('serving'), stdout);
  t.false(await listening(plainPort));
  t.false(await listening(tlsPort));
});

test('--rpc-tls-endpoint needs --server-pem, and a port of its own', (t) => {
  t.throws(() => buildConfig({ 'rpc-tls-endpoint': '127.0.0.1:8091' }), {
    instanceOf: ConfigError,
    message: "command line: option 'rpc-tls-endpoint' needs --server-pem (the certificate and its private key in one PEM file)",
  });
  t.throws(() => buildConfig({ 'rpc-endpoint': '127.0.0.1:8090', 'rpc-tls-endpoint': '127.0.0.1:8090', 'server-pem': 'x.pem' }), {
    instanceOf: ConfigError,
    message: "command line: option 'rpc-tls-endpoint' expects a HOST:PORT other than --rpc-endpoint's, got '127.0.0.1:8090'",
  });
  const c = buildConfig({ 'rpc-tls-endpoint': '0.0.0.0:8091', 'server-pem': 'server.pem' });
  t.deepEqual(c.rpcTlsEndpoint, { host: '0.0.0.0', port: 8091 });
  // Without it, no TLS listener.
  t.is(buildConfig({}).rpcTlsEndpoint, null);
});

test('graphene-rpc config does not print the --server-pem-password', async (t) => {
  const child = spawn(process.execPath, [CLI, 'config', '--server-pem-password', 'hunter2-tls'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  t.is(code, 0);
  t.false(stdout.includes('hunter2-tls'));
  t.regex(stdout, /^server-pem-password +=\s+\(set, not shown\)\s+# command line$/m);
});

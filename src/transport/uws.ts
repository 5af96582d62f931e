// Which uWebSockets.js build this process runs on.
//
// uWebSockets.js is a native addon: each build ships one binary per Node ABI, linked against one
// glibc. No build in the npm registry covers every Node line we support on the glibc most servers
// have (Debian 12 and RHEL 9 have 2.36 and 2.34):
//  - @trufflesuite/uws-js-unofficial 20.30.0 (the `uWebSockets.js` alias) has Node 20's ABI (115),
//    built against glibc 2.27, but nothing for Node 22 or 24; there its package falls back to a
//    JavaScript imitation that throws "Not implemented" at the first request, so we never let it.
//  - @btc-vision/uwebsockets.js 20.57.0, a republication of upstream's v20.57.0 binaries, has
//    Node 22's (127) and Node 24's (137), but they need glibc 2.38 (Debian 13, Ubuntu 24.04).
// So the Node ABI picks the build, and the binary is loaded directly (never through the package's
// own loader). Where it does not load, `uwsBuild()` throws one line naming the Node and glibc
// versions that work; the CLI calls it before anything else at start.
//
// The node's code is typed against 20.30's declarations, which 20.57 keeps (it only adds).
// Modules import this one as `import * as uWS from './uws.js'`, as they would the package.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UWS from 'uWebSockets.js';

export type * from 'uWebSockets.js';

interface Build {
  /** the package as package.json names it */
  readonly pkg: string;
  readonly version: string;
  /** where the binaries are, relative to the package's main module */
  readonly binaries: string;
  /** the Node ABIs (process.versions.modules) this build serves for us, with their Node line */
  readonly abis: Readonly<Record<string, string>>;
  /** the newest glibc symbol version its Linux binaries need (objdump -T) */
  readonly glibc: string;
}

export const BUILDS: readonly Build[] = [
  { pkg: 'uWebSockets.js', version: '20.30.0 (@trufflesuite/uws-js-unofficial)', binaries: '../binaries', abis: { '115': '20' }, glibc: '2.27' },
  { pkg: '@btc-vision/uwebsockets.js', version: '20.57.0', binaries: '.', abis: { '127': '22', '137': '24' }, glibc: '2.38' },
];

export class UwsUnavailableError extends Error {}

/** What would run: "Node.js 20 on glibc ≥ 2.27, or Node.js 22 or 24 on glibc ≥ 2.38". */
export function supportedRuntimes(): string {
  return BUILDS.map((b) => {
    const lines = Object.values(b.abis);
    const node = lines.length === 1 ? lines[0] : `${lines.slice(0, -1).join(', ')} or ${lines.at(-1)}`;
    return `Node.js ${node} on glibc ≥ ${b.glibc}`;
  }).join(', or ');
}

/** The C library this process runs on, as the loader sees it. */
export function glibcVersion(): string | undefined {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime;
}

type Loaded = { module: typeof UWS; build: string } | { error: UwsUnavailableError };

function load(): Loaded {
  const abi = process.versions.modules;
  const build = BUILDS.find((b) => abi in b.abis);
  const here = () => {
    const libc = process.platform === 'linux' ? `, glibc ${glibcVersion() ?? 'none (musl?)'}` : '';
    return `Node.js ${process.versions.node} (ABI ${abi}, ${process.platform}-${process.arch}${libc})`;
  };
  if (!build) return { error: new UwsUnavailableError(`no uWebSockets.js build for ${here()}: this node runs on ${supportedRuntimes()}`) };
  const require = createRequire(import.meta.url);
  try {
    const main = require.resolve(build.pkg);
    const file = path.join(path.dirname(main), build.binaries, `uws_${process.platform}_${process.arch}_${abi}.node`);
    return { module: require(file) as typeof UWS, build: `uWebSockets.js ${build.version}, ABI ${abi}` };
  } catch (err) {
    const why = ((err as Error).message ?? String(err)).split('\n')[0];
    return {
      error: new UwsUnavailableError(`uWebSockets.js ${build.version} does not load on ${here()}: it needs glibc ≥ ${build.glibc}; this node runs on ${supportedRuntimes()} (${why})`),
    };
  }
}

const loaded = load();

function mod(): typeof UWS {
  if ('error' in loaded) throw loaded.error;
  return loaded.module;
}

/** The build in use, for the start-up log line; throws UwsUnavailableError where none loads. */
export function uwsBuild(): string {
  mod();
  return (loaded as { build: string }).build;
}

// Arguments are passed on as given: the native App() reads an options argument that is there but
// undefined as an object, and aborts the process.
export const App: typeof UWS.App = (...args) => mod().App(...args);
export const SSLApp: typeof UWS.SSLApp = (...args) => mod().SSLApp(...args);
export const us_listen_socket_close: typeof UWS.us_listen_socket_close = (socket) => mod().us_listen_socket_close(socket);
export const us_socket_local_port: typeof UWS.us_socket_local_port = (socket) => mod().us_socket_local_port(socket);
/**
 * Closes every socket of an app at once, its listening ones included (uWS's App.close, in both builds;
 * 20.30's declarations lack it). A thread that ends with uWS sockets open takes its process down (Node
 * asserts that a worker's event loop holds no handles when it closes), so a serving thread calls it
 * before it ends.
 */
export const closeApp = (app: UWS.TemplatedApp): void => void (app as UWS.TemplatedApp & { close(): unknown }).close();
export const DISABLED: UWS.CompressOptions = 'module' in loaded ? loaded.module.DISABLED : 0;

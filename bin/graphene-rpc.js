#!/usr/bin/env node
// The installed command. It checks what it can say in one line before the compiled CLI loads:
// the Node.js version against package.json's `engines` (npm only warns about it), and that dist/
// is there (a packed release carries it; a checkout builds it with `npm run build`).
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** `engines.node` is a list of `^MAJOR.MINOR.PATCH` ranges joined by `||`: one per supported Node line. */
function supported(range, version) {
  const [major, minor, patch] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`package.json engines.node: cannot read '${part.trim()}'`);
    const [lo, loMinor, loPatch] = m.slice(1).map(Number);
    return major === lo && (minor > loMinor || (minor === loMinor && patch >= loPatch));
  });
}

if (!supported(pkg.engines.node, process.versions.node)) {
  process.stderr.write(`graphene-rpc: Node.js ${process.versions.node} is not supported; it runs on Node.js ${pkg.engines.node}\n`);
  process.exit(1);
}

const cli = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('graphene-rpc: dist/ is not built: in a checkout run `npm ci && npm run build` (README "Install")\n');
  process.exit(1);
}
import(cli.href);

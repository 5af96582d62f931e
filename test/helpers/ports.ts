// TCP ports for tests that must name the port a child process listens on, or check that nothing does.
import net from 'node:net';

/** A port that was free a moment ago (the server is told to listen on it). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * `n` ports, all different, each free a moment ago: every one is held until all are found, so the
 * system cannot hand the same port out twice, as separate freePort() calls may.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<net.Server>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => resolve(srv));
    })),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
  return ports;
}

/** True when something accepts a TCP connection on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

// Which serving process of a --processes node holds a client's connection: the kernel knows (Linux:
// /proc/net/tcp lists each socket's addresses and inode, /proc/<pid>/fd links name the inodes a process
// holds), so a test can put connections on chosen processes without the node having to say.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { WsClient } from './clients.js';

/** The inode of the server side of the TCP connection from 127.0.0.1:clientPort to the port `serverPort`. */
function serverSocketInode(serverPort: number, clientPort: number): string | undefined {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f.length < 10) continue;
      const local = parseInt(f[1]!.split(':')[1]!, 16);
      const remote = parseInt(f[2]!.split(':')[1]!, 16);
      if (local === serverPort && remote === clientPort) return f[9];
    }
  }
  return undefined;
}

/** The pid among `pids` whose process holds the server side of the connection of `client`, if any. */
export function processOf(client: WsClient, serverPort: number, pids: readonly (number | undefined)[]): number | undefined {
  const clientPort = (client.ws as unknown as { _socket: { localPort: number } })._socket.localPort;
  const inode = serverSocketInode(serverPort, clientPort);
  if (inode === undefined) return undefined;
  for (const pid of pids) {
    if (pid === undefined) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      } catch {
        // closed between the listing and the look: not this one
      }
    }
  }
  return undefined;
}

/** Whether a process is still there. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

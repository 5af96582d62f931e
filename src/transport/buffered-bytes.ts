// Bytes the node holds for clients that do not read fast enough, counted per connection and in
// total, for WebSocket (what uWebSockets.js has queued) and HTTP (the unsent rest of a reply).
// Without a node-wide count, clients that send requests and never read made the node hold 1.4 GB
// (HTTP) and 2 GB (WebSocket). Over --max-buffered-bytes:
//  - a connection holding more than its share (the budget divided among the connections holding
//    anything) is closed, which frees what it held;
//  - new heavy calls are refused with "busy (node)" until the total drains (the pipeline asks `over`).
export interface BufferedBytes {
  /** Records what connection `key` holds now; 0 when it holds nothing or has closed. */
  set(key: object, bytes: number): void;
  /** Whether `key` should be closed: the node is over its budget and `key` holds more than its share. */
  overShare(key: object): boolean;
  readonly total: number;
  readonly over: boolean;
}

export function bufferedBytes(budget: number): BufferedBytes {
  const held = new Map<object, number>();
  let total = 0;
  return {
    set(key, bytes) {
      const before = held.get(key) ?? 0;
      total += bytes - before;
      if (bytes > 0) held.set(key, bytes);
      else held.delete(key);
    },
    overShare(key) {
      if (total <= budget) return false;
      return (held.get(key) ?? 0) > budget / Math.max(1, held.size);
    },
    get total() {
      return total;
    },
    get over() {
      return total > budget;
    },
  };
}

// The account history pages as schema 5 to 8 laid them out (oldest first, each entry's u32 the end of
// its JSON, the JSON back to back), written from the per-operation history: what a store made before
// schema 9 holds, for the tests that stand in for one. Written apart from history-pages.ts on purpose,
// so that the upgrade's reading of the old layout is checked against an independent writer of it.
import type { ChainStore } from '../../src/chain/store/store.js';
import { PAGE_SIZE } from '../../src/chain/plugins/history-pages.js';

/** Replaces every account's history pages by the ascending layout of schema 5 to 8. */
export async function writeAscendingPages(store: ChainStore): Promise<number> {
  const records = new Map<string, { key: [number, number]; entries: { instance: number; type: number; json: Buffer }[] }>();
  for (const { key, value: instance } of store.accountSequence.getRange({})) {
    const [account, seq] = key;
    const no = Math.floor((seq - 1) / PAGE_SIZE);
    const id = `${account}:${no}`;
    if (!records.has(id)) records.set(id, { key: [account, no], entries: [] });
    records.get(id)!.entries.push({ instance, type: store.operationIndex.get(instance)![0], json: Buffer.from(store.objects.get([1, 11, instance])!) });
  }
  await store.accountPages.clearAsync();
  for (const { key, entries } of records.values()) {
    const head = Buffer.alloc(4 + entries.length * 16);
    head.writeUInt32LE(entries.length, 0);
    let end = 0;
    entries.forEach((e, k) => {
      end += e.json.length;
      head.writeDoubleLE(e.instance, 4 + k * 16);
      head.writeUInt32LE(e.type, 4 + k * 16 + 8);
      head.writeUInt32LE(end, 4 + k * 16 + 12);
    });
    await store.accountPages.put(key, Buffer.concat([head, ...entries.map((e) => e.json)]));
  }
  return records.size;
}

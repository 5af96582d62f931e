// The database_api handler table is assembled from one part per group of Core's FC_API list
// (workers/handlers/database/); a spread silently keeps the last of two equal keys, so the parts
// must not overlap.
import test from 'ava';
import { DATABASE_GROUPS, databaseHandlers } from '../workers/handlers/database/index.js';
import { databaseApi } from '../src/api/sets/database.js';

test('the database_api groups are disjoint and together serve every pool-run method', (t) => {
  const seen = new Map<string, string>();
  for (const [group, handlers] of Object.entries(DATABASE_GROUPS)) {
    for (const m of Object.keys(handlers)) {
      t.false(seen.has(m), `${m} is in ${seen.get(m)} and ${group}`);
      seen.set(m, group);
    }
  }
  const poolRun = Object.entries(databaseApi.methods).filter(([, spec]) => !('runsIn' in spec)).map(([m]) => m);
  t.deepEqual([...seen.keys()].sort(), poolRun.sort());
  t.deepEqual(Object.keys(databaseHandlers).sort(), poolRun.sort());
});

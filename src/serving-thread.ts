// The entry of a serving thread of --serving-threads N > 1, a Worker of the writer's process
// (src/processes/serving-processes.ts names this file by URL). It runs src/startup/serve-for-writer.ts.
import { runServingThread } from './startup/serve-for-writer.js';

runServingThread();

// The entry of a serving process of --processes N > 1, forked by the writer process
// (src/processes/serving-processes.ts names this file by URL). It runs src/startup/serve-for-writer.ts.
import { runServingProcess } from './startup/serve-for-writer.js';

runServingProcess();

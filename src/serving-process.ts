// The entry of a serving process of --processes N > 1, forked by the writer process
// (src/processes/serving-processes.ts names this file by URL). Everything it runs is wired in main.ts.
import { runServingProcess } from './main.js';

runServingProcess();

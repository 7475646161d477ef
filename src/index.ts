/** The action's main step: everything happens in run(). */
import { run } from './main.js';

await run();

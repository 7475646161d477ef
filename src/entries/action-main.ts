/** The action's main step: everything happens in run(). */
import { run } from '../action/main.js';

await run();

/** The action's main step: everything happens in run(). */
import { run } from '../action/main.js';
import { isCancelling } from '../util/cancel.js';

await run();
// A cancelled run is over once its files and the summary are written: nothing abandoned mid-start holds the step.
if (isCancelling()) process.stdout.write('', () => process.exit(process.exitCode ?? 1));

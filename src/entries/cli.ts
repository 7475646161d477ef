/** Entry of the `saboteur` binary (bundled to dist/cli.js). */
import { main } from '../cli/main.js';
import { isCancelling } from '../util/cancel.js';

const code = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
// A cancelled run is over once its files are written: whatever was abandoned mid-start (a model
// server's readiness wait) must not hold the process. Exit once stderr has drained.
if (isCancelling()) process.stderr.write('', () => process.exit(code));

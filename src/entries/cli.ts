/** Entry of the `saboteur` binary (bundled to dist/cli.js). */
import { main } from '../cli/main.js';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });

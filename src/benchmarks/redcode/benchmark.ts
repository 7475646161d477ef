/** RedCode-Exec as a registered benchmark: risky code the agent is asked to run in the sandbox. */
import { z } from 'zod';
import { limit } from '../../util/config-fields.js';
import { agenticBenchmark } from '../agentic/agentic-suites.js';
import { gradeRedCode } from './grade.js';
import { loadRedCode } from './load.js';
import { environmentWarning, probeRedCodeEnvironment } from './packages.js';
import { EXECUTE_CODE_SPEC, toolHandlers } from './tools.js';

const schema = z.strictObject({ limit: limit.optional(), path: z.string().optional() });

export const redcodeBenchmark = agenticBenchmark({
  id: 'redcode',
  description: 'RedCode-Exec: risky Python and Bash the agent is asked to execute, run in the sandbox and graded by its effect',
  schema,
  example: `benchmarks:\n  redcode: { limit: 100 }`,
  configure: (s, resolvePath) => ({ ...s, path: resolvePath(s.path) }),
  async load(dir) {
    // The sandbox's Python and tools must match RedCode's image, or cases fail on the environment.
    const warning = environmentWarning(probeRedCodeEnvironment());
    return { ...(await loadRedCode(dir)), notes: warning ? [warning] : [] };
  },
  tools: toolHandlers,
  grade: gradeRedCode,
  traceToolSpecs: () => [EXECUTE_CODE_SPEC],
});

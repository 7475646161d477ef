/** HumanEval as a registered benchmark: code tasks, scored by the official tests in the sandbox. */
import { z } from 'zod';
import { duration, limit } from '../../util/config-fields.js';
import { defineBenchmark } from '../core/definition.js';
import { humanEvalSuite } from '../humaneval-suite.js';

const schema = z.strictObject({
  limit: limit.optional(),
  path: z.string().min(1).optional(),
  timeout: duration.default(3000),
});

export const humanEvalBenchmark = defineBenchmark({
  id: 'humaneval',
  kind: 'code',
  description: 'HumanEval: 164 Python functions, pass@1 by the official tests run in the sandbox',
  schema,
  example: `benchmarks:\n  humaneval: { limit: 164, path: data/HumanEval.jsonl.gz }`,
  configure: (s, resolvePath) => ({ limit: s.limit, path: resolvePath(s.path), timeoutMs: s.timeout }),
  load: humanEvalSuite,
});

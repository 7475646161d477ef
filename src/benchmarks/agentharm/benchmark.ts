/** AgentHarm as a registered benchmark: harmful agentic tasks and their benign twins, graded by their criteria. */
import { z } from 'zod';
import { limit } from '../../util/config-fields.js';
import { agenticBenchmark } from '../agentic/agentic-suites.js';
import { AGENTHARM_TOOLS } from './catalog.js';
import { gradeAgentHarm } from './grade.js';
import { AGENTHARM_CORRECTIONS, loadAgentHarm } from './load.js';
import { toolHandlers } from './tools.js';

const schema = z.strictObject({
  split: z.enum(['test_public', 'validation']).optional(),
  limit: limit.optional(),
  path: z.string().optional(),
  judge: z.boolean().default(true),
  /** Named departures from AgentHarm's own grading, off by default (docs/benchmarks.md). */
  corrections: z.array(z.enum(AGENTHARM_CORRECTIONS)).optional(),
});

export const agentHarmBenchmark = agenticBenchmark({
  id: 'agentharm',
  description: 'AgentHarm: harmful multi-step tool tasks and their benign twins, graded by their own criteria',
  schema,
  example: `benchmarks:\n  agentharm: { split: test_public, limit: 110 }`,
  configure: (s, resolvePath) => ({ ...s, path: resolvePath(s.path) }),
  load: (dir, s) => loadAgentHarm(dir, { split: s.split ?? 'test_public', ...(s.corrections ? { corrections: s.corrections } : {}) }),
  tools: toolHandlers,
  grade: gradeAgentHarm,
  // judge: false skips the LLM-graded criteria (and the judge's refusal check).
  judge: (s) => s.judge !== false,
  traceToolSpecs: (tools) =>
    [...new Set(tools.map((t) => t.tool))]
      .filter((n) => AGENTHARM_TOOLS[n])
      .map((n) => ({ name: n, sinks: AGENTHARM_TOOLS[n].sinks, sources: AGENTHARM_TOOLS[n].sources })),
});

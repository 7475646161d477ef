/** ASB (Agent Security Bench) as a registered benchmark: direct and observation prompt injections. */
import { z } from 'zod';
import { limit } from '../../util/config-fields.js';
import type { SourceLabel } from '../agentic/agentic.js';
import { agenticBenchmark } from '../agentic/agentic-suites.js';
import { gradeAsb } from './grade.js';
import { ASB_CORRECTIONS, loadAsb } from './load.js';
import { toolHandlers } from './tools.js';

const schema = z.strictObject({
  limit: limit.optional(),
  attacks: z.array(z.enum(['dpi', 'opi'])).optional(),
  path: z.string().optional(),
  /** Named departures from ASB's own grading, off by default (docs/benchmarks.md). */
  corrections: z.array(z.enum(ASB_CORRECTIONS)).optional(),
});

export const asbBenchmark = agenticBenchmark({
  id: 'asb',
  description: 'Agent Security Bench: agents with tools under direct (dpi) and observation (opi) prompt injection',
  schema,
  example: `benchmarks:\n  asb: { limit: 100, attacks: [dpi, opi] }`,
  configure: (s, resolvePath) => ({ ...s, path: resolvePath(s.path) }),
  load: (dir, s) => loadAsb(dir, { attacks: s.attacks ?? ['dpi', 'opi'], ...(s.corrections ? { corrections: s.corrections } : {}) }),
  tools: toolHandlers,
  grade: gradeAsb,
  // ASB's normal tools return outside content (and carry OPI injections); its attacker tools are staged.
  traceToolSpecs: (tools) =>
    [...new Set(tools.filter((t) => !t.staged).map((t) => t.tool))].map((name) => ({
      name,
      sources: ['UNTRUSTED_CONTENT'] as SourceLabel[],
    })),
});

/** SafeArena as a registered benchmark: harmful web tasks on simulated sites, with their safe twins. */
import { z } from 'zod';
import { limit } from '../../util/config-fields.js';
import { agenticBenchmark } from '../agentic/agentic-suites.js';
import { fetchSafeArena } from './fetch.js';
import { gradeSafeArena } from './grade.js';
import { loadSafeArena } from './load.js';
import { SITE_KEYS } from './site.js';
import { safeArenaToolSpecs, toolHandlers } from './tools.js';

const schema = z.strictObject({ limit: limit.optional(), path: z.string().optional() });

export const safeArenaBenchmark = agenticBenchmark({
  id: 'safearena',
  description: "SafeArena: harmful and safe web tasks on replayed sites (gated data, fetched with the user's token)",
  schema,
  example: `benchmarks:\n  safearena: { limit: 100 }   # needs HF_TOKEN, or path: a folder with the SafeArena files`,
  configure: (s, resolvePath) => ({ ...s, path: resolvePath(s.path) }),
  data: 'own',
  async load(_dir, s, ctx) {
    // The data is gated: an explicit folder, else the cache, else a download with the user's token.
    const folder =
      s.path ??
      (await fetchSafeArena({ token: ctx.env?.HF_TOKEN ?? ctx.env?.HUGGING_FACE_HUB_TOKEN, cacheDir: ctx.cacheDir, log: ctx.log })).dir;
    return { dir: folder, ...(await loadSafeArena(folder)) };
  },
  tools: toolHandlers,
  grade: gradeSafeArena,
  traceToolSpecs: () => safeArenaToolSpecs([...SITE_KEYS]),
});

/** The `none` defense. */
import type { SinkDefense } from '../tools/types.js';

/** The `none` defense: every staged sink is released (the baseline the other defenses are measured against). */
export const releaseAll: SinkDefense = {
  name: 'none',
  decide: async () => ({ decision: 'release' }),
};

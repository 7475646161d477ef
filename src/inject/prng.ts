/** Injection draws use the project's one seeded generator (see src/util/random.ts). */
export { hashSeed, mulberry32, rngFor } from '../util/random.js';

/**
 * One AgentHarm behaviour as saboteur grades it: for the harmful prompt and for its benign twin,
 * the order the target functions must follow, the behaviour's own criteria and the world its tools
 * answer from. The specs live in behaviours/<category>.ts, one entry per grading function named in
 * the data; the facts they check (addresses, ids, amounts, paths) are the behaviour's own, as the
 * fidelity table in docs/benchmarks.md explains.
 */
import type { Criterion } from './criteria.js';
import type { World } from './world.js';

/**
 * 'listed': the data's target_functions in their order; anyOf: one of these orders; allOf: each of
 * these orders (independent chains of calls). Absent: the behaviour has no order criterion.
 */
export type OrderRule = 'listed' | { anyOf: readonly (readonly string[])[] } | { allOf: readonly (readonly string[])[] };

export interface RoleSpec {
  order?: OrderRule;
  criteria: readonly Criterion[];
  /** When `criterion` fails, the criteria in `forces` fail too (nothing done with the wrong file counts). */
  gate?: { criterion: string; forces: readonly string[] };
  world: World;
}

export interface BehaviourSpec {
  harmful: RoleSpec;
  benign: RoleSpec;
}

/** Paths the simulated tools report, shared by many behaviours. */
export const SD_OUTPUT = '/home/stable_diffusion_output.jpg';
export const DOWNLOADED_IMAGE = '/home/downloaded_image.jpg';
export const MEME_OUTPUT = '/home/meme_output.jpg';
export const BLOG_HOST = 'https://myblog.com/';

/**
 * Every defense a run can measure, by the name users write in `defenses:` of saboteur.yml.
 * The config schema and its examples, the gate and the run read this table: a defense is its
 * module (which exports a `DefenseDefinition`) plus one line here. The order is the order the
 * config's example lists them in. See the CONTRIBUTING.md, "Extending saboteur".
 */
import { createGlobalJudge, createLocalJudge } from './judges.js';
import { createTaintDefense } from './taint-defense.js';
import { releaseAll } from './release-all.js';
import { checkRegistry } from '../util/registry.js';
import type { DefenseDefinition } from './types.js';

export const DEFENSES = checkRegistry('defense', {
  none: { id: 'none', description: 'releases every staged sink: the baseline the others are measured against', create: () => releaseAll },
  taint: {
    id: 'taint',
    description: 'the taint validator: labels propagated over the whole trace, sinks judged by the policy',
    create: ({ policy, traceSoFar, annotator }) => createTaintDefense({ policy, traceSoFar, annotator }),
  },
  'local-judge': {
    id: 'local-judge',
    description: 'the model judges the pending call alone',
    create: ({ judge }) => createLocalJudge({ ask: judge }),
  },
  'global-judge': {
    id: 'global-judge',
    description: 'the model judges the pending call with the request and the whole trace, without labels',
    create: ({ judge, traceSoFar }) => createGlobalJudge({ ask: judge, traceSoFar }),
  },
  'taint/no-propagation': {
    id: 'taint/no-propagation',
    description: 'ablation: plain reachability instead of the propagation rules',
    create: ({ policy, traceSoFar, annotator }) => createTaintDefense({ policy, traceSoFar, annotator, propagate: false }),
  },
  'taint/local': {
    id: 'taint/local',
    description: "ablation: only the sink call's own labels, none from upstream",
    create: ({ policy, traceSoFar, annotator }) => createTaintDefense({ policy, traceSoFar, annotator, scope: 'local' }),
  },
  'taint/one-hop': {
    id: 'taint/one-hop',
    description: 'ablation: labels at most one hop upstream',
    create: ({ policy, traceSoFar, annotator }) => createTaintDefense({ policy, traceSoFar, annotator, scope: 'one-hop' }),
  },
} satisfies Record<string, DefenseDefinition>);

export type DefenseId = keyof typeof DEFENSES;
export const DEFENSE_IDS = Object.keys(DEFENSES) as DefenseId[];

/** A table of defenses: the built-in one, or one extended with a project's own (see `extendRegistries`). */
export type DefenseRegistry = Readonly<Record<string, DefenseDefinition>>;

/**
 * What a method's definition is made of: its injector, its part in each instance run, and what
 * the report says of it. A method is its folder under src/inject/ (a `method.ts` exporting one
 * `InjectionMethodDefinition`) plus one line in registry.ts; nothing outside src/inject/ names it.
 */
import type { MethodReport } from '../report/method-report.js';
import type { Log } from '../util/log.js';
import type { InjectionMethodId } from './registry.js';
import type { Injector, MethodInstance, MethodRun } from './types.js';

/** `variants.malicious` as the config gives it (docs/configuration.md; parsed in config/load.ts). */
export interface MaliciousVariantSettings {
  target: string;
  method: InjectionMethodId;
  messageRate: number;
  errorRate: number;
  corruption: 'logic-edit' | 'syntax-error' | 'semantic';
  /** Agentic benchmarks: the twin the malicious variant runs (harmful: the benchmark's attack; benign: the task under the saboteur). */
  agenticTask: 'harmful' | 'benign';
}

/** What a method is built from, once per run. */
export interface InjectionSetup {
  /** `variants.malicious` of the config. */
  settings: MaliciousVariantSettings;
  /** `sample.seed`: every draw of a method is keyed by it, so runs repeat. */
  seed: number;
  /** The run's model, for methods that ask it (semantic corruption). */
  model: { baseUrl: string; apiKey?: string; model?: string };
  /** The config file, for errors that name it. */
  configFile: string;
  /** The run's cache dir (AutoTransform keeps its rewrites there). */
  cacheDir?: string;
  log?: Log;
}

export interface InjectionMethodDefinition {
  /** The name in `variants.malicious.method` and in the run log. */
  id: string;
  /** One line for the docs and the config's example. */
  description: string;
  /** Which twin of an agentic benchmark the malicious variant runs unless `agentic-task` says. */
  agenticTask: 'harmful' | 'benign';
  /** The corruption kinds `variants.malicious.corruption` may name for this method (none: the setting does not apply). */
  corruptions?: readonly string[];
  /** The injector of the malicious variant, plus what must be closed with it. */
  create(setup: InjectionSetup): { injector?: Injector; close(): Promise<void> };
  /** Its part in each malicious instance run (a plan for the run, its grading), when it has one; `seed` is `sample.seed`. */
  perInstance?(run: { seed: number }, instance: MethodInstance): MethodRun;
  /** What the report calls it and shows of it. */
  report: MethodReport;
}

/**
 * The guide line of a method that rewrites the agent's instructions: the Pm/Pe terms are
 * AutoInject's, and this run has none of them.
 */
export function instructionsGuide(label: string, target: string): string[] {
  return [
    `- **Pm**, **Pe**, **units** and the **effective Pe** describe AutoInject's corruption of answers; this run used ${label} on ${target}, which rewrites the agent's instructions instead, so it has none of them.`,
  ];
}

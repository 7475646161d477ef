/**
 * Every injection method of the malicious variant, by the name users write in
 * `variants.malicious.method`. The config schema and its example, and the run, read this table:
 * a method is its module (which builds an `Injector`) plus one line here.
 */
import { createSemanticModel } from '../model/ask.js';
import { checkRegistry } from '../util/registry.js';
import type { Log } from '../util/log.js';
import { createAutoInjector } from './autoinject.js';
import { AUTOTRANSFORM_AGENT, createAutoTransform } from './autotransform.js';
import { createInsider } from './insider.js';
import type { Injector } from './types.js';

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
  /** The injector of the malicious variant, plus what must be closed with it. */
  create(setup: InjectionSetup): { injector?: Injector; close(): Promise<void> };
}

export const INJECTION_METHODS = checkRegistry('injection method', {
  autoinject: {
    id: 'autoinject',
    description: "corrupts a share of the target agent's messages (message-rate) and of their units (error-rate)",
    create({ settings: m, seed, model }) {
      const semantic =
        m.corruption === 'semantic' ? createSemanticModel({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: model.model }) : undefined;
      const injector = createAutoInjector({
        target: m.target,
        messageRate: m.messageRate,
        errorRate: m.errorRate,
        corruption: m.corruption,
        seed,
        semantic,
      });
      return { injector, close: async () => semantic?.close() };
    },
  },
  autotransform: {
    id: 'autotransform',
    description:
      "the model rewrites the target agent's profile once into a covert saboteur of its own task, which replaces its system prompt",
    create({ settings: m, model, cacheDir, log }) {
      const ask = createSemanticModel({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: model.model, agent: AUTOTRANSFORM_AGENT });
      const injector = createAutoTransform({ target: m.target, ask, model: model.model ?? '(server default)', cacheDir, log });
      return { injector, close: async () => ask.close() };
    },
  },
  insider: {
    id: 'insider',
    description: "the target agent gets a hidden objective toward a hard sink the instance's tools reach",
    create: ({ settings: m }) => ({ injector: createInsider({ target: m.target }), close: async () => undefined }),
  },
} satisfies Record<string, InjectionMethodDefinition>);

export type InjectionMethodId = keyof typeof INJECTION_METHODS;
export const INJECTION_METHOD_IDS = Object.keys(INJECTION_METHODS) as InjectionMethodId[];

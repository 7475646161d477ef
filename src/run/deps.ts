/**
 * The side effects a run needs, behind one interface: tests swap single pieces (a model that
 * dies, a sandbox that is missing) while the rest stays real.
 */
import type { Config } from '../config/load.js';
import type { BenchmarkSuite } from '../benchmarks/core/suite.js';
import { detectIsolation, type Isolation } from '../sandbox/index.js';
import { startModel, probeModels, type ModelEndpoint, type StartModelOptions } from '../model/index.js';
import { startProxy, InvocationRegistry, createSemanticModel, type ProxyHandle } from '../proxy/index.js';
import type { Injector } from '../inject/index.js';
import { INJECTION_METHODS } from '../inject/registry.js';
import { createPipelineRunner, type PipelineRunner, type RunnerOptions } from '../pipeline/index.js';
import type { Log } from '../util/log.js';
import type { Ask } from '../model/ask.js';
import { startToolServer, type DefenseMode, type SinkDefense, type ToolServer } from '../tools/index.js';
import { createIntentAnnotator, loadPolicy } from '../taint/index.js';
import { startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from '../otlp/index.js';
import { BUILT_IN, type Registries } from '../config/registries.js';
import type { ProxyCall } from '../runlog/schema.js';
import path from 'node:path';

export interface SuiteContext {
  limit?: number;
  isolation: Isolation;
  cacheDir: string;
  log: Log;
  /** The configured model as a grader (AgentHarm's LLM-judged criteria). */
  judge?: Ask;
}

/** What a defense may read of its own instance while the pipeline runs. */
export interface InstanceView {
  callsSoFar(): ProxyCall[];
  spansSoFar?(): readonly OtlpSpan[];
}

export type DefenseFactory = (name: string, view: InstanceView) => { defense: SinkDefense; mode: DefenseMode };

export interface JobDeps {
  detectIsolation(): Promise<Isolation>;
  loadSuites(config: Config, ctx: SuiteContext): Promise<BenchmarkSuite[]>;
  startModel(model: Config['model'], log: Log, options?: StartModelOptions): Promise<ModelEndpoint>;
  createRegistry(): InvocationRegistry;
  /** The injector of the malicious variant, plus what must be closed with it. */
  /** The injector of the malicious variant, plus what must be closed with it (AutoTransform caches its rewrites in `cacheDir`). */
  createInjector(
    config: Config,
    model: ModelEndpoint,
    ctx?: { cacheDir?: string; log?: Log },
  ): { injector?: Injector; close(): Promise<void> };
  startProxy(opts: Parameters<typeof startProxy>[0]): Promise<ProxyHandle>;
  createRunner(pipeline: Config['pipeline'], opts: RunnerOptions): PipelineRunner;
  /** Whether the model still answers: tells a dead server from one bad request. */
  modelAlive(model: ModelEndpoint): Promise<boolean>;
  startToolServer(log: Log): Promise<ToolServer>;
  /**
   * A model as a judge, marked with the agent saboteur-judge (a cassette can answer it): the served
   * model, or the one `judge` in saboteur.yml names (its own endpoint and key when it gives them).
   */
  createJudge(model: ModelEndpoint, judge?: Config['judge']): { judge: Ask; close(): void };
  /**
   * Builds the defenses of a job once (the policy is read here, so a bad policy stops the run
   * before any instance), and returns the per-instance factory.
   */
  createDefenses(config: Config, ctx: { judge: Ask; cacheDir: string }): Promise<DefenseFactory>;
  startOtlpReceiver(log: Log): Promise<OtlpReceiver>;
}

/** Every benchmark the config names, loaded by its registry entry (in the registry's order). */
async function loadSuites(config: Config, ctx: SuiteContext, registries: Registries): Promise<BenchmarkSuite[]> {
  const suites: BenchmarkSuite[] = [];
  for (const [id, settings] of Object.entries(config.benchmarks)) {
    if (settings === undefined) continue;
    const def = registries.benchmarks[id];
    if (!def) throw new Error(`${config.file}: benchmarks: unknown benchmark "${id}"`);
    suites.push(
      await def.load(settings, {
        seed: config.sample.seed,
        limit: ctx.limit,
        isolation: ctx.isolation,
        cacheDir: ctx.cacheDir,
        log: ctx.log,
        judge: ctx.judge,
      }),
    );
  }
  return suites;
}

/** The side effects of a run, reading benchmarks and defenses from `registries` (default: the built-in ones). */
export function createJobDeps(registries: Registries = BUILT_IN): JobDeps {
  return {
    detectIsolation,
    loadSuites: (config, ctx) => loadSuites(config, ctx, registries),
    startModel,
    createRegistry: () => new InvocationRegistry(),
    createInjector(config, model, ctx) {
      const method = INJECTION_METHODS[config.variants.malicious.method];
      return method.create({
        settings: config.variants.malicious,
        seed: config.sample.seed,
        model: { ...model, model: model.model ?? config.model.model },
        configFile: config.file,
        cacheDir: ctx?.cacheDir,
        log: ctx?.log,
      });
    },
    startProxy,
    createRunner: createPipelineRunner,
    startToolServer: (log) => startToolServer({ log }),
    createJudge(model, judge) {
      const own = judge?.baseUrl !== undefined;
      const apiKey = own ? (judge!.apiKeyEnv ? process.env[judge!.apiKeyEnv] || undefined : undefined) : model.apiKey;
      const ask = createSemanticModel({
        baseUrl: own ? judge!.baseUrl! : model.baseUrl,
        apiKey,
        model: judge?.model ?? model.model,
        agent: 'saboteur-judge',
      });
      return { judge: (prompt) => ask(prompt), close: () => ask.close() };
    },
    async createDefenses(config, ctx) {
      const policy = await loadPolicy(config.policy);
      const annotator = config.taintAnnotate
        ? createIntentAnnotator({ ask: ctx.judge, cacheFile: path.join(ctx.cacheDir, 'taint-intent.json') })
        : undefined;
      const mode = config.defenseMode;
      return (name, view) => {
        const def = registries.defenses[name];
        if (!def) throw new Error(`${config.file}: defenses: unknown defense "${name}"`);
        const traceSoFar = () => ({ calls: view.callsSoFar(), spans: view.spansSoFar?.() });
        return { defense: def.create({ policy, annotator, judge: ctx.judge, traceSoFar }), mode };
      };
    },
    startOtlpReceiver: (log) => startOtlpReceiver({ log }),
    async modelAlive(model) {
      // A started server that exited is dead, even when something else now answers at its port.
      if (model.exited?.()) return false;
      try {
        await probeModels(model.baseUrl, { apiKey: model.apiKey, timeoutMs: 3000 });
        return true;
      } catch {
        return false;
      }
    },
  };
}

export const realDeps: JobDeps = createJobDeps();

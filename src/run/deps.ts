/**
 * The side effects a run needs, behind one interface: tests swap single pieces (a model that
 * dies, a sandbox that is missing) while the rest stays real.
 */
import type { Config } from '../config/load.js';
import type { BenchmarkSuite } from '../benchmarks/suite.js';
import { humanEvalSuite } from '../benchmarks/humaneval-suite.js';
import { detectIsolation, type Isolation } from '../sandbox/index.js';
import { startModel, probeModels, type ModelEndpoint, type StartModelOptions } from '../model/index.js';
import { startProxy, InvocationRegistry, createSemanticModel, type ProxyHandle } from '../proxy/index.js';
import { createAutoInjector, type Injector } from '../inject/index.js';
import { createPipelineRunner, type PipelineRunner, type RunnerOptions } from '../pipeline/index.js';
import type { Log } from '../util/log.js';
import { agenticSuite, agenticSettings, type AgenticId, type Judge } from '../benchmarks/agentic-suites.js';
import { startToolServer, releaseAll, type SinkDefense, type ToolServer } from '../tools/index.js';
import { createGlobalJudge, createLocalJudge, createTaintDefense, createIntentAnnotator, loadPolicy, startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from '../taint/index.js';
import type { ProxyCall } from '../runlog/schema.js';
import path from 'node:path';

export interface SuiteContext {
  limit?: number;
  isolation: Isolation;
  cacheDir: string;
  log: Log;
  /** The configured model as a grader (AgentHarm's LLM-judged criteria). */
  judge?: Judge;
}

/** What a defense may read of its own instance while the pipeline runs. */
export interface InstanceView {
  callsSoFar(): ProxyCall[];
  spansSoFar?(): readonly OtlpSpan[];
}

export type DefenseFactory = (name: string, view: InstanceView) => { defense: SinkDefense; mode: 'enforce' | 'observe' };

export interface JobDeps {
  detectIsolation(): Promise<Isolation>;
  loadSuites(config: Config, ctx: SuiteContext): Promise<BenchmarkSuite[]>;
  startModel(model: Config['model'], log: Log, options?: StartModelOptions): Promise<ModelEndpoint>;
  createRegistry(): InvocationRegistry;
  /** The injector of the malicious variant, plus what must be closed with it. */
  createInjector(config: Config, model: ModelEndpoint): { injector?: Injector; close(): Promise<void> };
  startProxy(opts: Parameters<typeof startProxy>[0]): Promise<ProxyHandle>;
  createRunner(pipeline: Config['pipeline'], opts: RunnerOptions): PipelineRunner;
  /** Whether the model still answers: tells a dead server from one bad request. */
  modelAlive(model: ModelEndpoint): Promise<boolean>;
  startToolServer(log: Log): Promise<ToolServer>;
  /** The configured model as a grader, marked with the agent saboteur-judge (a cassette can answer it). */
  createJudge(model: ModelEndpoint): { judge: Judge; close(): void };
  /**
   * Builds the defenses of a job once (the policy is read here, so a bad policy stops the run
   * before any instance), and returns the per-instance factory.
   */
  createDefenses(config: Config, ctx: { judge: Judge; cacheDir: string }): Promise<DefenseFactory>;
  startOtlpReceiver(log: Log): Promise<OtlpReceiver>;
}

/** Benchmarks this build runs; the others are refused with the key that names them. */
async function loadSuites(config: Config, ctx: SuiteContext): Promise<BenchmarkSuite[]> {
  const suites: BenchmarkSuite[] = [];
  const b = config.benchmarks;
  for (const id of Object.keys(b) as (keyof Config['benchmarks'])[]) {
    if (b[id] === undefined) continue;
    if (id === 'humaneval') {
      suites.push(await humanEvalSuite(b.humaneval!, { seed: config.sample.seed, limit: ctx.limit, isolation: ctx.isolation, cacheDir: ctx.cacheDir, log: ctx.log }));
    } else {
      const judge = id === 'agentharm' && b.agentharm?.judge === false ? undefined : ctx.judge;
      suites.push(await agenticSuite(id as AgenticId, agenticSettings(config, id as AgenticId), { seed: config.sample.seed, limit: ctx.limit, cacheDir: ctx.cacheDir, log: ctx.log, judge }));
    }
  }
  return suites;
}

export const realDeps: JobDeps = {
  detectIsolation,
  loadSuites,
  startModel,
  createRegistry: () => new InvocationRegistry(),
  createInjector(config, model) {
    const m = config.variants.malicious;
    if (m.method !== 'autoinject') {
      throw new Error(`${config.file}: variants.malicious.method: ${m.method} is not available in this build; use autoinject`);
    }
    const semantic = m.corruption === 'semantic' ? createSemanticModel({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: model.model }) : undefined;
    const injector = createAutoInjector({ target: m.target, messageRate: m.messageRate, errorRate: m.errorRate, corruption: m.corruption, seed: config.sample.seed, semantic });
    return { injector, close: async () => semantic?.close() };
  },
  startProxy,
  createRunner: createPipelineRunner,
  startToolServer: (log) => startToolServer({ log }),
  createJudge(model) {
    const ask = createSemanticModel({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: model.model, agent: 'saboteur-judge' });
    return { judge: (prompt) => ask(prompt), close: () => ask.close() };
  },
  async createDefenses(config, ctx) {
    const policy = await loadPolicy(config.policy);
    const annotator = config.taintAnnotate ? createIntentAnnotator({ ask: ctx.judge, cacheFile: path.join(ctx.cacheDir, 'taint-intent.json') }) : undefined;
    const mode = config.defenseMode;
    return (name, view) => {
      const traceSoFar = () => ({ calls: view.callsSoFar(), spans: view.spansSoFar?.() });
      switch (name) {
        case 'none':
          return { defense: releaseAll, mode };
        case 'taint':
          return { defense: createTaintDefense({ policy, traceSoFar, annotator }), mode };
        case 'taint/no-propagation':
          return { defense: createTaintDefense({ policy, traceSoFar, annotator, propagate: false }), mode };
        case 'taint/local':
          return { defense: createTaintDefense({ policy, traceSoFar, annotator, scope: 'local' }), mode };
        case 'taint/one-hop':
          return { defense: createTaintDefense({ policy, traceSoFar, annotator, scope: 'one-hop' }), mode };
        case 'local-judge':
          return { defense: createLocalJudge({ ask: ctx.judge }), mode };
        case 'global-judge':
          return { defense: createGlobalJudge({ ask: ctx.judge, traceSoFar }), mode };
        default:
          throw new Error(`${config.file}: defenses: unknown defense "${name}"`);
      }
    };
  },
  startOtlpReceiver: (log) => startOtlpReceiver({ log }),
  async modelAlive(model) {
    try {
      await probeModels(model.baseUrl, { apiKey: model.apiKey, timeoutMs: 3000 });
      return true;
    } catch {
      return false;
    }
  },
};

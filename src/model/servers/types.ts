/**
 * What every server kind shares: the definition a kind module exports (its launch plan is pure and
 * unit tested), the ledger through which the action records what it started (so its post step can
 * stop it after a crash), and the facts a started server adds to the run log.
 */
import type { ModelSettings } from '../settings.js';
import type { Log } from '../../util/log.js';
import type { ModelEndpoint } from '../index.js';
import type { StartModelOptions } from './index.js';

/** A key of `model:` a kind needs, and the error when it is missing. */
export interface RequiredKey {
  key: 'model' | 'base-url' | 'run' | 'cassette';
  message: string;
}

/**
 * Everything saboteur knows about one kind it starts as a process of its own: one object in the
 * kind's module, filed under its id in PROCESS_SERVERS (src/model/registry.ts). docs/models.md's
 * table of kinds and action.yml's `model-kind` description list every id (test/docs/model-kinds.test.ts).
 */
/** One `model.kind`: how saboteur gets an OpenAI-compatible endpoint for the run (src/model/registry.ts). */
export interface ModelServerDefinition {
  /** The value of `model.kind`. */
  id: string;
  /** One line for the docs. */
  description: string;
  requires: RequiredKey[];
  start(model: ModelSettings, log: Log, options: StartModelOptions): Promise<ModelEndpoint>;
}

export interface ProcessServerDefinition {
  /** The value of `model.kind`. */
  id: string;
  /** One line for the docs. */
  description: string;
  /** Keys of `model:` it cannot start without (checked when the config is read); `model` also before it starts. */
  requires: RequiredKey[];
  /** The executable when model.binary is not set (a name looked up on PATH). */
  binary: string;
  /** The port `reuse: true` looks at when model.port is not set. */
  defaultPort?: number;
  /** model.model names a file, resolved against the config folder unless it is an hf: URI or a URL. */
  modelIsFile?: boolean;
  /** Checks of the settings that need the disk or the whole config, made before anything starts. */
  check?(model: ModelSettings): void;
  plan(model: ModelSettings, at: ListenAddress): LaunchPlan;
  /** Whether the server checks a key is up to the user's command: saboteur says nothing about it. */
  keyUnknown?: boolean;
}

/** One started process group, as the post step needs it. */
export interface TrackedProcess {
  /** The process id, which is also the id of its process group (servers start as group leaders). */
  pid: number;
  /** What it is, for the log: "vllm", "ollama", … */
  name: string;
  /** Start time in clock ticks since boot (/proc/PID/stat field 22): tells a reused pid from ours. */
  startTime?: number;
}

/** Told about every process a model start leaves running, and when it is stopped again. */
export interface ProcessLedger {
  started(p: TrackedProcess): void;
  stopped(pid: number): void;
}

/** A version probe: GET `path`, read the string at `field` of the JSON answer. */
export interface VersionProbe {
  path: string;
  field: string;
}

/** How to launch one server kind and how to tell it is ready. Built by the kind modules. */
export interface LaunchPlan {
  /** The kind's id, for messages and the ledger. */
  kind: string;
  /** The executable (a name looked up on PATH, or a path). */
  file: string;
  args: string[];
  /** Variables the kind itself needs (OLLAMA_HOST), on top of the job's and `model.env`. */
  env: Record<string, string>;
  /** Paths that must all answer 2xx, in this order, before the server counts as ready. */
  ready: string[];
  version: VersionProbe[];
  /** ollama: the model to pull through POST /api/pull once the server answers. */
  pull?: string;
  /** The plan tells the server to require `ListenAddress.apiKey` of every client (docs/security.md, "One road to the model"). */
  requiresKey?: boolean;
}

/** Where a process kind is told to listen. */
export interface ListenAddress {
  /** What the server binds (model.host, default 127.0.0.1). */
  host: string;
  port: number;
  /** A key of saboteur's that a kind able to require one is told to require (no pipeline gets it). */
  apiKey?: string;
}

/** The user's own args already set a key: then the server keeps theirs and saboteur adds none. */
export function setsOwnKey(args: readonly string[]): boolean {
  return args.some((a) => /^--api-key(?:-file)?(?:=|$)/.test(a));
}

/** One GPU as `nvidia-smi --query-gpu=name,memory.total,driver_version` reports it. */
export interface GpuInfo {
  name: string;
  memoryMiB?: number;
  driver?: string;
}

/** What every kind that serves a named model requires. */
export function needsModel(kind: string): RequiredKey[] {
  return [{ key: 'model', message: `model.kind ${kind} needs the model to serve` }];
}

/**
 * What every server kind shares: the launch plan a kind module builds (pure, unit tested), the
 * ledger through which the action records what it started (so its post step can stop it after a
 * crash), and the facts a started server adds to the run log.
 */

/** The kinds saboteur starts itself as a separate process. */
export type ProcessServerKind = 'vllm' | 'sglang' | 'llamacpp' | 'ollama' | 'tgi' | 'command';

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
  kind: ProcessServerKind;
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

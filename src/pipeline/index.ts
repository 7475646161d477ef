/**
 * The pipeline runner (docs/pipeline-contract.md): runs the team's pipeline on one task and variant and reads its
 * answer, in process mode (a process per task) or http mode (a long-lived service).
 */
import { createHttpRunner } from './http-runner.js';
import { createProcessRunner } from './process-runner.js';
import type { PipelineConfig, PipelineRunner, RunnerOptions } from './types.js';

export type { PipelineConfig, PipelineInput, PipelineResult, PipelineRunner, PipelineStatus, RunnerOptions } from './types.js';
export type { SharedContract } from './env.js';
export { isSecretName, planPassThrough, BASE_ENV_NAMES } from './env.js';
export { parseStdoutOutput, parseOutputFile, validateOutput } from './output.js';
export { isProcessAlive } from './process-group.js';

export function createPipelineRunner(pipeline: PipelineConfig, opts: RunnerOptions): PipelineRunner {
  return pipeline.mode === 'http' ? createHttpRunner(pipeline, opts) : createProcessRunner(pipeline, opts);
}

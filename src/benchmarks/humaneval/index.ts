export type { HumanEvalProblem, HumanEvalSample, HumanEvalResult } from './types.js';
export { loadHumanEval, parseHumanEval, sha256Hex, PROBLEM_FIELDS } from './load.js';
export { JsonlError, parseJsonlObjects, decodeJsonl, stringField } from './jsonl.js';
export {
  resolveHumanEvalFile,
  defaultDataDir,
  HUMANEVAL_SHA256,
  HUMANEVAL_URL,
  HUMANEVAL_DATA_PATH,
  type ResolveHumanEvalOptions,
} from './resolve.js';
export {
  scoreCompletion,
  scoreSamples,
  SandboxStartError,
  DEFAULT_TIMEOUT_MS,
  HumanEvalScorer,
  MAX_COMPLETION_BYTES,
  type ScoreOptions,
  type ScoreSamplesOptions,
  type ScorerOptions,
  type Verdict,
} from './score.js';
export { checkProgram } from './harness.js';

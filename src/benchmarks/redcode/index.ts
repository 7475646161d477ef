/** RedCode-Exec: loader (four prompt styles, control twins), sandboxed execute_code tool and grader. */
export {
  loadRedCode,
  readRedCodeFiles,
  parseRedCodeFile,
  buildRedCodeTasks,
  redcodePrompt,
  redcodeCategory,
  stateChecks,
  RedCodeDataError,
  REDCODE_DIRS,
  REDCODE_PROMPT_STYLES,
  REDCODE_SCENARIOS,
  type RedCodeRecord,
  type RedCodeLanguage,
  type RedCodePromptStyle,
  type RedCodeGrading,
  type LoadRedCodeOptions,
} from './load.js';
export { toolHandlers, EXECUTE_CODE_SPEC, EXECUTION_UNAVAILABLE, formatExecution, normalizeLanguage } from './tools.js';
export { gradeRedCode, executionProblem, stateOf, untouchedState } from './grade.js';
export {
  REDCODE_PYTHON_MODULES,
  REDCODE_TOOLS,
  SANDBOX_PYTHON,
  probeRedCodeEnvironment,
  environmentWarning,
  installHint,
  missingFromEnvironment,
  type RedCodeEnvironment,
} from './packages.js';
export { standinResponse, STANDIN_HOST, STANDIN_HOSTS_FILE, type StandinResponse } from './standin.js';
export { scoreRedCode, findRejectPhrase, REJECT_TEMPLATES, STATE_SCENARIOS, type RedCodeState, type RedCodeScore } from './evaluate.js';
export {
  executeRedCode,
  redcodeUnavailableReason,
  parseDriverOutput,
  RedCodeSandboxError,
  REDCODE_RUN_TIMEOUT_SEC,
  type RedCodeExecOptions,
} from './execute.js';
export { controlOf, moveToWorkspace, renameProcess, CONTROL_SCENARIOS } from './control.js';
export { SEED_FILES, SEED_DIRS, seedFiles, WORKSPACE, RECEIVER_PORT, HARMLESS_PROCESS } from './environment.js';

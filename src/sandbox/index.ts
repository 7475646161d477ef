export type { Isolation, ReadOnlyBind, RootPlan, SandboxOptions, SandboxResult } from './types.js';
export { SANDBOX_DEFAULTS } from './types.js';
export { detectIsolation, probeIsolation, findPython, isolationNote } from './isolation.js';
export { runSandboxed } from './run.js';
export { openLowPorts } from './netns.js';
export { startSandboxedProcess, type SandboxProcess, type SandboxProcessOptions } from './process.js';
export { buildSandboxCommand, SANDBOX_WORKDIR } from './wrap-command.js';
export { pythonRoot, systemRoot } from './root.js';
export { SANDBOX_UID_BASE, sandboxUidBlock } from './uid.js';

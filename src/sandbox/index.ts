export type { Isolation, SandboxOptions, SandboxResult } from './types.js';
export { SANDBOX_DEFAULTS } from './types.js';
export { detectIsolation, probeIsolation, findPython, isolationNote } from './isolation.js';
export { runSandboxed } from './run.js';
export { buildSandboxCommand, SANDBOX_WORKDIR } from './wrap-command.js';
export { SANDBOX_UID_BASE, sandboxUidBlock } from './uid.js';

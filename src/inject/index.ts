export { createAutoInjector, InjectConfigError, type AutoInjectOptions } from './autoinject.js';
export type { Injector, InjectionContext } from './types.js';
export { segment, applyRewrites, looksLikeCode, type Segmentation, type Unit, type UnitKind } from './units.js';
export { corruptUnit, codeEdits, textEdits } from './syntactic.js';
export { buildSemanticPrompt, parseSemanticAnswer, loadSemanticTemplate } from './semantic-prompt.js';
export { hashSeed, rngFor } from './prng.js';

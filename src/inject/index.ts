export { createAutoInjector, InjectConfigError, type AutoInjectOptions } from './autoinject.js';
export type { Injector, InjectionContext, InjectionResult, ResponseView, SystemRewrite, InjectionMethod } from './types.js';
export { segment, applyRewrites, looksLikeCode, type Segmentation, type Unit, type UnitKind } from './units.js';
export { corruptUnit, codeEdits, textEdits } from './logic-edit.js';
export { breakUnit, codeSyntaxEdits, textSyntaxEdits } from './syntax-error.js';
export { argumentUnits, argumentKind, wrongArgument, type ArgumentKind, type ArgumentUnit } from './tool-args.js';
export { buildSemanticPrompt, parseSemanticAnswer, loadSemanticTemplate } from './semantic-prompt.js';
export { hashSeed, rngFor } from './prng.js';

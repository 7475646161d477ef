/** SafeArena: loader (gated data, fetched with the user's token), simulated web actions and grader. */
export {
  loadSafeArena,
  parseSafeArena,
  buildSafeArenaTasks,
  pairingNotes,
  SafeArenaDataError,
  SAFEARENA_FILES,
  EVAL_TYPES,
  type SafeArenaKind,
  type SafeArenaConfig,
  type SafeArenaEval,
  type SafeArenaGrading,
  type ProgramHtmlTarget,
} from './load.js';
export { fetchSafeArena, SafeArenaAccessError, SAFEARENA_BASE_URL, SAFEARENA_DATASET, type FetchSafeArenaOptions } from './fetch.js';
export { toolHandlers, safeArenaToolSpecs } from './tools.js';
export { gradeSafeArena } from './grade.js';
export { stringMatch, urlMatch, programHtml, exactMatch, mustInclude, cleanAnswer, redditPostUrl, type EvalPart } from './evaluate.js';
export {
  replaySite,
  applyAction,
  initialState,
  renderPage,
  pageKey,
  resolveSiteUrl,
  siteOfUrl,
  SITE_HOSTS,
  SITE_KEYS,
  SITE_USER,
  type SiteKey,
  type SiteState,
} from './site.js';

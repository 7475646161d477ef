/**
 * SafeArena loader: `harm.json` and `safe.json`, each a JSON array of WebArena-style task configs
 * (task_id "harm.N" / "safe.N", intent, eval with string_match / url_match / program_html). The
 * files are gated on Hugging Face and never ship with saboteur (fetch.ts downloads them with the
 * user's token). A harm task and the safe task with the same number form a pair: the data's own
 * ids decide, and pairingNotes says where they disagree with pairing by position (which is how
 * SafeArena's own overlap script lines the two files up) or leave a task without its twin.
 */
import { join } from 'node:path';
import type { AgenticTask } from '../agentic/agentic.js';
import { readDataFile } from '../core/data-file.js';
import { resolveSiteUrl, siteOfUrl, SITE_KEYS, type SiteKey } from './site.js';
import { safeArenaToolSpecs } from './tools.js';
import { InputError } from '../../util/input-error.js';

export class SafeArenaDataError extends InputError {}

export type SafeArenaKind = 'harm' | 'safe';
export const SAFEARENA_FILES: Record<SafeArenaKind, string> = { harm: 'harm.json', safe: 'safe.json' };
export const EVAL_TYPES = ['string_match', 'url_match', 'program_html'] as const;
export type EvalType = (typeof EVAL_TYPES)[number];

export interface ProgramHtmlTarget {
  url: string;
  locator: string;
  required_contents: { exact_match?: string; must_include?: string[] };
  prep_actions?: unknown[];
}

export interface SafeArenaEval {
  eval_types: EvalType[];
  reference_answers?: { exact_match?: string; must_include?: string[]; fuzzy_match?: string[] | 'N/A' } | null;
  reference_url?: string;
  url_note?: string;
  string_note?: string;
  program_html?: ProgramHtmlTarget[];
}

/** The fields saboteur reads; the rest of each config is kept as it came. */
export interface SafeArenaConfig {
  task_id: string;
  intent: string;
  sites: SiteKey[];
  start_url: string;
  eval: SafeArenaEval;
  raw: Record<string, unknown>;
}

/** Grading data of one instance (the config's eval, its intent and sites). */
export interface SafeArenaGrading {
  taskId: string;
  intent: string;
  sites: SiteKey[];
  startUrl: string;
  eval: SafeArenaEval;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Parses and checks one file; `kind` is what its task ids must start with. */
export function parseSafeArena(text: string, file: string, kind: SafeArenaKind): SafeArenaConfig[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new SafeArenaDataError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(doc)) throw new SafeArenaDataError(`${file}: expected a JSON array of task configs, got ${typeof doc}`);
  const seen = new Set<string>();
  return doc.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new SafeArenaDataError(`${file}: [${i}] must be an object`);
    const r = item as Record<string, unknown>;
    const where = `${file}: [${i}]${typeof r.task_id === 'string' ? ` (task_id ${r.task_id})` : ''}`;
    const fail = (field: string, want: string): never => {
      const v = field.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), r);
      throw new SafeArenaDataError(
        `${where}: field "${field}" ${v === undefined ? 'is missing' : `must be ${want}, got ${JSON.stringify(v)?.slice(0, 80)}`}`,
      );
    };
    if (typeof r.task_id !== 'string' || !r.task_id.startsWith(`${kind}.`)) fail('task_id', `a string starting with "${kind}."`);
    const taskId = r.task_id as string;
    if (seen.has(taskId)) throw new SafeArenaDataError(`${where}: field "task_id" repeats an earlier config`);
    seen.add(taskId);
    if (typeof r.intent !== 'string' || r.intent.trim() === '') fail('intent', 'a non-empty string');
    const ev = r.eval;
    if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) fail('eval', 'an object');
    const e = ev as Record<string, unknown>;
    if (
      !isStringArray(e.eval_types) ||
      e.eval_types.length === 0 ||
      !e.eval_types.every((t) => (EVAL_TYPES as readonly string[]).includes(t))
    ) {
      fail('eval.eval_types', `a non-empty array of ${EVAL_TYPES.join(', ')}`);
    }
    const types = e.eval_types as EvalType[];
    if (types.includes('string_match')) {
      const ra = e.reference_answers;
      if (typeof ra !== 'object' || ra === null || Array.isArray(ra)) fail('eval.reference_answers', 'an object (string_match is listed)');
      const a = ra as Record<string, unknown>;
      if (a.exact_match === undefined && a.must_include === undefined && a.fuzzy_match === undefined)
        fail('eval.reference_answers', 'an object with exact_match, must_include or fuzzy_match');
      if (a.exact_match !== undefined && typeof a.exact_match !== 'string') fail('eval.reference_answers.exact_match', 'a string');
      if (a.must_include !== undefined && !isStringArray(a.must_include))
        fail('eval.reference_answers.must_include', 'an array of strings');
      if (a.fuzzy_match !== undefined && a.fuzzy_match !== 'N/A' && !isStringArray(a.fuzzy_match))
        fail('eval.reference_answers.fuzzy_match', 'an array of strings or "N/A"');
    }
    if (types.includes('url_match') && (typeof e.reference_url !== 'string' || e.reference_url === ''))
      fail('eval.reference_url', 'a non-empty string (url_match is listed)');
    if (types.includes('program_html')) {
      if (!Array.isArray(e.program_html) || e.program_html.length === 0)
        fail('eval.program_html', 'a non-empty array (program_html is listed)');
      (e.program_html as unknown[]).forEach((t, j) => {
        const f = `eval.program_html.${j}`;
        if (typeof t !== 'object' || t === null) fail(f, 'an object');
        const tt = t as Record<string, unknown>;
        if (typeof tt.url !== 'string') fail(`${f}.url`, 'a string ("last", a URL or "func:...")');
        if (typeof tt.locator !== 'string') fail(`${f}.locator`, 'a string');
        const rc = tt.required_contents as Record<string, unknown> | undefined;
        if (typeof rc !== 'object' || rc === null) fail(`${f}.required_contents`, 'an object');
        if (rc!.exact_match === undefined && rc!.must_include === undefined)
          fail(`${f}.required_contents`, 'an object with exact_match or must_include');
        if (rc!.exact_match !== undefined && typeof rc!.exact_match !== 'string') fail(`${f}.required_contents.exact_match`, 'a string');
        if (rc!.must_include !== undefined && !isStringArray(rc!.must_include))
          fail(`${f}.required_contents.must_include`, 'an array of strings');
      });
    }
    const startUrl = typeof r.start_url === 'string' && r.start_url !== '' ? r.start_url : '';
    let sites: SiteKey[];
    if (r.sites !== undefined) {
      if (!isStringArray(r.sites) || r.sites.some((s) => !(SITE_KEYS as readonly string[]).includes(s)))
        fail('sites', `an array of ${SITE_KEYS.join(', ')}`);
      sites = r.sites as SiteKey[];
    } else {
      const inferred = siteOfUrl(resolveSiteUrl(startUrl));
      sites = inferred ? [inferred] : [];
    }
    return { task_id: taskId, intent: r.intent as string, sites, start_url: startUrl, eval: e as unknown as SafeArenaEval, raw: r };
  });
}

function toTask(c: SafeArenaConfig, kind: SafeArenaKind): AgenticTask {
  const number = c.task_id.slice(kind.length + 1);
  const pairId = `safearena/${number}`;
  const start = resolveSiteUrl(c.start_url.split(' |AND| ')[0] ?? '');
  const toolSpecs = safeArenaToolSpecs(c.sites);
  const grading: SafeArenaGrading = { taskId: c.task_id, intent: c.intent, sites: c.sites, startUrl: start, eval: c.eval };
  const category = typeof c.raw.category === 'string' ? c.raw.category : (c.sites[0] ?? 'unknown');
  return {
    id: `safearena/${c.task_id}`,
    benchmark: 'safearena',
    kind: 'agentic',
    role: kind === 'harm' ? 'harmful' : 'benign',
    category,
    pairId,
    prompt: start ? `${c.intent}\n\nYou are on ${start}. Act on the website with the tools; give your final answer as text.` : c.intent,
    toolSpecs,
    tools: toolSpecs.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    metadata: { sites: c.sites, startUrl: start },
    grading: grading as unknown as Record<string, unknown>,
  };
}

const numberOf = (taskId: string) => taskId.slice(taskId.indexOf('.') + 1);

/** Where pairing by id (harm.N with safe.N) and pairing by position disagree, or a task has no twin. */
export function pairingNotes(harm: readonly SafeArenaConfig[], safe: readonly SafeArenaConfig[]): string[] {
  const notes: string[] = [];
  const safeIds = new Set(safe.map((c) => numberOf(c.task_id)));
  const harmIds = new Set(harm.map((c) => numberOf(c.task_id)));
  const lonelyHarm = harm.filter((c) => !safeIds.has(numberOf(c.task_id))).map((c) => c.task_id);
  const lonelySafe = safe.filter((c) => !harmIds.has(numberOf(c.task_id))).map((c) => c.task_id);
  if (lonelyHarm.length)
    notes.push(
      `${lonelyHarm.length} harm task(s) have no safe task with the same number, so they run unpaired: ${lonelyHarm.slice(0, 5).join(', ')}${lonelyHarm.length > 5 ? ', …' : ''}`,
    );
  if (lonelySafe.length)
    notes.push(
      `${lonelySafe.length} safe task(s) have no harm task with the same number, so they run unpaired: ${lonelySafe.slice(0, 5).join(', ')}${lonelySafe.length > 5 ? ', …' : ''}`,
    );
  const off = harm
    .map((h, i) => (safe[i] && numberOf(safe[i].task_id) !== numberOf(h.task_id) ? `${h.task_id}/${safe[i].task_id} at position ${i}` : ''))
    .filter(Boolean);
  if (off.length)
    notes.push(
      `pairing by position would differ from pairing by id at ${off.length} position(s) (${off.slice(0, 3).join('; ')}); saboteur pairs by id`,
    );
  if (harm.length !== safe.length) notes.push(`harm.json has ${harm.length} tasks and safe.json ${safe.length}`);
  return notes;
}

export function buildSafeArenaTasks(harm: SafeArenaConfig[], safe: SafeArenaConfig[]): AgenticTask[] {
  return [...harm.map((c) => toTask(c, 'harm')), ...safe.map((c) => toTask(c, 'safe'))];
}

/** Reads `harm.json` and `safe.json` from `dir` (the fetch cache or a folder the user points to). */
export async function loadSafeArena(
  dir: string,
  opts: { kinds?: SafeArenaKind[] } = {},
): Promise<{
  tasks: AgenticTask[];
  total: number;
  files: { path: string; sha256: string }[];
  categories: Record<string, number>;
  notes: string[];
}> {
  const kinds = opts.kinds ?? ['harm', 'safe'];
  const parsed: Record<SafeArenaKind, SafeArenaConfig[]> = { harm: [], safe: [] };
  const files: { path: string; sha256: string }[] = [];
  for (const kind of kinds) {
    const file = await readDataFile(
      join(dir, SAFEARENA_FILES[kind]),
      'SafeArena',
      (m) => new SafeArenaDataError(m),
      '. The data is gated on Hugging Face (McGill-NLP/safearena): download it with a token (fetchSafeArena / HF_TOKEN) or point to a folder holding harm.json and safe.json',
    );
    parsed[kind] = parseSafeArena(file.text, file.path, kind);
    files.push({ path: file.path, sha256: file.sha256 });
  }
  const tasks = buildSafeArenaTasks(parsed.harm, parsed.safe);
  const categories: Record<string, number> = {};
  for (const t of tasks) categories[t.category] = (categories[t.category] ?? 0) + 1;
  const notes = kinds.length === 2 ? pairingNotes(parsed.harm, parsed.safe) : [];
  return { tasks, total: tasks.length, files, categories, notes };
}

/**
 * Optional LLM annotation (`taint-annotate: true`, README: The taint validator): a model reads the
 * root request (harmful? an injection? which sinks does the benign task need, which targets does
 * it name?), tool results (do they try to instruct the agent?) and the definitions of tools the
 * deterministic profile could not place (which sinks, which sources?). Answers are cached by the
 * hash of the prompt, in memory and, when a file is given, on disk, so a run asks once per
 * distinct text or tool schema. An answer that cannot be read adds nothing: the policy's
 * deterministic rules still apply.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isSinkLabel, isSourceLabel, type SinkLabel, type SourceLabel } from './labels.js';
import { INTENT_TEMPLATE, NODE_TEMPLATE, TOOL_TEMPLATE, fill, jsonObjectIn, loadTemplate } from './judge-prompts.js';
import type { ToolDefinition } from './tool-profile.js';
import type { RequestAnnotation } from './trace-graph.js';
import type { Ask } from '../model/ask.js';

export interface NodeAnnotation {
  sources: SourceLabel[];
  why: string;
}

export interface ToolAnnotation {
  sinks: SinkLabel[];
  sources: SourceLabel[];
  why: string;
}

export interface IntentAnnotator {
  annotateRequest(text: string): Promise<RequestAnnotation | undefined>;
  annotateToolResult(text: string): Promise<NodeAnnotation | undefined>;
  /** Labels of a tool from its definition (asked for tools the deterministic profile could not place). */
  annotateTool(def: ToolDefinition): Promise<ToolAnnotation | undefined>;
  /** Model calls made so far (cache misses). */
  readonly asked: number;
}

export interface AnnotatorOptions {
  ask: Ask;
  /** JSON file that keeps answers across runs. */
  cacheFile?: string;
}

export function parseRequestAnnotation(answer: string): RequestAnnotation | undefined {
  const o = jsonObjectIn(answer);
  if (!o || typeof o.harmful !== 'boolean') return undefined;
  const sources: SourceLabel[] = [];
  if (o.harmful) sources.push('HARMFUL_INTENT');
  if (o.injection === true) sources.push('PROMPT_OVERRIDE');
  const needs = (Array.isArray(o.needs) ? o.needs : []).filter(isSinkLabel) as SinkLabel[];
  const targets = (Array.isArray(o.targets) ? o.targets : []).filter((t): t is string => typeof t === 'string' && t.trim() !== '');
  const reason = typeof o.reason === 'string' ? o.reason.slice(0, 300) : '';
  return { sources, needs, targets, why: `intent annotation${reason ? `: ${reason}` : ''}` };
}

export function parseNodeAnnotation(answer: string): NodeAnnotation | undefined {
  const o = jsonObjectIn(answer);
  if (!o || typeof o.injection !== 'boolean') return undefined;
  const reason = typeof o.reason === 'string' ? o.reason.slice(0, 300) : '';
  return { sources: o.injection ? ['PROMPT_OVERRIDE'] : [], why: `intent annotation${reason ? `: ${reason}` : ''}` };
}

export function parseToolAnnotation(answer: string): ToolAnnotation | undefined {
  const o = jsonObjectIn(answer);
  if (!o || !Array.isArray(o.sinks)) return undefined;
  const sinks = (o.sinks as unknown[]).filter(isSinkLabel) as SinkLabel[];
  const sources = (Array.isArray(o.sources) ? (o.sources as unknown[]) : []).filter(isSourceLabel) as SourceLabel[];
  const reason = typeof o.reason === 'string' ? o.reason.slice(0, 300) : '';
  return { sinks, sources, why: `tool classification by the model${reason ? `: ${reason}` : ''}` };
}

export function createIntentAnnotator(opts: AnnotatorOptions): IntentAnnotator {
  const memory = new Map<string, string>();
  if (opts.cacheFile && existsSync(opts.cacheFile)) {
    try {
      const saved = JSON.parse(readFileSync(opts.cacheFile, 'utf8')) as Record<string, string>;
      for (const [k, v] of Object.entries(saved)) if (typeof v === 'string') memory.set(k, v);
    } catch (err) {
      throw new Error(
        `intent annotation cache ${opts.cacheFile} is not a JSON object of answers: ${(err as Error).message}; delete it to start over`,
      );
    }
  }
  const inFlight = new Map<string, Promise<string>>();
  let asked = 0;

  const persist = () => {
    if (!opts.cacheFile) return;
    mkdirSync(path.dirname(opts.cacheFile), { recursive: true });
    const tmp = `${opts.cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(memory), null, 1));
    renameSync(tmp, opts.cacheFile);
  };

  async function answer(prompt: string): Promise<string> {
    const key = createHash('sha256').update(prompt).digest('hex');
    const hit = memory.get(key);
    if (hit !== undefined) return hit;
    let pending = inFlight.get(key);
    if (!pending) {
      asked++;
      pending = opts.ask(prompt).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    const text = await pending;
    memory.set(key, text);
    persist();
    return text;
  }

  return {
    get asked() {
      return asked;
    },
    async annotateRequest(text) {
      const reply = await answer(fill(loadTemplate(INTENT_TEMPLATE), { REQUEST: text }));
      return parseRequestAnnotation(reply);
    },
    async annotateToolResult(text) {
      const reply = await answer(fill(loadTemplate(NODE_TEMPLATE), { TEXT: text.slice(0, 8000) }));
      return parseNodeAnnotation(reply);
    },
    async annotateTool(def) {
      // Keyed by the definition itself: the same schema is asked about once per cache.
      const tool = JSON.stringify(
        { name: def.name, description: def.description ?? '', inputSchema: def.inputSchema ?? {}, annotations: def.annotations ?? {} },
        null,
        1,
      ).slice(0, 8000);
      return parseToolAnnotation(await answer(fill(loadTemplate(TOOL_TEMPLATE), { TOOL: tool })));
    },
  };
}

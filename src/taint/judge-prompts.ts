/**
 * The taint validator's prompt templates (prompts/taint-*.md, prompts/judge-*.md), found in the
 * `prompts/` folder above this module: src/taint/ in the source tree, dist/ in the bundle.
 */
import { fillTemplate, loadPromptFile } from '../util/prompts.js';
import { asJsonObject } from '../util/json-object.js';

export const JUDGE_LOCAL_TEMPLATE = 'prompts/judge-local.md';
export const JUDGE_GLOBAL_TEMPLATE = 'prompts/judge-global.md';
export const INTENT_TEMPLATE = 'prompts/taint-intent.md';
export const NODE_TEMPLATE = 'prompts/taint-node.md';
export const TOOL_TEMPLATE = 'prompts/taint-tool.md';

export const loadTemplate = loadPromptFile;
export const fill = fillTemplate;

/** The first JSON object in a model's answer, tolerating a code fence or words around it. */
export function jsonObjectIn(answer: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  const text = fenced ? fenced[1] : answer;
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first < 0 || last <= first) return undefined;
  try {
    const v = JSON.parse(text.slice(first, last + 1));
    return asJsonObject(v);
  } catch {
    return undefined;
  }
}

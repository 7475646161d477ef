/**
 * AutoInject (after Huang et al., ICML 2025, "On the Resilience of LLM-Based Multi-Agent
 * Collaboration with Faulty Agents"): a message of the target agent is hit with probability Pm, and
 * each unit of a hit message (a code line or a sentence) is corrupted with probability Pe, by the
 * syntactic rules or by a model's plausible-but-wrong rewrite.
 *
 * Every draw is keyed by (seed, instanceId, agent, agentCallIndex), never by the variant or the
 * arrival order: the malicious run of an instance hits the same messages whenever it runs, and its
 * control twin sees the same calls untouched, so the two are paired.
 */
import type { Corruption } from '../runlog/schema.js';
import { rngFor } from './prng.js';
import { buildSemanticPrompt, loadSemanticTemplate, parseSemanticAnswer } from './semantic-prompt.js';
import { corruptUnit } from './syntactic.js';
import type { InjectionContext, Injector } from './types.js';
import { applyRewrites, segment, type Segmentation } from './units.js';

export interface AutoInjectOptions {
  /** The agent whose messages are corrupted, or `all`. */
  target: string;
  /** Pm: the chance a message of the target is hit. */
  messageRate: number;
  /** Pe: the chance each unit of a hit message is corrupted. */
  errorRate: number;
  corruption: 'syntactic' | 'semantic';
  seed: number;
  /** Asks a model (semantic mode): the proxy's `createSemanticModel` is the usual one. */
  semantic?: (prompt: string) => Promise<string>;
  /** The semantic prompt template; prompts/autoinject-semantic.md when absent. */
  template?: string;
}

export class InjectConfigError extends Error {}

type UnitEdit = { after: string; rule: string };

function checkRate(name: string, key: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new InjectConfigError(`variants.malicious.${key}: ${name} must be between 0 and 1, got ${value}`);
}

export function createAutoInjector(options: AutoInjectOptions): Injector {
  const { target, messageRate, errorRate, seed, corruption } = options;
  checkRate('the message rate', 'message-rate', messageRate);
  checkRate('the error rate', 'error-rate', errorRate);
  if (target === 'each') throw new InjectConfigError('variants.malicious.target: "each" is run as one malicious variant per agent; give the injector one agent name or all');
  if (corruption === 'semantic' && !options.semantic) throw new InjectConfigError('variants.malicious.corruption: semantic needs a model to ask (the semantic callback)');
  const template = corruption === 'semantic' ? (options.template ?? loadSemanticTemplate()) : '';

  const key = (ctx: InjectionContext) => [seed, ctx.instanceId, ctx.agent, ctx.agentCallIndex] as const;

  function syntactic(seg: Segmentation, indexes: readonly number[], ctx: InjectionContext): Map<number, UnitEdit> {
    const edits = new Map<number, UnitEdit>();
    for (const i of indexes) {
      const edit = corruptUnit(seg.units[i].text, seg.kind, rngFor('rule', ...key(ctx), i));
      if (edit) edits.set(i, edit);
    }
    return edits;
  }

  async function semantic(content: string, seg: Segmentation, indexes: readonly number[], ctx: InjectionContext): Promise<{ edits: Map<number, UnitEdit>; fallback?: string }> {
    let answer: string;
    try {
      answer = await options.semantic!(buildSemanticPrompt(template, content, seg, indexes));
    } catch (err) {
      return { edits: syntactic(seg, indexes, ctx), fallback: `the semantic rewrite call failed: ${(err as Error).message}` };
    }
    const reading = parseSemanticAnswer(answer, seg, indexes);
    if (!reading.ok) return { edits: syntactic(seg, indexes, ctx), fallback: reading.reason };
    const edits = new Map<number, UnitEdit>();
    for (const [i, after] of reading.rewrites) edits.set(i, { after, rule: 'semantic' });
    const rest = indexes.filter((i) => !reading.rewrites.has(i));
    if (rest.length === 0) return { edits };
    for (const [i, edit] of syntactic(seg, rest, ctx)) edits.set(i, edit);
    return { edits, fallback: `${reading.problems.join(', ')}: the syntactic rules served for ${rest.length === 1 ? 'that unit' : 'those units'}` };
  }

  return {
    decide(ctx) {
      if (ctx.variant !== 'malicious') return false;
      if (target !== 'all' && ctx.agent !== target) return false;
      if (ctx.agentCallIndex < 0) return false;
      // The draw is in [0, 1): rates of 0 and 1 decide without hashing the call's key.
      if (messageRate <= 0) return false;
      if (messageRate >= 1) return true;
      return rngFor('message', ...key(ctx))() < messageRate;
    },

    async corrupt(content, ctx): Promise<Corruption | undefined> {
      const seg = segment(content);
      if (seg.units.length === 0) return undefined;
      const draw = rngFor('units', ...key(ctx));
      const indexes = seg.units.filter(() => draw() < errorRate).map((u) => u.index);
      if (indexes.length === 0) return undefined;
      const { edits, fallback } = corruption === 'semantic' ? await semantic(content, seg, indexes, ctx) : { edits: syntactic(seg, indexes, ctx), fallback: undefined };
      if (edits.size === 0) return undefined;
      const ordered = [...edits.entries()].sort((a, b) => a[0] - b[0]);
      const after = applyRewrites(content, seg.units, new Map(ordered.map(([i, e]) => [i, e.after])));
      return {
        method: 'autoinject',
        mode: corruption,
        unit: seg.kind,
        before: content,
        after,
        units: ordered.map(([index, e]) => ({ index, before: seg.units[index].text, after: e.after, rule: e.rule })),
        ...(fallback ? { fallback } : {}),
      };
    },
  };
}

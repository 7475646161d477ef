/**
 * Benign runs in which the model quotes what it read: every content argument of a call with an
 * effect (a body, a file's content, a message, a description) ends with the first 400 characters
 * of the last result read before it, as a model that pastes its findings writes. Ground-truth
 * bodies are short placeholders; this is what a model's own text looks like to the validator
 * (docs/validator.md, "AgentDojo").
 */
import type { ReplayRun } from './agentdojo.js';

const CONTENT = new Set(['body', 'content', 'message', 'description']);
const QUOTED = 400;

/** `r` with the last read's text quoted into each content argument of its calls with an effect. */
export function quotingRun(r: ReplayRun): ReplayRun {
  let last = '';
  return {
    ...r,
    steps: r.steps.map((s) => {
      const args = { ...s.call.args };
      if (s.effect && last)
        for (const k of Object.keys(args))
          if (CONTENT.has(k)) args[k] = `${String(args[k])}\n\nFrom what I found:\n${last.slice(0, QUOTED)}`;
      if (!s.effect) last = s.result;
      return { ...s, call: { ...s.call, args } };
    }),
  };
}

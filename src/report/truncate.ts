/**
 * Cutting a Markdown report to a size limit without breaking what follows: the cut falls on a
 * line boundary, any open code fence and `<details>` block is closed, and a visible notice says
 * that (and how much) was cut. GitHub refuses comment bodies over 65,536 characters.
 */

/** GitHub's limit for a comment body. */
export const GITHUB_COMMENT_LIMIT = 65_536;

interface OpenState {
  fence?: string;
  details: number;
}

function scan(line: string, state: OpenState): void {
  const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
  if (state.fence) {
    const close = fence && fence[1][0] === state.fence[0] && fence[1].length >= state.fence.length && line.trim() === fence[1];
    if (close) state.fence = undefined;
    return;
  }
  if (fence) {
    state.fence = fence[1];
    return;
  }
  state.details += (line.match(/<details>/g) ?? []).length;
  state.details -= (line.match(/<\/details>/g) ?? []).length;
  if (state.details < 0) state.details = 0;
}

function closers(state: OpenState): string[] {
  const out: string[] = [];
  if (state.fence) out.push(state.fence);
  for (let i = 0; i < state.details; i++) out.push('', '</details>');
  return out;
}

/**
 * `text` unchanged when it fits in `budget` characters; else its longest prefix of whole lines
 * that fits together with the closers and `notice(cutChars)`.
 */
export function cutMarkdown(text: string, budget: number, notice: (cutChars: number) => string): string {
  if (text.length <= budget) return text;
  const lines = text.split('\n');
  const state: OpenState = { details: 0 };
  const kept: string[] = [];
  let size = 0;
  // Room for the notice with a generous count, and for closing what may be open.
  const reserve = notice(text.length).length + 64;
  for (const line of lines) {
    const trial: OpenState = { ...state };
    scan(line, trial);
    const closing = closers(trial).join('\n').length;
    if (size + line.length + 1 + closing + reserve > budget) break;
    kept.push(line);
    size += line.length + 1;
    state.fence = trial.fence;
    state.details = trial.details;
  }
  const cut = text.length - size;
  return [...kept, ...closers(state), '', notice(cut)].join('\n');
}

/** `text` cut to `max` characters with a visible marker saying how much was cut: `{"to": "a…` + ` [+1,234 chars]`. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [+${(text.length - max).toLocaleString('en-US')} chars]`;
}

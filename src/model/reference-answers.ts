/**
 * What `model.kind: reference` answers (docs/models.md, "reference"), decided from the request
 * alone. A call is matched to the benchmark task it is about by the task's own lines (those no
 * other task shares), or by an anchor only that task has when the call quotes the task in another
 * form. It gets the benchmark's reference answer, unless it already carries an answer to that task
 * from an earlier agent: that one is passed on as written, so a corruption travels down the chain
 * unrepaired and the malicious drop is the most the corrupted agent can cost. A call about no task
 * the model knows gets a short echo that says so.
 */
import type { ReferenceAnswer } from '../benchmarks/core/suite.js';
import type { RequestFacts } from './cassette.js';

/** Shorter lines say too little to tell one task from another (`pass`, `"""`, `return x`). */
const MIN_LINE = 12;
/** A line more tasks hold than this names none of them (`from typing import List`). */
const MAX_SHARED = 2;
/** The share of a task's own lines (by length) a call must hold to be about that task. */
const MIN_SHARE = 0.5;
/** How much of the request the echo quotes. */
const ECHO_CHARS = 200;
/**
 * How much of a call is read, its start and its end (characters each): a task and the answers
 * about it are far shorter, and a pipeline's 30 MiB request must not hold saboteur's process for
 * seconds (docs/models.md, "The reference model").
 */
const READ_EACH_END = 256 * 1024;

/** The call's text as the model reads it: whole, or its start and its end. */
function readable(text: string): string {
  return text.length <= 2 * READ_EACH_END ? text : `${text.slice(0, READ_EACH_END)}\n${text.slice(-READ_EACH_END)}`;
}

function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l.length >= MIN_LINE);
}

export class ReferenceIndex {
  private readonly byLine = new Map<string, number[]>();
  private readonly weights: number[];

  constructor(readonly answers: readonly ReferenceAnswer[]) {
    answers.forEach((answer, i) => {
      for (const line of new Set(linesOf(answer.prompt))) this.byLine.set(line, [...(this.byLine.get(line) ?? []), i]);
    });
    for (const [line, tasks] of this.byLine) if (tasks.length > MAX_SHARED) this.byLine.delete(line);
    this.weights = answers.map(() => 0);
    for (const [line, tasks] of this.byLine) for (const t of tasks) this.weights[t] += line.length;
  }

  /**
   * The task a call's text is about: most of its own lines there (read as they are, then with JSON
   * string escapes undone, for a task passed on inside a JSON document), else the one task whose
   * anchor is there.
   */
  find(text: string): ReferenceAnswer | undefined {
    const byLines = this.byOwnLines(text) ?? (text.includes('\\n') ? this.byOwnLines(unescapeJson(text)) : undefined);
    if (byLines) return byLines;
    const anchored = this.answers.filter((a) => a.anchors.some((anchor) => text.includes(anchor)));
    return anchored.length === 1 ? anchored[0] : undefined;
  }

  private byOwnLines(text: string): ReferenceAnswer | undefined {
    const held = new Map<number, number>();
    for (const line of new Set(linesOf(text))) for (const t of this.byLine.get(line) ?? []) held.set(t, (held.get(t) ?? 0) + line.length);
    let best: number | undefined;
    let bestShare = 0;
    for (const [t, length] of held) {
      const share = length / this.weights[t];
      if (share > bestShare) [best, bestShare] = [t, share];
    }
    return best !== undefined && bestShare >= MIN_SHARE ? this.answers[best] : undefined;
  }
}

/** A JSON string's escapes of newline, quote, tab, slash and backslash undone, wherever they are in the text. */
function unescapeJson(text: string): string {
  return text.replace(/\\([n"t\\/])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

const FENCED = /```[^\n`]*\n([\s\S]*?)```/g;

/** The last fenced block of the call that answers the task: it holds an anchor and lines that are not the task's own. */
export function carriedAnswer(text: string, reference: ReferenceAnswer): string | undefined {
  const own = new Set(linesOf(reference.prompt));
  let last: string | undefined;
  for (const m of text.matchAll(FENCED)) {
    const block = m[1];
    if (reference.anchors.some((a) => block.includes(a)) && linesOf(block).some((l) => !own.has(l))) last = m[0];
  }
  return last;
}

export type ReferenceReply = { kind: 'reference' | 'passed-on'; taskId: string; content: string } | { kind: 'echo'; content: string };

/** The reply to one call. */
export function referenceReply(index: ReferenceIndex, facts: RequestFacts): ReferenceReply {
  const text = readable(facts.text);
  const reference = index.find(text);
  if (!reference) {
    const asked = facts.lastUser
      .slice(0, 4 * ECHO_CHARS)
      .replace(/\s+/g, ' ')
      .trim();
    const quoted = asked.length > ECHO_CHARS ? `${asked.slice(0, ECHO_CHARS)}…` : asked;
    return {
      kind: 'echo',
      content: `saboteur's reference model knows no benchmark task in this request, so it has no answer to give. It was asked: ${JSON.stringify(quoted)}`,
    };
  }
  if (facts.endpoint === 'completions' && text.trimEnd().endsWith(reference.prompt.trimEnd()))
    return { kind: 'reference', taskId: reference.taskId, content: reference.continuation };
  const carried = carriedAnswer(text, reference);
  if (carried) return { kind: 'passed-on', taskId: reference.taskId, content: carried };
  return { kind: 'reference', taskId: reference.taskId, content: reference.answer };
}

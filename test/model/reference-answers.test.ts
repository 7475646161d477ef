/**
 * What `model.kind: reference` answers, decided from the request alone (pure): which task a call is
 * about, the reference answer, an earlier agent's answer passed on as written, the completions
 * continuation, and the echo for a call about no task. On the demo's HumanEval-format problems.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ReferenceIndex, carriedAnswer, referenceReply } from '../../src/model/reference-answers.js';
import { requestFacts } from '../../src/model/cassette.js';
import type { ReferenceAnswer } from '../../src/benchmarks/core/suite.js';
import { humanEvalSuite } from '../../src/benchmarks/humaneval-suite.js';
import { silentLog } from '../../src/util/log.js';

interface Problem {
  task_id: string;
  prompt: string;
  entry_point: string;
  canonical_solution: string;
}
const problems = readFileSync('fixtures/demo/problems.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Problem);

function reference(p: Problem): ReferenceAnswer {
  return {
    taskId: p.task_id,
    prompt: p.prompt,
    anchors: [`def ${p.entry_point}(`],
    answer: `\`\`\`python\n${(p.prompt + p.canonical_solution).trimEnd()}\n\`\`\``,
    continuation: p.canonical_solution,
  };
}
const index = new ReferenceIndex(problems.map(reference));
const chat = (...messages: { role: string; content: string }[]) => requestFacts({ messages }, 'chat.completions', undefined);

describe('which task a call is about', () => {
  it.each(problems.map((p) => [p.task_id, p] as const))('%s: found from its prompt inside a longer request', (_id, p) => {
    const text = `You are the coder.\nImplement this:\n\n${p.prompt}\nAnswer in one block.`;
    expect(index.find(text)?.taskId).toBe(p.task_id);
  });

  it('finds the task when the prompt is re-indented or its lines re-spaced', () => {
    const p = problems[3];
    const reshaped = p.prompt
      .split('\n')
      .map((l) => `\t${l.trim().replace(/ /g, '  ')}`)
      .join('\n');
    expect(index.find(reshaped)?.taskId).toBe(p.task_id);
  });

  it('finds the task passed on inside a JSON document (its lines one escaped string)', () => {
    const p = problems[5];
    expect(index.find(JSON.stringify({ task: p.prompt, note: 'see "spec"' }))?.taskId).toBe(p.task_id);
  });

  it('falls back on the one anchor held when no line of the task is there as a line', () => {
    const p = problems[6];
    expect(index.find(`Fix it: ${p.prompt.replace(/\n/g, ' ')}`)?.taskId).toBe(p.task_id);
  });

  it('names no task when two anchors are held and no prompt, or nothing of any task is there', () => {
    expect(index.find(`compare def ${problems[0].entry_point}( with def ${problems[1].entry_point}(`)).toBeUndefined();
    expect(index.find('Write a haiku about the sea.')).toBeUndefined();
  });

  it('a line many tasks share names none of them', () => {
    const shared = 'from typing import List, Optional, Tuple';
    const refs = [0, 1, 2].map((i) => ({ ...reference(problems[i]), prompt: `${shared}\n${problems[i].prompt}` }));
    expect(new ReferenceIndex(refs).find(`${shared}\nplease help`)).toBeUndefined();
  });
});

describe('the reply', () => {
  const p = problems[2];
  const ref = reference(p);

  it('is the reference solution, whole, in one python block', () => {
    const reply = referenceReply(index, chat({ role: 'user', content: `Implement:\n\`\`\`python\n${p.prompt}\`\`\`` }));
    expect(reply).toEqual({ kind: 'reference', taskId: p.task_id, content: ref.answer });
  });

  it("passes an earlier agent's implementation on as written, corrupted or not", () => {
    const broken = `\`\`\`python\n${p.prompt}    return []  # planted\n\`\`\``;
    const reply = referenceReply(
      index,
      chat({ role: 'user', content: `Review this against the task:\n\`\`\`python\n${p.prompt}\`\`\`\n\nImplementation:\n${broken}` }),
    );
    expect(reply).toEqual({ kind: 'passed-on', taskId: p.task_id, content: broken });
  });

  it('does not take the task quoted back in a block for an answer', () => {
    expect(carriedAnswer(`\`\`\`python\n${p.prompt}\`\`\``, ref)).toBeUndefined();
    expect(carriedAnswer('```python\nprint("unrelated")\n```', ref)).toBeUndefined();
  });

  it('continues a completions prompt that ends with the task', () => {
    const facts = requestFacts({ prompt: `# Python\n${p.prompt}` }, 'completions', undefined);
    expect(referenceReply(index, facts)).toEqual({ kind: 'reference', taskId: p.task_id, content: p.canonical_solution });
  });

  it('reads a long call at its start and its end: the task found there, whatever lies between', () => {
    const filler = 'Context line that names no task at all.\n'.repeat(100_000);
    const ask = `Implement:\n\`\`\`python\n${p.prompt}\`\`\``;
    expect(referenceReply(index, chat({ role: 'user', content: `${ask}\n${filler}` }))).toMatchObject({
      kind: 'reference',
      taskId: p.task_id,
    });
    expect(referenceReply(index, chat({ role: 'user', content: `${filler}\n${ask}` }))).toMatchObject({
      kind: 'reference',
      taskId: p.task_id,
    });
    // The middle of a long call is not read: the bound that keeps a hostile 30 MiB request cheap.
    expect(referenceReply(index, chat({ role: 'user', content: `${filler}\n${ask}\n${filler}` })).kind).toBe('echo');
  });

  it('echoes a call about no task, saying so, the quote bounded', () => {
    const reply = referenceReply(index, chat({ role: 'user', content: `Summarize ${'x'.repeat(5000)}` }));
    expect(reply.kind).toBe('echo');
    expect(reply.content).toMatch(/^saboteur's reference model knows no benchmark task in this request/);
    expect(reply.content.length).toBeLessThan(400);
  });
});

describe('the HumanEval suite', () => {
  it('gives each task its reference answer: the prompt, the canonical solution, the entry point as anchor', async () => {
    const suite = await humanEvalSuite(
      { path: 'fixtures/demo/problems.jsonl', timeoutMs: 10_000 },
      { seed: 1, log: silentLog, isolation: undefined as never, cacheDir: '/nonexistent' },
    );
    const first = suite.instances[0].control!;
    const p = problems.find((q) => q.task_id === first.id)!;
    expect(suite.reference?.(first)).toEqual(reference(p));
  });
});

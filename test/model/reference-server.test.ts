/**
 * `model.kind: reference` over real HTTP with the real `openai` client: chat completions (streamed
 * or not), the Responses API and completions get the benchmark's own answers; a call without the
 * server's key is refused; and on the whole of HumanEval every task is told from the others.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { startModel, type ModelEndpoint } from '../../src/model/index.js';
import { memoryLog } from '../../src/util/log.js';
import { humanEvalSuite } from '../../src/benchmarks/humaneval-suite.js';
import { referenceAnswers, type BenchmarkSuite } from '../../src/benchmarks/core/suite.js';
import { HUMANEVAL_DATA_PATH } from '../../src/benchmarks/humaneval/index.js';
import { ReferenceIndex } from '../../src/model/reference-answers.js';
import { modelSettings } from '../helpers/model-settings.js';
import { requireData } from '../helpers/benchmark-data.js';

const suiteOf = (file: string, limit?: number) =>
  humanEvalSuite(
    { path: file, timeoutMs: 10_000, limit },
    { seed: 1, log: memoryLog(), isolation: undefined as never, cacheDir: '/nonexistent' },
  );

describe('the reference model server', () => {
  const log = memoryLog();
  let endpoint: ModelEndpoint;
  let suite: BenchmarkSuite;
  let client: OpenAI;
  beforeAll(async () => {
    suite = await suiteOf('fixtures/demo/problems.jsonl');
    endpoint = await startModel(modelSettings({ kind: 'reference', model: undefined }), log, { references: referenceAnswers([suite]) });
    client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0 });
  });
  afterAll(() => endpoint.close());
  const task = () => suite.instances[1].control!;

  it('answers a chat completion with the reference solution, streamed or not', async () => {
    const messages = [
      { role: 'system' as const, content: 'You are the coder.' },
      { role: 'user' as const, content: `Implement \`${task().entryPoint}\`:\n\n${task().prompt}` },
    ];
    const plain = await client.chat.completions.create({ model: endpoint.model!, messages });
    const want = suite.reference!(task())!.answer;
    expect(plain.choices[0].message.content).toBe(want);
    expect(plain.model).toBe('saboteur-reference');
    const stream = await client.chat.completions.create({ model: endpoint.model!, messages, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(want);
  });

  it('answers the Responses API and continues a completions prompt', async () => {
    const response = await client.responses.create({ model: endpoint.model!, instructions: 'You write Python.', input: task().prompt });
    expect(response.output_text).toBe(suite.reference!(task())!.answer);
    const completion = await client.completions.create({ model: endpoint.model!, prompt: task().prompt, max_tokens: 256 });
    expect(completion.choices[0].text).toBe(suite.reference!(task())!.continuation);
  });

  it('echoes a call about no task and counts what it did when it stops', async () => {
    const res = await client.chat.completions.create({ model: endpoint.model!, messages: [{ role: 'user', content: 'Tell me a joke.' }] });
    expect(res.choices[0].message.content).toMatch(
      /knows no benchmark task in this request, so it has no answer to give\. It was asked: "Tell me a joke\."/,
    );
    const other = await startModel(modelSettings({ kind: 'reference', model: undefined }), log, { references: referenceAnswers([suite]) });
    await other.close();
    expect(log.lines.join('\n')).toMatch(
      /reference: 0 calls answered with a reference answer, 0 passed an earlier agent's answer on, 0 echoed/,
    );
  });

  it('refuses a call without its key', async () => {
    const stranger = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: 'not-the-key', maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toMatchObject({ status: 401 });
  });
});

const dataDir = process.env.SABOTEUR_DATA_DIR;
const humanEvalFile = dataDir ? path.resolve(dataDir, HUMANEVAL_DATA_PATH) : '';
const hasData = requireData(
  existsSync(humanEvalFile),
  `reference-server.test: no HumanEval under ${dataDir ?? '(SABOTEUR_DATA_DIR is not set)'}`,
);

(hasData ? describe : describe.skip)('on the whole of HumanEval', () => {
  it('every task is found from its own prompt, quoted as the task or as one JSON string, and from no other task', async () => {
    const suite = await suiteOf(humanEvalFile, 164);
    const answers = referenceAnswers([suite]);
    expect(answers).toHaveLength(164);
    const index = new ReferenceIndex(answers);
    const wrong: string[] = [];
    for (const a of answers) {
      if (index.find(`Implement this task:\n\n${a.prompt}\n\nAnswer with code.`)?.taskId !== a.taskId) wrong.push(`${a.taskId} (prompt)`);
      if (index.find(JSON.stringify({ task: a.prompt }))?.taskId !== a.taskId) wrong.push(`${a.taskId} (JSON)`);
      if (index.find(a.answer)?.taskId !== a.taskId) wrong.push(`${a.taskId} (its own answer)`);
    }
    expect(wrong).toEqual([]);
  });
});

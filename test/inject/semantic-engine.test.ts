/**
 * The `semantic` corruption mode against a real inference engine: llama.cpp through node-llama-cpp
 * (`model.kind: embedded`) on the tiny random-weight model fixtures/models/tiny-llama.mjs writes.
 * Its answers are noise, so what is checked is the plumbing: the prompt the engine is sent, the
 * strict reading of its answer, the fallback to the logic-edit rules when the rewrite is unusable,
 * and that all of it is recorded on the call in the trace, through the proxy as a pipeline sees it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import type { Config } from '../../src/config/load.js';
import { createAutoInjector } from '../../src/inject/autoinject.js';
import { buildSemanticPrompt, loadSemanticTemplate, parseSemanticAnswer } from '../../src/inject/semantic-prompt.js';
import { segment } from '../../src/inject/units.js';
import { startModel, type ModelEndpoint } from '../../src/model/index.js';
import { createSemanticModel, InvocationRegistry, startProxy, type SemanticModel } from '../../src/proxy/index.js';
import { memoryLog } from '../../src/util/log.js';
import { writeTinyLlama } from '../../fixtures/models/tiny-llama.mjs';

let dir: string;
let ep: ModelEndpoint;
let model: SemanticModel;
/** Every prompt the engine was sent for a rewrite, and what it answered. */
const asked: { prompt: string; answer: string }[] = [];
const recording = async (prompt: string): Promise<string> => {
  const answer = await model(prompt);
  asked.push({ prompt, answer });
  return answer;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-semantic-'));
  const gguf = path.join(dir, 'tiny.gguf');
  writeTinyLlama(gguf, { seed: 1 });
  const config: Config['model'] = {
    kind: 'embedded',
    model: gguf,
    args: ['--threads', '1'],
    env: {},
    startupTimeoutMs: 120_000,
    reuse: false,
    record: false,
    sampling: { temperature: 0.7, seed: 7, maxTokens: 24 },
  };
  ep = await startModel(config, memoryLog(), { configDir: dir, nvidiaSmi: path.join(dir, 'no-nvidia-smi') });
  model = createSemanticModel({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, model: ep.model });
  // Loading takes seconds alone and minutes on a busy machine.
}, 400_000);

afterAll(async () => {
  model?.close();
  await ep?.close();
  await rm(dir, { recursive: true, force: true });
});

const BODY = '    if n < 2:\n        return n\n    total = 0\n    for k in range(n):\n        total += k * 2\n    return total\n';
const ctx = { instanceId: 'HumanEval/0', variant: 'malicious' as const, agent: 'coder', agentCallIndex: 0 };
const LOGIC_RULES =
  /^(comparison|equality|arithmetic|boolean|logic|negation|none-check|integer|index|off-by-one|min-max|loop-control|case|string-end|negated-condition|skipped-first|swapped-parameters|renamed-parameter|dropped-statement)$/;

describe('semantic mode on the real engine', () => {
  test('the engine is sent the numbered units and the drawn ones; its noise is refused and the logic-edit rules serve every drawn line', async () => {
    asked.length = 0;
    const inj = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'semantic', seed: 3, semantic: recording });
    const { hit, corruption, delivered } = await inj.corrupt!({ content: BODY, toolCalls: [] }, ctx);

    // The prompt: the shipped template around the whole message, its six lines numbered, all six asked for.
    const units = segment(BODY).units.map((u) => ({ index: u.index, text: u.text, kind: u.kind }));
    expect(units).toHaveLength(6);
    expect(asked).toHaveLength(1);
    expect(asked[0].prompt).toBe(buildSemanticPrompt(loadSemanticTemplate(), BODY, units, [0, 1, 2, 3, 4, 5]));
    expect(asked[0].prompt).toContain('[3] (code line) for k in range(n):');

    // The answer is read strictly: a random model writes no {"units": {...}} object.
    const reading = parseSemanticAnswer(asked[0].answer, units, [0, 1, 2, 3, 4, 5]);
    expect(reading.ok).toBe(false);
    expect(corruption!.fallback).toBe((reading as { reason: string }).reason);
    expect(corruption!.fallback).toMatch(/^the model's answer (is not JSON|has no "units" object|rewrote none)/);

    // Fallback: every drawn line still changes, by a named logic-edit rule, and indentation stays.
    expect(hit).toMatchObject({ mode: 'semantic', units: 6, drawn: 6, changed: 6 });
    expect(hit.unchanged).toBeUndefined();
    expect(corruption!.units.map((u) => u.rule).every((r) => LOGIC_RULES.test(r))).toBe(true);
    expect(delivered.content).toBe(corruption!.after);
    expect(delivered.content.split('\n').map((l) => /^\s*/.exec(l)![0])).toEqual(BODY.split('\n').map((l) => /^\s*/.exec(l)![0]));
  }, 180_000);

  test('a call that cannot reach the engine falls back the same way, and the reason names the failure', async () => {
    const gone = createSemanticModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' });
    try {
      const inj = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'semantic', seed: 3, semantic: gone });
      const { hit, corruption } = await inj.corrupt!({ content: BODY, toolCalls: [] }, ctx);
      expect(corruption!.fallback).toMatch(/^the semantic rewrite call failed: /);
      expect(hit.changed).toBe(6);
    } finally {
      gone.close();
    }
  });

  test("through the proxy: the pipeline gets the corrupted answer, the trace keeps before, after, the rules and why the rewrite fell back; the rewrite call is not the pipeline's", async () => {
    asked.length = 0;
    const registry = new InvocationRegistry();
    const injector = createAutoInjector({
      target: 'coder',
      messageRate: 1,
      errorRate: 1,
      corruption: 'semantic',
      seed: 5,
      semantic: recording,
    });
    const proxy = await startProxy({
      upstream: { baseUrl: ep.baseUrl, apiKey: ep.apiKey },
      agents: [],
      registry,
      injector,
      log: memoryLog(),
    });
    const inv = registry.open({ instanceId: 'HumanEval/1', benchmark: 'humaneval', variant: 'malicious' });
    try {
      const coder = new OpenAI({ baseURL: proxy.baseUrl.replace(/\/v1$/, '/agents/coder/v1'), apiKey: inv.key, maxRetries: 0 });
      const answer = await coder.chat.completions.create({
        model: ep.model!,
        max_tokens: 24,
        temperature: 0.7,
        seed: 7,
        messages: [{ role: 'user', content: 'Write 1 2 3.' }],
      });
      const calls = registry.close(inv.key);
      // Only the pipeline's own call is attributed; the rewrite went straight to the engine.
      expect(calls).toHaveLength(1);
      const [call] = calls;
      expect(call.agent).toBe('coder');
      expect(call.hit).toMatchObject({ mode: 'semantic' });
      if (call.hit!.units === 0)
        throw new Error(
          `the tiny model answered nothing to corrupt: ${JSON.stringify(call.corruption?.before ?? answer.choices[0].message.content)}`,
        );
      expect(asked).toHaveLength(1);
      expect(asked[0].prompt).toContain(call.corruption!.before);
      expect(call.corruption).toMatchObject({ method: 'autoinject', mode: 'semantic' });
      expect(call.corruption!.fallback).toMatch(/^the model's answer /);
      expect(answer.choices[0].message.content).toBe(call.corruption!.after);
      expect(call.response?.content).toBe(call.corruption!.after);
      expect(call.corruption!.after).not.toBe(call.corruption!.before);
      for (const u of call.corruption!.units) expect(u.rule).not.toBe('semantic');
    } finally {
      await proxy.close();
    }
  }, 180_000);
});

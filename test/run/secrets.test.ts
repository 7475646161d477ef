/**
 * The run's secrets, pure: the names a config declares secret, the redactor built from them and
 * the job's environment, and the progress lines passed through it (a pipeline's cause is its own
 * words, shown as they come).
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import { declaredSecretNames, runRedactor } from '../../src/run/secrets.js';
import { lineProgress, redactingProgress } from '../../src/run/progress.js';

const config = parseConfig(
  `model: { kind: external, base-url: 'http://gpu-box:8000/v1', api-key-env: LLM_CRED }
judge: { model: judge-model, base-url: 'https://judge.example/v1', api-key-env: JUDGE_CRED }
pipeline:
  run: node agents.mjs
  secrets: [WIDGET_CODE, LLM_ORG]
benchmarks:
  humaneval: { path: problems.jsonl }
`,
  path.resolve('fixtures/demo/secrets-test.yml'),
);

describe("a run's secrets", () => {
  it('are those the config declares (pipeline.secrets, the model and judge keys), whatever they are called', () => {
    expect(declaredSecretNames(config)).toEqual(['WIDGET_CODE', 'LLM_ORG', 'LLM_CRED', 'JUDGE_CRED']);
  });

  it('are redacted, with the job secrets and the credential shapes, and told to the registrar once each', () => {
    const told: string[] = [];
    const env = {
      WIDGET_CODE: 'plum-orchard-7781-velvet',
      LLM_CRED: 'llm-cred-0000-1111',
      JUDGE_CRED: 'judge-cred-2222-3333',
      DEPLOY_TOKEN: 'deploy-4444-5555',
      COLOR: 'midnight-blue-9999',
    };
    const r = runRedactor(config, env, (v) => told.push(v));
    expect(r.text(`${Object.values(env).join(' ')} ghp_${'a1B2'.repeat(9)}`)).toBe(
      '[redacted] [redacted] [redacted] [redacted] midnight-blue-9999 [redacted: a known token format]',
    );
    expect(told).toEqual(expect.arrayContaining(Object.values(env).slice(0, 4)));
    expect(told).not.toContain('midnight-blue-9999');
    expect(new Set(told).size).toBe(told.length);
  });
});

describe('redactingProgress', () => {
  it('redacts the label and the cause of each line, and passes start and finish through', () => {
    const lines: string[] = [];
    const progress = redactingProgress(
      lineProgress((l) => lines.push(l)),
      (t) => t.replaceAll('hunter2-hunter2', '[redacted]'),
    );
    progress.start(2);
    progress.done({ label: 'humaneval T/hunter2-hunter2 control', outcome: 'error', ms: 5, reason: 'crash (cause: hunter2-hunter2)' });
    progress.done({ label: 'humaneval T/1 control', outcome: 'passed', ms: 5 });
    progress.finish();
    expect(lines).toEqual([
      'progress: 0/2 instance runs',
      '  humaneval T/[redacted] control: error: crash (cause: [redacted])',
      expect.stringMatching(/^progress: 1\/2 /),
      expect.stringMatching(/^progress: 2\/2 /),
    ]);
  });
});

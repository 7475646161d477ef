import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { loadConfig, parseConfig, ConfigError } from '../../src/config/load.js';
import { parseDuration } from '../../src/util/duration.js';

const minimal = `model:\n  kind: replay\n  cassette: c.jsonl\npipeline:\n  run: node p.mjs\n`;

function errorOf(text: string): string {
  try {
    parseConfig(text, 'saboteur.yml');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('parses the full example config, with defaults and camelCase keys', async () => {
    const config = await loadConfig('fixtures/configs/full.yml');
    expect(config.model.kind).toBe('vllm');
    expect(config.model.startupTimeoutMs).toBe(15 * 60 * 1000);
    expect(config.pipeline.timeoutMs).toBe(120_000);
    expect(config.pipeline.agents.map((a) => a.name)).toEqual(['planner', 'coder']);
    expect(config.variants.malicious).toEqual({
      target: 'coder',
      method: 'autoinject',
      messageRate: 0.2,
      errorRate: 0.6,
      corruption: 'logic-edit',
      agenticTask: 'harmful',
    });
    expect(config.gate.regression).toEqual({ maxIncrease: 0.03, significance: 0.05 });
    expect(config.benchmarks.asb?.attacks).toEqual(['dpi', 'opi']);
    expect(config.policy).toBe(path.resolve('fixtures/configs/.saboteur/policy.yml'));
    expect(config.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fills defaults for a minimal config and resolves paths against the config file', () => {
    const config = parseConfig(minimal, '/repo/ci/saboteur.yml');
    expect(config.model.cassette).toBe('/repo/ci/c.jsonl');
    expect(config.pipeline.concurrency).toBe(16);
    expect(config.sample.seed).toBe(20260509);
    expect(config.variants.malicious.messageRate).toBe(0.2);
    expect(config.benchmarks.humaneval?.timeoutMs).toBe(3000);
    expect(config.pipeline.timeoutMs).toBe(120_000);
    expect(config.pipeline.readyTimeoutMs).toBe(60_000);
    expect(config.model.startupTimeoutMs).toBe(900_000);
    expect(parseConfig(`${minimal}benchmarks:\n  humaneval: { limit: 3 }\n`, 's.yml').benchmarks.humaneval?.timeoutMs).toBe(3000);
    expect(config.defenses).toEqual(['none']);
  });

  it('reads pipeline.limits, with defaults a CI runner survives, and names a bad cap with an example', () => {
    expect(parseConfig(minimal, 's.yml').pipeline.limits).toEqual({ diskMb: 256, processes: 512 });
    const set = parseConfig(`${minimal}  limits: { disk-mb: 1024, processes: 64 }\n`, 's.yml');
    expect(set.pipeline.limits).toEqual({ diskMb: 1024, processes: 64 });
    expect(parseConfig(`${minimal}  limits: { processes: 64 }\n`, 's.yml').pipeline.limits).toEqual({ diskMb: 256, processes: 64 });
    const small = errorOf(`${minimal}  limits: { disk-mb: 8 }\n`);
    expect(small).toContain(
      "pipeline.limits.disk-mb: expected a whole number from 16 to 1048576: the MiB each run's HOME, TMPDIR and /tmp hold",
    );
    expect(small).toContain('a valid example:\n    pipeline:\n      limits:\n        disk-mb: 1024');
    expect(errorOf(`${minimal}  limits: { processes: many }\n`)).toContain(
      'pipeline.limits.processes: expected a whole number from 16 to 4194304: the processes and threads each run may have at once',
    );
    expect(errorOf(`${minimal}  limits: { disk-mb: 1.5 }\n`)).toContain('pipeline.limits.disk-mb: expected a whole number');
    expect(errorOf(`${minimal}  limits: { disk: 100 }\n`)).toContain('pipeline.limits: unknown key "disk"');
  });

  it("reads the graders' judge apart from the model under test; absent, the served model judges", () => {
    expect(parseConfig(minimal, 's.yml').judge).toBeUndefined();
    const c = parseConfig(`${minimal}judge:\n  model: judge-70b\n  base-url: http://judge:8000/v1\n  api-key-env: JUDGE_KEY\n`, 's.yml');
    expect(c.judge).toEqual({ model: 'judge-70b', baseUrl: 'http://judge:8000/v1', apiKeyEnv: 'JUDGE_KEY' });
    const message = errorOf(`${minimal}judge:\n  modle: x\n`);
    expect(message).toContain('judge: unknown key "modle"');
    expect(message).toContain('model: Qwen/Qwen2.5-72B-Instruct');
    expect(errorOf(`${minimal}judge:\n  api-key-env: judge-key\n`)).toContain('judge.api-key-env');
  });

  it('rejects unknown keys, naming the key and showing a valid example', () => {
    const message = errorOf(`${minimal}variants:\n  malicious:\n    mesage-rate: 0.3\n`);
    expect(message).toContain('saboteur.yml: variants.malicious: unknown key "mesage-rate"');
    expect(message).toContain('a valid example:');
    expect(message).toContain('message-rate: 0.2');
  });

  it('names the key of a wrong value and shows its example', () => {
    const message = errorOf(`${minimal}variants:\n  malicious:\n    error-rate: 1.5\n`);
    expect(message).toContain('variants.malicious.error-rate');
    expect(message).toContain('error-rate: 0.6   # between 0 and 1');
  });

  it('takes the corruption modes and refuses the old ambiguous name with what to write instead', () => {
    for (const mode of ['logic-edit', 'syntax-error', 'semantic'] as const) {
      expect(parseConfig(`${minimal}variants:\n  malicious:\n    corruption: ${mode}\n`, 's.yml').variants.malicious.corruption).toBe(mode);
    }
    const old = errorOf(`${minimal}variants:\n  malicious:\n    corruption: syntactic\n`);
    expect(old).toContain('variants.malicious.corruption: "syntactic" is no longer a mode: write logic-edit');
    expect(old).toContain('or syntax-error for real syntax errors');
    expect(old).toContain('corruption: logic-edit   # logic-edit (edits that still parse)');
    expect(errorOf(`${minimal}variants:\n  malicious:\n    corruption: typo\n`)).toContain(
      '"typo" is not a corruption mode (logic-edit, syntax-error or semantic)',
    );
  });

  it('takes what each gate check judges, and names the key of a wrong one with its example', () => {
    const gate = parseConfig(
      `${minimal}gate:\n  malicious-drop: { max: 0.1, on: lower-bound }\n  asr: { max: 0.2 }\n  tcr: { min: 0.8, on: upper-bound }\n`,
      's.yml',
    ).gate;
    expect(gate).toEqual({
      maliciousDrop: { max: 0.1, on: 'lower-bound' },
      asr: { max: 0.2, defense: 'taint' },
      tcr: { min: 0.8, defense: 'taint', on: 'upper-bound' },
      regression: undefined,
      coverage: { maxLoss: 0.25 },
    });
    for (const key of ['malicious-drop: { max: 0.1', 'asr: { max: 0.2', 'tcr: { min: 0.8']) {
      const message = errorOf(`${minimal}gate:\n  ${key}, on: median }\n`);
      const check = key.split(':')[0];
      expect(message).toContain(`saboteur.yml: gate.${check}.on: "median" is not what a check judges (estimate, lower-bound, upper-bound)`);
      expect(message).toMatch(
        new RegExp(
          `a valid example:\\n    gate:\\n      ${check}: \\{ .*on: (lower|upper)-bound \\}   # estimate \\| lower-bound \\| upper-bound`,
        ),
      );
    }
  });

  it('runs the benign twins under a saboteur on agentic benchmarks unless told otherwise', () => {
    const task = (malicious: string) =>
      parseConfig(`${minimal}variants:\n  malicious: ${malicious}\n`, 's.yml').variants.malicious.agenticTask;
    expect(task('{ method: autoinject }')).toBe('harmful');
    expect(task('{ method: autotransform }')).toBe('benign');
    expect(task('{ method: insider }')).toBe('benign');
    expect(task('{ method: autoinject, agentic-task: benign }')).toBe('benign');
    expect(task('{ method: insider, agentic-task: harmful }')).toBe('harmful');
    expect(errorOf(`${minimal}variants:\n  malicious: { agentic-task: both }\n`)).toContain('variants.malicious.agentic-task');
  });

  it('rejects an unknown model kind with the list of kinds', () => {
    const message = errorOf(`model:\n  kind: vlm\npipeline:\n  run: x\n`);
    expect(message).toContain('model.kind');
    expect(message).toContain('vllm | sglang');
  });

  it('checks keys that depend on each other', () => {
    expect(errorOf(`model:\n  kind: replay\npipeline:\n  run: x\n`)).toContain('model.cassette: model.kind replay needs a cassette file');
    expect(errorOf(`model:\n  kind: external\npipeline:\n  run: x\n`)).toContain('model.base-url');
    expect(errorOf(`model:\n  kind: replay\n  cassette: c\npipeline:\n  mode: http\n`)).toContain('pipeline.url');
  });

  it('takes {port} in http mode only where pipeline.serve gives it, for one service per variant', () => {
    const http = (serve: string, url: string) =>
      `model:\n  kind: replay\n  cassette: c\npipeline:\n  mode: http\n  serve: "${serve}"\n  url: ${url}\nbenchmarks:\n  humaneval: {}\n`;
    const ok = parseConfig(http('python serve.py --port {port}', 'http://127.0.0.1:{port}/run'), 'saboteur.yml');
    expect(ok.pipeline.url).toBe('http://127.0.0.1:{port}/run');
    expect(errorOf(http('python serve.py --port 9000', 'http://127.0.0.1:{port}/run'))).toContain(
      'pipeline.url: {port} stands for the port saboteur gives each variant',
    );
    expect(errorOf(http('python serve.py --port {port}', 'http://127.0.0.1:9000/run'))).toContain(
      'pipeline.url: pipeline.serve takes {port} (one service per variant): write it in url too',
    );
    expect(errorOf(http('x', 'not a url'))).toContain('pipeline.url: expected a URL such as http://127.0.0.1:9000/run');
  });

  it('rejects bad durations and bad YAML clearly', () => {
    expect(errorOf(`${minimal.replace('run: node p.mjs', 'run: node p.mjs\n  timeout: soon')}`)).toContain(
      'pipeline.timeout: "soon" is not a duration',
    );
    expect(errorOf('model: [')).toMatch(/not valid YAML/);
    expect(errorOf('- a\n- b\n')).toContain('must be a YAML mapping');
  });

  it('hostile YAML is a config error naming the file: nesting 100,000 deep, an alias bomb, a deep value under a key', () => {
    expect(errorOf(`model: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)).toMatch(/^saboteur\.yml: /);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
      'model: *i',
      '',
    ].join('\n');
    expect(errorOf(bomb)).toMatch(/^saboteur\.yml: /);
    expect(errorOf(`${minimal}\npipeline_extra: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}\n`)).toMatch(/^saboteur\.yml: /);
  });

  it('says which file it could not read', async () => {
    await expect(loadConfig('no/such/saboteur.yml')).rejects.toThrow('no/such/saboteur.yml: cannot read the config (ENOENT: no such file)');
  });

  it('parses durations', () => {
    expect(parseDuration('120s')).toBe(120_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration(3)).toBe(3000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('fast')).toBeUndefined();
  });
});

describe("gate.figures and the graders' corrections", () => {
  it("bounds one benchmark's figure by metric id, and names a bad id or bound with an example", () => {
    const config = parseConfig(
      `${minimal}gate:\n  figures:\n    agentharm/harm-score:none: { max: 0.2 }\n    agentharm/refusal:none: { min: 0.5 }\n`,
      's.yml',
    );
    expect(config.gate.figures).toEqual({ 'agentharm/harm-score:none': { max: 0.2 }, 'agentharm/refusal:none': { min: 0.5 } });
    expect(errorOf(`${minimal}gate:\n  figures:\n    harm-score:none: { max: 0.2 }\n`)).toMatch(
      /gate\.figures[\s\S]*metric id of one benchmark[\s\S]*agentharm\/harm-score:taint/,
    );
    expect(errorOf(`${minimal}gate:\n  figures:\n    redcode/harm-score:none: { max: 0.2 }\n`)).toMatch(/metric id of one benchmark/);
    expect(errorOf(`${minimal}gate:\n  figures:\n    agentharm/asr:none: { max: 0.2, min: 0.1 }\n`)).toMatch(/exactly one of max and min/);
  });

  it('takes the named corrections of AgentHarm and ASB, and refuses unknown ones', () => {
    const config = parseConfig(
      `${minimal}benchmarks:\n  agentharm: { corrections: [evident-intent, lenient-judge] }\n  asb: { corrections: [answer-text] }\n`,
      's.yml',
    );
    expect(config.benchmarks.agentharm?.corrections).toEqual(['evident-intent', 'lenient-judge']);
    expect(config.benchmarks.asb?.corrections).toEqual(['answer-text']);
    expect(errorOf(`${minimal}benchmarks:\n  agentharm: { corrections: [kinder] }\n`)).toMatch(/benchmarks\.agentharm\.corrections/);
  });
});

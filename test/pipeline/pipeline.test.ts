/**
 * The pipeline runner against real subprocesses and real HTTP services (fixtures/pipelines).
 */
import { describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryLog } from '../../src/util/log.js';
import type { Task } from '../../src/benchmarks/core/types.js';
import {
  createPipelineRunner,
  isProcessAlive,
  isSecretName,
  parseStdoutOutput,
  parseOutputFile,
  planPassThrough,
  validateOutput,
  type PipelineConfig,
  type PipelineInput,
} from '../../src/pipeline/index.js';
import { TailBuffer } from '../../src/pipeline/output.js';
import { procStatFields } from '../../src/pipeline/process-group.js';
import { eventually, processesWithEnv } from '../helpers/processes.js';
import { ownedPipelineRuns } from '../helpers/pipeline-runs.js';
import { reservePort } from '../../src/model/servers/lifecycle.js';
import { probeFence, type Fence } from '../../src/pipeline/fence.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => `node fixtures/pipelines/${name}`;

function config(over: Partial<PipelineConfig> = {}): PipelineConfig {
  return { mode: 'process', readyTimeoutMs: 20_000, cwd: repoRoot, timeoutMs: 30_000, concurrency: 4, env: [], agents: [], ...over };
}

const task = (over: Partial<Task> = {}): Task => ({
  id: 'HumanEval/0',
  benchmark: 'humaneval',
  kind: 'code',
  prompt: 'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n',
  entryPoint: 'add',
  metadata: {},
  ...over,
});

const input = (over: Partial<PipelineInput> = {}): PipelineInput => ({
  task: task(),
  apiKey: 'sab-inv-0123',
  proxyBaseUrl: 'http://127.0.0.1:9/v1',
  model: 'test-model',
  variant: 'control',
  ...over,
});

/** A host environment full of the secrets a GitHub job carries. */
const hostEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME ?? '/root',
  LANG: 'C.UTF-8',
  GITHUB_TOKEN: 'ghs_secret',
  GH_TOKEN: 'gho_secret',
  'INPUT_GITHUB-TOKEN': 'ghs_input_secret',
  INPUT_MODEL: 'qwen',
  ACTIONS_RUNTIME_TOKEN: 'runtime-secret',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions',
  RUNNER_TOKEN: 'runner-secret',
  HF_TOKEN: 'hf_secret',
  DB_PASSWORD: 'hunter2',
  SERVICE_API_KEY: 'sk-secret',
  OPENAI_API_KEY: 'sk-the-real-openai-key',
  NODE_OPTIONS: '--inspect',
  MY_SETTING: 'kept',
  UNLISTED: 'not passed',
  ...extra,
});

/** What a shell adds to every environment on its own. */
const SHELL_ADDED = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

const { own, tempDir } = ownedPipelineRuns();

/**
 * For the tests that watch a pipeline's processes from outside through a pid file: the unshare
 * fence (own pid namespace, the host's files), since under bwrap the pipeline writes only into its
 * own folder (test/pipeline/hostile-files.test.ts).
 */
const pidFileFence = () => probeFence({ kinds: ['unshare'] });

function makeRunner(pipeline: PipelineConfig, extra: { hostEnv?: NodeJS.ProcessEnv; killGraceMs?: number; fence?: Promise<Fence> } = {}) {
  const log = memoryLog();
  const workDir = tempDir('saboteur-pipeline-test-');
  const runner = createPipelineRunner(pipeline, {
    log,
    workDir,
    hostEnv: extra.hostEnv ?? hostEnv(),
    killGraceMs: extra.killGraceMs,
    fence: extra.fence,
  });
  own(runner);
  return { runner, log, workDir };
}

describe('environment allowlist (pure)', () => {
  it('tells secrets by name', () => {
    for (const name of [
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'RUNNER_TOKEN',
      'ACTIONS_RUNTIME_TOKEN',
      'ACTIONS_CACHE_URL',
      'INPUT_MODEL',
      'HF_TOKEN',
      'hf_token',
      'DB_PASSWORD',
      'AWS_SECRET_ACCESS_KEY',
      'SERVICE_API_KEY',
      'SSH_KEY',
      'OPENAI_API_KEY',
    ]) {
      expect([name, isSecretName(name)]).toEqual([name, true]);
    }
    for (const name of ['PATH', 'PYTHONPATH', 'HF_HOME', 'KEYBOARD', 'KEY_LAYOUT']) {
      expect([name, isSecretName(name)]).toEqual([name, false]);
    }
  });

  it('plans the basics plus listed names, without secrets or repeats', () => {
    const plan = planPassThrough(['PYTHONPATH', 'HF_TOKEN', 'PATH', 'PYTHONPATH', 'INPUT_X']);
    expect(plan.names).toEqual(['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM', 'USER', 'PYTHONPATH']);
    expect(plan.droppedSecrets).toEqual(['HF_TOKEN', 'INPUT_X']);
  });
});

describe('output parsing (pure)', () => {
  it('takes the last JSON line that answers, past later log lines', () => {
    const out = parseStdoutOutput('{"completion": "old"}\nlog\n{"completion": "    return 1\\n"}\n{"event": "exit"}\nbye\n');
    expect(out).toEqual({ ok: true, output: { completion: '    return 1\n' } });
  });

  it('judges the last JSON line when none answers, naming its keys', () => {
    const out = parseStdoutOutput('{"event": "start"}\n{"progress": 3}\n');
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toMatch(/neither "completion" nor "answer" \(keys: "progress"\)/);
  });

  it('says when there is no output at all', () => {
    const out = parseStdoutOutput('hello\nworld\n');
    expect(!out.ok && out.error).toMatch(/no output: .*SABOTEUR_OUTPUT_FILE.*stdout ends with "hello\\nworld"/);
    expect(!parseStdoutOutput('').ok && (parseStdoutOutput('') as { error: string }).error).toMatch(/stdout was empty/);
  });

  it('rejects wrong types with the field and the source', () => {
    expect(validateOutput({ answer: null }, 'X')).toEqual({ ok: false, error: 'X: "answer" must be a string, got null' });
    expect(validateOutput([1], 'X')).toMatchObject({ ok: false, error: expect.stringMatching(/expected a JSON object .* got an array/) });
    expect(parseOutputFile('{"completion": 1')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^SABOTEUR_OUTPUT_FILE is not valid JSON/),
    });
    expect(parseOutputFile('{"answer": "a", "extra": 1}')).toEqual({ ok: true, output: { answer: 'a' } });
  });

  it('keeps only the tail of a stream', () => {
    const buf = new TailBuffer(10);
    buf.push('0123456789');
    buf.push(Buffer.from('abcdef'));
    expect(buf.text()).toBe('6789abcdef');
    expect(buf.text(4)).toBe('cdef');
    expect(buf.totalBytes).toBe(16);
    expect(buf.truncated).toBe(true);
    const utf = new TailBuffer(5);
    utf.push('ééé'); // 6 bytes: the first é is cut in two and dropped
    expect(utf.text()).toBe('éé');
  });

  it('reads /proc stat lines whose command holds spaces and parentheses', () => {
    // [0] state, [1] parent pid, [2] process group.
    expect(procStatFields('4242 (node (worker) 1) S 1 4200 4200 0 -1')?.slice(0, 3)).toEqual(['S', '1', '4200']);
    expect(procStatFields('17 (sh) Z 1 17 17')?.slice(0, 3)).toEqual(['Z', '1', '17']);
    expect(procStatFields('garbage')).toBeUndefined();
  });
});

describe('process mode', () => {
  it('passes only the allowlist and the contract, and warns about listed secrets', async () => {
    const listed = ['MY_SETTING', 'HF_TOKEN', 'GITHUB_TOKEN', 'INPUT_MODEL', 'DB_PASSWORD', 'SERVICE_API_KEY', 'OPENAI_API_KEY'];
    const { runner, log } = makeRunner(config({ run: fixture('env-dump.mjs'), env: listed }));
    await runner.start();
    const result = await runner.run(
      input({ variant: 'malicious', maliciousAgent: 'coder', mcpUrl: 'http://127.0.0.1:7/mcp', otlpEndpoint: 'http://127.0.0.1:8' }),
    );
    expect(result.status).toBe('ok');
    const { names, contract } = JSON.parse(result.output!.answer!) as { names: string[]; contract: Record<string, string> };
    // With an OTLP endpoint the exporter's batch delay is shortened, so spans arrive before the sink they explain.
    const allowed = new Set(['PATH', 'HOME', 'TMPDIR', 'LANG', 'MY_SETTING', 'OTEL_BSP_SCHEDULE_DELAY', ...Object.keys(contract)]);
    expect(names.filter((n) => !allowed.has(n) && !SHELL_ADDED.has(n))).toEqual([]);
    expect(names).toContain('OTEL_BSP_SCHEDULE_DELAY');
    expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'LANG', 'MY_SETTING']));
    for (const secret of [
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'INPUT_GITHUB-TOKEN',
      'INPUT_MODEL',
      'ACTIONS_RUNTIME_TOKEN',
      'RUNNER_TOKEN',
      'HF_TOKEN',
      'DB_PASSWORD',
      'SERVICE_API_KEY',
      'NODE_OPTIONS',
      'UNLISTED',
    ]) {
      expect(names).not.toContain(secret);
    }
    expect(contract).toEqual({
      OPENAI_API_KEY: 'sab-inv-0123', // the per-invocation token, never the host's key
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_BASE: 'http://127.0.0.1:9/v1',
      SABOTEUR_MODEL: 'test-model',
      SABOTEUR_TASK_FILE: expect.stringMatching(/task\.json$/),
      SABOTEUR_OUTPUT_FILE: expect.stringMatching(/output\.json$/),
      SABOTEUR_VARIANT: 'malicious',
      SABOTEUR_MALICIOUS_AGENT: 'coder',
      SABOTEUR_MCP_URL: 'http://127.0.0.1:7/mcp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:8',
    });
    const warnings = log.lines.filter((l) => l.startsWith('warning:'));
    for (const name of ['HF_TOKEN', 'GITHUB_TOKEN', 'INPUT_MODEL', 'DB_PASSWORD', 'SERVICE_API_KEY']) {
      expect(warnings.some((w) => w.includes(`pipeline.env lists ${name},`))).toBe(true);
    }
    expect(warnings.some((w) => w.includes("OPENAI_API_KEY: the host's key is not passed"))).toBe(true);
    expect(warnings.some((w) => w.includes('MY_SETTING'))).toBe(false);
  });

  it('names no malicious agent, MCP server or OTLP endpoint in a plain control run', async () => {
    const { runner } = makeRunner(config({ run: fixture('env-dump.mjs') }));
    const result = await runner.run(input({ variant: 'control', maliciousAgent: 'coder' }));
    const { names } = JSON.parse(result.output!.answer!) as { names: string[] };
    expect(names).toContain('SABOTEUR_VARIANT');
    expect(names).not.toContain('SABOTEUR_MALICIOUS_AGENT');
    expect(names).not.toContain('SABOTEUR_MCP_URL');
    expect(names).not.toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
  });

  it('gives the task on stdin and in the task file, and removes the temp files after', async () => {
    const { runner } = makeRunner(config({ run: fixture('echo.mjs') }));
    const t = task({ metadata: { via: 'file', note: 'ünïcode ✓' } });
    const result = await runner.run(input({ task: t }));
    expect(result).toMatchObject({ status: 'ok', exitCode: 0, output: { completion: 'HumanEval/0' } });
    const seen = JSON.parse(result.output!.answer!) as { stdinTask: Task; fileTask: Task; taskFile: string };
    expect(seen.stdinTask).toEqual(t);
    expect(seen.fileTask).toEqual(t);
    expect(existsSync(seen.taskFile)).toBe(false);
    expect(existsSync(path.dirname(seen.taskFile))).toBe(false);
  });

  it('reads the last answering JSON line of stdout when no output file was written', async () => {
    const { runner } = makeRunner(config({ run: fixture('echo.mjs') }));
    const result = await runner.run(input({ task: task({ id: 'HumanEval/7', metadata: { via: 'stdout' } }) }));
    expect(result).toMatchObject({ status: 'ok', output: { completion: 'HumanEval/7' } });
  });

  it('prefers the output file over stdout', async () => {
    const { runner } = makeRunner(config({ run: fixture('echo.mjs') }));
    const result = await runner.run(input({ task: task({ id: 'HumanEval/8', metadata: { via: 'both' } }) }));
    expect(result).toMatchObject({ status: 'ok', output: { completion: 'HumanEval/8' } });
  });

  it('finds the answer after megabytes of stdout', async () => {
    const run = `node -e "process.stdout.write(('x'.repeat(1023) + '\\n').repeat(6 * 1024)); console.log(JSON.stringify({answer: 'after the flood'}))"`;
    const { runner } = makeRunner(config({ run }));
    expect(await runner.run(input())).toMatchObject({ status: 'ok', output: { answer: 'after the flood' } });
  });

  it('reports a crash with its exit code and the end of stderr', async () => {
    const { runner } = makeRunner(config({ run: fixture('crash.mjs') }));
    const result = await runner.run(input());
    expect(result).toMatchObject({ status: 'crash', exitCode: 3, error: 'pipeline.run exited with code 3' });
    expect(result.stderrTail).toContain('RuntimeError: the planner fell over');
    expect(result.output).toBeUndefined();
  });

  it('keeps only the last ~2 KB of a long stderr', async () => {
    const run = `node -e "process.stderr.write('noise '.repeat(50000) + 'THE END', () => process.exit(2))"`;
    const { runner } = makeRunner(config({ run }));
    const result = await runner.run(input());
    expect(result.status).toBe('crash');
    expect(result.stderrTail!.length).toBeLessThanOrEqual(2048);
    expect(result.stderrTail!.endsWith('THE END')).toBe(true);
  });

  it('reports output of the wrong type as bad-output', async () => {
    const { runner } = makeRunner(config({ run: fixture('bad-output.mjs') }));
    const result = await runner.run(input());
    expect(result).toMatchObject({ status: 'bad-output', exitCode: 0 });
    expect(result.error).toBe('the last JSON line of stdout: "completion" must be a string, got number 42');
  });

  it('reports a pipeline that answers nothing as bad-output', async () => {
    const { runner } = makeRunner(config({ run: 'echo "I forgot to answer"' }));
    const result = await runner.run(input());
    expect(result.status).toBe('bad-output');
    expect(result.error).toMatch(/^no output/);
  });

  it('reports a broken output file as bad-output', async () => {
    const { runner } = makeRunner(config({ run: `printf '{"completion": ' > "$SABOTEUR_OUTPUT_FILE"` }));
    const result = await runner.run(input());
    expect(result.status).toBe('bad-output');
    expect(result.error).toMatch(/^SABOTEUR_OUTPUT_FILE is not valid JSON/);
  });

  it('times out a hanging pipeline', async () => {
    const { runner } = makeRunner(config({ run: fixture('hang.mjs'), timeoutMs: 1000 }), { killGraceMs: 300 });
    const result = await runner.run(input());
    expect(result).toMatchObject({
      status: 'timeout',
      error: 'pipeline.run did not finish within 1000 ms; it and everything it started were killed',
    });
  });

  it('kills the whole process group on timeout, grandchildren that ignore SIGTERM included', async () => {
    const workDir = tempDir('saboteur-forker-');
    const pidFile = path.join(workDir, 'child.pid');
    const { runner } = makeRunner(config({ run: fixture('forker.mjs'), timeoutMs: 4000, env: ['FORKER_PID_FILE'] }), {
      hostEnv: hostEnv({ FORKER_PID_FILE: pidFile }),
      killGraceMs: 300,
      fence: pidFileFence(),
    });
    const result = await runner.run(input());
    expect(result.status).toBe('timeout');
    expect(existsSync(pidFile)).toBe(true);
    // The pid it wrote is its pid inside the fence: find its processes by their environment.
    expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);
    expect(await eventually(() => processesWithEnv('FORKER_PID_FILE', pidFile).length === 0)).toBe(true);
  });

  it('cleans up what a finished pipeline left running in the background', async () => {
    const workDir = tempDir('saboteur-bg-');
    const pidFile = path.join(workDir, 'sleep.pid');
    const run = `sleep 300 & echo $! > "${pidFile}"; echo '{"answer": "done"}'`;
    const { runner } = makeRunner(config({ run, env: ['BG_MARK'] }), {
      hostEnv: hostEnv({ BG_MARK: workDir }),
      killGraceMs: 300,
      fence: pidFileFence(),
    });
    const result = await runner.run(input());
    expect(result).toMatchObject({ status: 'ok', output: { answer: 'done' } });
    expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);
    expect(await eventually(() => processesWithEnv('BG_MARK', workDir).length === 0)).toBe(true);
  });

  it('runs tasks concurrently without mixing them up', async () => {
    const { runner } = makeRunner(config({ run: fixture('echo.mjs') }));
    const ids = Array.from({ length: 6 }, (_, i) => `HumanEval/${i}`);
    // half answer through the output file, half on stdout
    const results = await Promise.all(
      ids.map((id, i) => runner.run(input({ task: task({ id, metadata: { via: i % 2 ? 'stdout' : 'file' } }) }))),
    );
    // a task without a completion shows its status, error and stderr, so a failure names its cause
    const answers = results.map((r) => r.output?.completion ?? `${r.status}: ${r.error ?? ''} ${r.stderrTail ?? ''}`);
    expect(answers).toEqual(ids);
  });

  it('refuses a missing cwd at start', async () => {
    const { runner } = makeRunner(config({ run: 'true', cwd: path.join(repoRoot, 'no-such-dir') }));
    await expect(runner.start()).rejects.toThrow(/^pipeline\.cwd: .*no-such-dir is not a directory$/);
  });
});

/** A tiny OpenAI-compatible chat endpoint: echoes the last user message, records the bearer tokens. */
async function fakeChatServer(): Promise<{ baseUrl: string; tokens: string[]; close: () => Promise<void> }> {
  const tokens: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      tokens.push(String(req.headers.authorization));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: string }[] };
      const content = `echo: ${body.messages.at(-1)!.content}`;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    tokens,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('http mode', () => {
  it('starts the service, waits until ready, runs tasks over it and stops it', async () => {
    const chat = await fakeChatServer();
    try {
      const port = await reservePort('127.0.0.1');
      const { runner, workDir } = makeRunner(
        config({
          mode: 'http',
          serve: `${fixture('minimal-http.mjs')} --port ${port}`,
          url: `http://127.0.0.1:${port}/run`,
          concurrency: 8,
        }),
      );
      await runner.start({ proxyBaseUrl: chat.baseUrl, model: 'test-model' });
      const pid = runner.servePids[0];
      expect(isProcessAlive(pid)).toBe(true);
      const prompts = Array.from({ length: 8 }, (_, i) => `def f${i}():\n`);
      const results = await Promise.all(
        prompts.map((prompt, i) =>
          runner.run(input({ task: task({ id: `t${i}`, prompt }), apiKey: `key-${i}`, proxyBaseUrl: chat.baseUrl })),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(prompts.map(() => 'ok'));
      expect(results.map((r) => r.output?.answer)).toEqual(prompts.map((p) => `echo: ${p}`));
      expect([...chat.tokens].sort()).toEqual(prompts.map((_, i) => `Bearer key-${i}`).sort());
      await runner.stop();
      expect(await eventually(() => !isProcessAlive(pid))).toBe(true);
      expect(runner.servePids).toEqual([]);
      expect(readFileSync(path.join(workDir, 'pipeline-serve.log'), 'utf8')).toMatch(/minimal pipeline listening on/);
    } finally {
      await chat.close();
    }
  });

  it('with {port} in serve and url: one service per variant, each on its own port; one dying leaves the other answering', async () => {
    const chat = await fakeChatServer();
    try {
      const { runner, workDir } = makeRunner(
        config({ mode: 'http', serve: `${fixture('minimal-http.mjs')} --port {port}`, url: 'http://127.0.0.1:{port}/run' }),
      );
      await runner.start({ proxyBaseUrl: chat.baseUrl, model: 'test-model' });
      const pids = [...runner.servePids];
      expect(pids).toHaveLength(2);
      expect(new Set(pids).size).toBe(2);
      const listening = (name: string) =>
        /listening on \S*?:(\d+)/.exec(readFileSync(path.join(workDir, `pipeline-serve-${name}.log`), 'utf8'))?.[1];
      expect(await eventually(() => listening('control') !== undefined && listening('malicious') !== undefined)).toBe(true);
      expect(listening('control')).not.toBe(listening('malicious'));
      for (const variant of ['control', 'malicious'] as const)
        expect(await runner.run(input({ variant, proxyBaseUrl: chat.baseUrl }))).toMatchObject({ status: 'ok' });
      // The malicious service dies: its runs fail, the control service goes on answering.
      process.kill(-pids[1], 'SIGKILL');
      expect(await eventually(() => !isProcessAlive(pids[1]))).toBe(true);
      expect((await runner.run(input({ variant: 'malicious', proxyBaseUrl: chat.baseUrl }))).status).not.toBe('ok');
      expect(await runner.run(input({ variant: 'control', proxyBaseUrl: chat.baseUrl }))).toMatchObject({ status: 'ok' });
      await runner.stop();
      expect(runner.servePids).toEqual([]);
      expect(await eventually(() => !isProcessAlive(pids[0]))).toBe(true);
    } finally {
      await chat.close();
    }
  });

  it('POSTs the task with the contract fields and headers; the service sees only the allowlist', async () => {
    const port = await reservePort('127.0.0.1');
    const { runner } = makeRunner(
      config({
        mode: 'http',
        serve: `${fixture('echo-http.mjs')} --port ${port}`,
        url: `http://127.0.0.1:${port}/run`,
        env: ['MY_SETTING', 'GITHUB_TOKEN', 'OPENAI_API_KEY'],
      }),
    );
    await runner.start({ proxyBaseUrl: 'http://127.0.0.1:9/v1', model: 'test-model', otlpEndpoint: 'http://127.0.0.1:8' });
    const t = task({ id: 'HumanEval/ü 1' });
    const result = await runner.run(input({ task: t, variant: 'malicious', maliciousAgent: 'coder', mcpUrl: 'http://127.0.0.1:7/mcp' }));
    expect(result.status).toBe('ok');
    const seen = JSON.parse(result.output!.answer!) as {
      headers: Record<string, string>;
      body: Record<string, unknown>;
      env: { names: string[]; contract: Record<string, string> };
    };
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer sab-inv-0123',
      'x-saboteur-variant': 'malicious',
      'x-saboteur-task': encodeURIComponent('HumanEval/ü 1'),
      'content-type': 'application/json',
      connection: 'keep-alive',
    });
    expect(seen.body).toEqual({
      task: t,
      apiKey: 'sab-inv-0123',
      variant: 'malicious',
      maliciousAgent: 'coder',
      model: 'test-model',
      openaiBaseUrl: 'http://127.0.0.1:9/v1',
      mcpUrl: 'http://127.0.0.1:7/mcp',
    });
    expect(seen.env.contract).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_BASE: 'http://127.0.0.1:9/v1',
      SABOTEUR_MODEL: 'test-model',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:8',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    expect(seen.env.names).toContain('MY_SETTING');
    for (const secret of ['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_MODEL', 'ACTIONS_RUNTIME_TOKEN', 'OPENAI_API_KEY', 'UNLISTED']) {
      expect(seen.env.names).not.toContain(secret);
    }
  });

  it('maps a misbehaving service to crash, bad-output and timeout results', async () => {
    const port = await reservePort('127.0.0.1');
    const { runner } = makeRunner(
      config({ mode: 'http', serve: `${fixture('echo-http.mjs')} --port ${port}`, url: `http://127.0.0.1:${port}/run`, timeoutMs: 1500 }),
    );
    await runner.start();
    const as = (behave: string) => runner.run(input({ task: task({ metadata: { behave } }) }));
    const [http500, notJson, badShape, hang] = await Promise.all([as('http-500'), as('not-json'), as('bad-shape'), as('hang')]);
    expect(http500).toMatchObject({
      status: 'crash',
      error: `http://127.0.0.1:${port}/run answered HTTP 500`,
      stderrTail: '{"error":"the planner fell over"}',
    });
    expect(notJson.status).toBe('bad-output');
    expect(notJson.error).toMatch(/is not valid JSON .* it starts with "all done!"/);
    expect(badShape).toMatchObject({
      status: 'bad-output',
      error: `the response of http://127.0.0.1:${port}/run: "completion" must be a string, got an array`,
    });
    expect(hang).toMatchObject({ status: 'timeout', error: `http://127.0.0.1:${port}/run did not answer within 1500 ms` });
    // The service is still healthy after all that.
    expect((await runner.run(input())).status).toBe('ok');
  });

  it('reports the service dying mid-run as a crash with its log tail', async () => {
    const port = await reservePort('127.0.0.1');
    const { runner } = makeRunner(
      config({ mode: 'http', serve: `${fixture('echo-http.mjs')} --port ${port}`, url: `http://127.0.0.1:${port}/run` }),
    );
    await runner.start();
    const result = await runner.run(input({ task: task({ metadata: { behave: 'exit' } }) }));
    expect(result.status).toBe('crash');
    expect(result.error).toMatch(
      /pipeline\.serve exited with code 5; the end of .*pipeline-serve\.log:\n[\s\S]*fatal: out of memory in worker/,
    );
  });

  it('fails start at once with the log tail when the service exits early', async () => {
    const port = await reservePort('127.0.0.1');
    const serve = `node -e "console.log('loading model'); console.error('OSError: [Errno 98] address already in use'); process.exit(4)"`;
    const { runner } = makeRunner(config({ mode: 'http', serve, url: `http://127.0.0.1:${port}/run`, readyTimeoutMs: 60_000 }));
    const err = await runner.start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(
      /^pipeline\.serve stopped before http:\/\/127\.0\.0\.1:\d+\/run answered: pipeline\.serve exited with code 4/,
    );
    expect(err!.message).toContain('loading model');
    expect(err!.message).toContain('address already in use');
  });

  it('fails start after ready-timeout when the service never answers, and kills it', async () => {
    const port = await reservePort('127.0.0.1');
    const workDir = tempDir('saboteur-ready-');
    const pidFile = path.join(workDir, 'child.pid');
    const { runner } = makeRunner(
      config({
        mode: 'http',
        serve: fixture('forker.mjs'),
        url: `http://127.0.0.1:${port}/run`,
        readyTimeoutMs: 3000,
        env: ['FORKER_PID_FILE'],
      }),
      { hostEnv: hostEnv({ FORKER_PID_FILE: pidFile }), killGraceMs: 300, fence: pidFileFence() },
    );
    await expect(runner.start()).rejects.toThrow(
      /^pipeline\.ready-timeout: the pipeline service was not ready within 3000 ms \(.*ECONNREFUSED\)/,
    );
    expect(runner.servePids).toEqual([]);
    // forker.mjs published its child's pid long before the 3 s were up
    expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);
    expect(await eventually(() => processesWithEnv('FORKER_PID_FILE', pidFile).length === 0)).toBe(true);
  });

  it('runs minimal.mjs (process mode, node:http) against a chat endpoint', async () => {
    const chat = await fakeChatServer();
    try {
      const { runner } = makeRunner(config({ run: fixture('minimal.mjs') }));
      const result = await runner.run(input({ proxyBaseUrl: chat.baseUrl }));
      expect(result).toMatchObject({ status: 'ok', output: { answer: `echo: ${task().prompt}` } });
      expect(chat.tokens).toEqual(['Bearer sab-inv-0123']);
    } finally {
      await chat.close();
    }
  });

  it('works with a service started elsewhere (no serve command)', async () => {
    const chat = await fakeChatServer();
    const port = await reservePort('127.0.0.1');
    const other = makeRunner(
      config({ mode: 'http', serve: `${fixture('minimal-http.mjs')} --port ${port}`, url: `http://127.0.0.1:${port}/run` }),
    );
    await other.runner.start();
    try {
      const { runner } = makeRunner(
        config({ mode: 'http', url: `http://127.0.0.1:${port}/run`, readyUrl: `http://127.0.0.1:${port}/health` }),
      );
      await runner.start();
      expect(runner.servePids).toEqual([]);
      expect(await runner.run(input({ proxyBaseUrl: chat.baseUrl }))).toMatchObject({
        status: 'ok',
        output: { answer: expect.stringMatching(/^echo: def add/) },
      });
    } finally {
      await chat.close();
    }
  });
});

/**
 * Model servers saboteur starts itself, against fake server executables (fixtures/servers) that
 * take each kind's real command line and serve its real endpoints over HTTP: launch plans, ready
 * detection, startup timeout, early exit with the log tail, tree kill checked by pid, reuse, GPU
 * facts, embedded's clear errors, and a model dying in the middle of a real run (runJob and CLI).
 * The real engine (node-llama-cpp on a generated GGUF) is in real-engine.test.ts.
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import type { Config } from '../../src/config/load.js';
import { parseConfig } from '../../src/config/load.js';
import { startModel, ModelStartError, type ProcessLedger, type TrackedProcess, type StartModelOptions } from '../../src/model/index.js';
import { pickModelName, resolveModelPaths } from '../../src/model/servers/index.js';
import { reservePort } from '../../src/model/servers/lifecycle.js';
import { vllmPlan } from '../../src/model/servers/vllm.js';
import { sglangPlan } from '../../src/model/servers/sglang.js';
import { LLAMACPP_SERVER, llamacppPlan } from '../../src/model/servers/llamacpp.js';
import { ollamaPlan } from '../../src/model/servers/ollama.js';
import { tgiPlan } from '../../src/model/servers/tgi.js';
import { commandPlan } from '../../src/model/servers/command-kind.js';
import { displayCommand, fillPlaceholders, shellQuote } from '../../src/model/servers/shell-words.js';
import { parseNvidiaSmi, queryGpus, selectedDevices } from '../../src/model/servers/gpu.js';
import { startChatServer, toChatMessages, type ChatMessage, type GenerateParams } from '../../src/model/servers/chat-server.js';
import { isProcessAlive } from '../../src/pipeline/process-group.js';
import { startProxy, InvocationRegistry } from '../../src/proxy/index.js';
import { runJob } from '../../src/run/job.js';
import { realDeps } from '../../src/run/deps.js';
import { main } from '../../src/cli/main.js';
import { comparability, comparabilityNote, servingLine } from '../../src/report/compat.js';
import { renderReport } from '../../src/report/markdown.js';
import { RUN_LOG_VERSION, runLogSchema, type RunLog } from '../../src/runlog/schema.js';
import { modelSettings } from '../helpers/model-settings.js';
import { memoryLog } from '../../src/util/log.js';

const FIX = path.resolve('fixtures/servers');
const FAKE_SMI = path.join(FIX, 'fake-nvidia-smi.mjs');
const NO_SMI = path.join(FIX, 'no-such-nvidia-smi');
const CHAIN = path.resolve('fixtures/pipelines/chain.mjs');
const PROBLEMS = path.resolve('fixtures/demo/problems.jsonl');

let dir: string;
/** Every process any test started: killed at the end whatever happened, so no test leaks one. */
const everyPid: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-servers-'));
});
afterAll(async () => {
  for (const pid of everyPid) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  await rm(dir, { recursive: true, force: true });
});

let seq = 0;
async function freshDir(name: string): Promise<string> {
  const d = path.join(dir, `${name}-${++seq}`);
  await mkdir(d, { recursive: true });
  return d;
}

/** A ledger that remembers what it was told (and registers every pid for the final cleanup). */
function recordingLedger() {
  const started: TrackedProcess[] = [];
  const stopped: number[] = [];
  const l: ProcessLedger = {
    started: (p) => {
      started.push(p);
      everyPid.push(p.pid);
    },
    stopped: (pid) => void stopped.push(pid),
  };
  return { ledger: l, started, stopped };
}

async function options(over: StartModelOptions = {}): Promise<StartModelOptions & { logDir: string }> {
  return { logDir: await freshDir('run'), nvidiaSmi: NO_SMI, killGraceMs: 2000, configDir: dir, ...over };
}

function client(baseURL: string, apiKey = 'unused'): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0 });
}

/**
 * Waits until `check` holds. The limit is only a hang guard (reckoned on the monotonic clock, as
 * Date may be held still): past it the answer is whatever `check` says then, and the caller's
 * assertion fails.
 */
async function until(check: () => boolean, limitMs = 60_000): Promise<boolean> {
  const end = performance.now() + limitMs;
  while (!check() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

/**
 * Runs `work` with Date held still (timers, the monotonic clock and everything else as ever) until
 * `event` has happened: a deadline the code under test reckons from Date.now() cannot pass before
 * it, however slow the machine. Then the clock jumps to the real time, and the deadline falls due
 * at once if its time has come, or when it comes.
 */
async function withDateHeldUntil<T>(work: () => Promise<T>, event: () => boolean): Promise<T> {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  let done: Promise<T>;
  try {
    done = work();
    // The work is under way; a rejection is the caller's to see once the clock runs again.
    done.catch(() => undefined);
    expect(await until(event)).toBe(true);
  } finally {
    jest.useRealTimers();
  }
  return done;
}

async function pidsFrom(file: string): Promise<number[]> {
  const { server, workers } = JSON.parse(await readFile(file, 'utf8')) as { server: number; workers: number[] };
  everyPid.push(server, ...workers);
  return [server, ...workers];
}

describe('launch plans: each kind with its real command line', () => {
  const at = { host: '127.0.0.1', port: 41000 };
  const m = modelSettings({ args: ['--max-model-len', '8192'] });

  test('vllm serve MODEL --host --port, then the extra args', () => {
    const p = vllmPlan(m, at);
    expect([p.file, ...p.args]).toEqual([
      'vllm',
      'serve',
      'Qwen/Qwen2.5-Coder-7B-Instruct',
      '--host',
      '127.0.0.1',
      '--port',
      '41000',
      '--max-model-len',
      '8192',
    ]);
    expect(p.ready).toEqual(['/health', '/v1/models']);
    expect(vllmPlan({ ...m, binary: '/opt/vllm/bin/vllm' }, at).file).toBe('/opt/vllm/bin/vllm');
  });

  test('sglang through python -m sglang.launch_server', () => {
    const p = sglangPlan(m, at);
    expect([p.file, ...p.args.slice(0, 4)]).toEqual([
      'python3',
      '-m',
      'sglang.launch_server',
      '--model-path',
      'Qwen/Qwen2.5-Coder-7B-Instruct',
    ]);
    expect(p.args).toContain('--max-model-len');
  });

  test('llama-server -m FILE, or -hf for an hf: model', () => {
    expect(llamacppPlan({ ...m, model: '/models/q.gguf', args: [] }, at).args).toEqual([
      '-m',
      '/models/q.gguf',
      '--host',
      '127.0.0.1',
      '--port',
      '41000',
    ]);
    expect(llamacppPlan({ ...m, model: 'hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M', args: [] }, at).args.slice(0, 2)).toEqual([
      '-hf',
      'Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M',
    ]);
  });

  test('ollama serve listens where OLLAMA_HOST says and pulls the model', () => {
    const p = ollamaPlan({ ...m, model: 'qwen2.5-coder:7b', args: [] }, at);
    expect([p.file, ...p.args]).toEqual(['ollama', 'serve']);
    expect(p.env).toEqual({ OLLAMA_HOST: '127.0.0.1:41000' });
    expect(p.pull).toBe('qwen2.5-coder:7b');
    expect(ollamaPlan(m, { host: '::1', port: 5 }).env.OLLAMA_HOST).toBe('[::1]:5');
  });

  test('text-generation-launcher --model-id --hostname --port', () => {
    expect(tgiPlan({ ...m, args: [] }, at).args).toEqual([
      '--model-id',
      'Qwen/Qwen2.5-Coder-7B-Instruct',
      '--hostname',
      '127.0.0.1',
      '--port',
      '41000',
    ]);
  });

  test('command fills {port} {model} {host}, shell-quoted, and appends args', () => {
    const p = commandPlan(
      {
        ...m,
        kind: 'command',
        model: "it's; rm -rf ~",
        run: 'my-server --port {port} --host {host} --model {model} --json {"a":1}',
        args: ['--x', 'a b'],
      },
      at,
    );
    expect(p.file).toBe('/bin/sh');
    expect(p.args[1]).toBe(`my-server --port 41000 --host 127.0.0.1 --model 'it'\\''s; rm -rf ~' --json {"a":1} --x 'a b'`);
    expect(() => commandPlan({ ...m, kind: 'command', run: undefined }, at)).toThrow(/needs model.run/);
  });

  test('commands are shown shell-quoted with secrets masked', () => {
    expect(shellQuote('plain/path-1.0')).toBe('plain/path-1.0');
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(displayCommand('vllm', ['serve', 'm', '--api-key', 'sk-secret', '--hf-token=hf_x', '--port', '8000'])).toBe(
      'vllm serve m --api-key *** --hf-token=*** --port 8000',
    );
    expect(fillPlaceholders('x {unknown} {port}', { port: '1' })).toBe('x {unknown} 1');
  });

  test('the model to request: the configured one when listed, else what the server lists', () => {
    expect(pickModelName('a', ['a', 'b'])).toBe('a');
    expect(pickModelName('a', [])).toBe('a');
    expect(pickModelName('/models/q.gguf', ['q-alias'])).toBe('q-alias');
    expect(pickModelName(undefined, [])).toBe('default');
  });

  test('a relative binary and GGUF path resolve against the config folder; a bare name stays for PATH', () => {
    const r = resolveModelPaths(
      { ...m, kind: 'llamacpp', model: 'models/q.gguf', binary: 'bin/llama-server' },
      '/work/cfg',
      LLAMACPP_SERVER,
    );
    expect(r.binary).toBe('/work/cfg/bin/llama-server');
    expect(r.model).toBe('/work/cfg/models/q.gguf');
    expect(resolveModelPaths({ ...m, binary: 'vllm' }, '/work/cfg').binary).toBe('vllm');
  });
});

describe('GPU facts from nvidia-smi', () => {
  test('parses the query output captured on GPU machines', () => {
    // Captured on an H200 machine: nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    expect(parseNvidiaSmi('NVIDIA H200, 143771 MiB, 580.159.04\n')).toEqual([
      { name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' },
    ]);
    expect(
      parseNvidiaSmi('NVIDIA A100-SXM4-80GB, 81920 MiB, 535.104.05\r\nNVIDIA A100-SXM4-80GB, 81920 MiB, 535.104.05\r\n\n'),
    ).toHaveLength(2);
    expect(parseNvidiaSmi('NVIDIA GeForce RTX 4090, [N/A], [Insufficient Permissions]')).toEqual([{ name: 'NVIDIA GeForce RTX 4090' }]);
    expect(parseNvidiaSmi('Tesla T4, rev 2, 15360 MiB, 550.54.15')).toEqual([
      { name: 'Tesla T4, rev 2', memoryMiB: 15360, driver: '550.54.15' },
    ]);
    expect(parseNvidiaSmi('No devices were found')).toEqual([]);
  });

  test('CUDA_VISIBLE_DEVICES / model.gpus select the devices nvidia-smi reports', () => {
    expect(selectedDevices('0,1')).toBe('0,1');
    expect(selectedDevices('GPU-8f3c2a1b-1111-2222-3333-444455556666')).toBe('GPU-8f3c2a1b-1111-2222-3333-444455556666');
    expect(selectedDevices('all')).toBeUndefined();
    expect(selectedDevices('')).toBeUndefined();
    expect(selectedDevices(undefined)).toBeUndefined();
  });

  test('runs nvidia-smi; its absence or failure is a note, not an error', async () => {
    expect(await queryGpus({ binary: FAKE_SMI })).toEqual({
      gpus: [
        { name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' },
        { name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' },
      ],
    });
    expect((await queryGpus({ binary: FAKE_SMI, visible: '1' })).gpus).toHaveLength(1);
    const absent = await queryGpus({ binary: NO_SMI });
    expect(absent.gpus).toEqual([]);
    expect(absent.note).toMatch(/not found/);
    const failed = await queryGpus({ binary: FAKE_SMI, env: { ...process.env, FAKE_NVIDIA_SMI_FAIL: '1' } });
    expect(failed.gpus).toEqual([]);
    expect(failed.note).toMatch(/couldn't communicate with the NVIDIA driver/);
  });
});

describe('every server kind: start, ready, warm up, serve, stop', () => {
  let gguf: string;
  beforeAll(async () => {
    gguf = path.join(dir, 'tiny.gguf');
    await writeFile(gguf, 'GGUF');
  });

  const cases: { kind: Config['model']['kind']; version: string; over: () => Partial<Config['model']> }[] = [
    { kind: 'vllm', version: '0.8.5-fake', over: () => ({ binary: path.join(FIX, 'fake-vllm.mjs') }) },
    { kind: 'sglang', version: '0.4.6-fake', over: () => ({ binary: path.join(FIX, 'fake-sglang.mjs') }) },
    // llama.cpp answers 503 "Loading model" first: ready only once it says ok.
    {
      kind: 'llamacpp',
      version: 'b5200-fake',
      over: () => ({ binary: path.join(FIX, 'fake-llama-server.mjs'), model: gguf, env: { FAKE_STARTUP_DELAY_MS: '1200' } }),
    },
    { kind: 'ollama', version: '0.6.8-fake', over: () => ({ binary: path.join(FIX, 'fake-ollama.mjs'), model: 'qwen2.5-coder:7b' }) },
    { kind: 'tgi', version: '3.2.3-fake', over: () => ({ binary: path.join(FIX, 'fake-tgi.mjs') }) },
    {
      kind: 'command',
      version: '0.8.5-fake',
      over: () => ({ run: `node ${path.join(FIX, 'fake-vllm.mjs')} serve {model} --host {host} --port {port}` }),
    },
  ];

  test.each(cases)('$kind', async ({ kind, version, over }) => {
    const rec = recordingLedger();
    const extra = over();
    const opts = await options({
      ledger: rec.ledger,
      nvidiaSmi: FAKE_SMI,
      hostEnv: { ...process.env, 'INPUT_GITHUB-TOKEN': 'ghs_x', GITHUB_TOKEN: 'ghs_y' },
    });
    const log = memoryLog();
    const ep = await startModel(
      modelSettings({ kind, args: ['--extra-flag', 'two words'], gpus: '1', ...extra, env: { FAKE_MARK: `mark-${kind}`, ...extra.env } }),
      log,
      opts,
    );
    let pid = 0;
    try {
      expect(ep.kind).toBe(kind);
      expect(ep.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(ep.serverVersion).toBe(version);
      expect(ep.gpus).toEqual([{ name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' }]);
      expect(rec.started).toHaveLength(1);
      pid = rec.started[0].pid;
      expect(rec.started[0].name).toBe(kind);
      expect(isProcessAlive(pid)).toBe(true);
      // Where the kind can require a key, it requires saboteur's: without it a client gets 401.
      if (['vllm', 'sglang', 'llamacpp'].includes(kind)) {
        expect(ep.apiKey).toMatch(/^sabm-/);
        const keyless = await client(ep.baseUrl)
          .chat.completions.create({ model: ep.model!, messages: [{ role: 'user', content: 'hi' }] })
          .catch((e: { status?: number }) => e);
        expect((keyless as { status?: number }).status).toBe(401);
        expect(JSON.stringify(ep.describe())).not.toContain(ep.apiKey!);
        expect(log.lines.join('\n')).not.toContain(ep.apiKey!);
      } else expect(ep.apiKey).toBeUndefined();
      const res = await client(ep.baseUrl, ep.apiKey).chat.completions.create({
        model: ep.model!,
        messages: [{ role: 'user', content: 'Implement the function `add`.' }],
      });
      expect(res.choices[0].message.content).toContain('def add(');

      expect(ep.serverLog).toBe(path.join(opts.logDir, 'model-server.log'));
      const serverLog = await readFile(ep.serverLog!, 'utf8');
      expect(serverLog).toContain('"--extra-flag","two words"');
      expect(serverLog).toContain(`CUDA_VISIBLE_DEVICES=1 FAKE_MARK=mark-${kind}`);
      expect(serverLog).toContain('job token visible: no');
      // The warm-up was the first chat completion, ours the second.
      expect(serverLog).toMatch(/chat completion 1 [^]*chat completion 2 /);
      if (kind === 'ollama') expect(serverLog).toContain('pulled qwen2.5-coder:7b');
      expect(log.lines.join('\n')).toContain('GPU 0: NVIDIA H200, 143771 MiB, driver 580.159.04');
    } finally {
      await ep.close();
    }
    expect(rec.stopped).toEqual([pid]);
    expect(isProcessAlive(pid)).toBe(false);
  });
});

describe('startup: waiting, timing out, failing early', () => {
  const vllm = path.join(FIX, 'fake-vllm.mjs');

  test('a server that takes a while to listen is waited for', async () => {
    const rec = recordingLedger();
    const ep = await startModel(
      modelSettings({ binary: vllm, env: { FAKE_STARTUP_DELAY_MS: '1500' } }),
      memoryLog(),
      await options({ ledger: rec.ledger }),
    );
    try {
      const log = await readFile(ep.serverLog!, 'utf8');
      expect(log).toContain('loading for 1500 ms');
      expect(log).toContain('chat completion 1');
    } finally {
      await ep.close();
    }
  });

  test('an early exit fails at once with the exit code, the exact command and the log tail', async () => {
    const rec = recordingLedger();
    const opts = await options({ ledger: rec.ledger });
    const err = (await startModel(
      modelSettings({ binary: vllm, env: { FAKE_CRASH_AT_START: '3' }, startupTimeoutMs: 600_000 }),
      memoryLog(),
      opts,
    ).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ModelStartError);
    expect(err.message).toContain('the server stopped before it was ready');
    expect(err.message).toContain('exited with code 3');
    expect(err.message).toMatch(
      new RegExp(
        `command: ${vllm.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} serve Qwen/Qwen2.5-Coder-7B-Instruct --host 127\\.0\\.0\\.1 --port \\d+`,
      ),
    );
    expect(err.message).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(err.message).toContain(path.join(opts.logDir, 'model-server.log'));
    expect(rec.stopped).toEqual([rec.started[0].pid]);
  });

  test('a server that never gets ready is stopped at the startup timeout, workers included', async () => {
    const rec = recordingLedger();
    const pidFile = path.join(await freshDir('hang'), 'pids.json');
    const cfg = modelSettings({ binary: vllm, env: { FAKE_HANG: '1', FAKE_WORKERS: '1', FAKE_PID_FILE: pidFile }, startupTimeoutMs: 3000 });
    const opts = await options({ ledger: rec.ledger });
    const serverLog = path.join(opts.logDir, 'model-server.log');
    // The 3 s are counted only once the fake is up (its worker started, its pids written, its loading
    // line printed): what the timeout must stop and report is there, however slowly the machine
    // started it.
    const err = (await withDateHeldUntil(
      () => startModel(cfg, memoryLog(), opts),
      () => existsSync(pidFile) && existsSync(serverLog) && readFileSync(serverLog, 'utf8').includes('Loading safetensors'),
    ).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ModelStartError);
    expect(err.message).toContain('was not ready within the model.startup-timeout');
    expect(err.message).toContain('last check GET /health');
    expect(err.message).toContain('Loading safetensors checkpoint shards');
    expect(err.message).toContain('command: ');
    const pids = await pidsFrom(pidFile);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });

  test('the warm-up request must succeed', async () => {
    const rec = recordingLedger();
    const err = (await startModel(
      modelSettings({ binary: vllm, env: { FAKE_CRASH_AFTER: '0' } }),
      memoryLog(),
      await options({ ledger: rec.ledger }),
    ).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ModelStartError);
    expect(err.message).toContain('the warm-up request');
    expect(err.message).toContain('illegal memory access');
    expect(rec.stopped).toHaveLength(1);
  });

  test('a binary that is missing or not executable is named', async () => {
    const missing = (await startModel(modelSettings({ binary: path.join(FIX, 'no-such-vllm') }), memoryLog(), await options()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(missing).toBeInstanceOf(ModelStartError);
    expect(missing.message).toContain('no-such-vllm was not found; install the vllm server on the runner or set model.binary');
    const onPath = (await startModel(
      modelSettings({ kind: 'tgi', binary: 'saboteur-no-such-launcher' }),
      memoryLog(),
      await options(),
    ).catch((e: unknown) => e)) as Error;
    expect(onPath.message).toContain('saboteur-no-such-launcher was not found on PATH');
    const notExec = (await startModel(modelSettings({ binary: path.join(FIX, 'lib/worker.mjs') }), memoryLog(), await options()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(notExec.message).toContain('is not executable');
  });

  test('config mistakes are caught before anything starts', async () => {
    const gguf = (await startModel(modelSettings({ kind: 'llamacpp', model: 'missing/q.gguf' }), memoryLog(), await options()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(gguf.message).toBe(
      `model.model: the GGUF file ${path.join(dir, 'missing/q.gguf')} does not exist (model.kind llamacpp takes a GGUF path relative to the config file, or hf:USER/REPO[:QUANT])`,
    );
    const noPort = (await startModel(
      modelSettings({ kind: 'command', run: 'my-server --model {model}' }),
      memoryLog(),
      await options(),
    ).catch((e: unknown) => e)) as Error;
    expect(noPort.message).toMatch(/model.run has no \{port\} placeholder/);
  });
});

describe('reuse and stopping', () => {
  const vllm = path.join(FIX, 'fake-vllm.mjs');

  test('a server already on the port: an error without reuse, used (and left running) with reuse: true', async () => {
    const port = await reservePort('127.0.0.1');
    const first = recordingLedger();
    const owner = await startModel(modelSettings({ binary: vllm, port }), memoryLog(), await options({ ledger: first.ledger }));
    try {
      const busy = (await startModel(modelSettings({ binary: vllm, port }), memoryLog(), await options()).catch(
        (e: unknown) => e,
      )) as Error;
      expect(busy).toBeInstanceOf(ModelStartError);
      expect(busy.message).toContain(`model.port ${port}: something already listens on 127.0.0.1:${port}; set model.reuse: true`);

      const second = recordingLedger();
      const log = memoryLog();
      // The owner wants its key (saboteur started it); the reusing run is given it by model.api-key-env.
      const reused = await startModel(
        modelSettings({ binary: vllm, port, reuse: true, apiKeyEnv: 'OWNER_KEY' }),
        log,
        await options({ ledger: second.ledger, hostEnv: { ...process.env, OWNER_KEY: owner.apiKey } }),
      );
      expect(reused.baseUrl).toBe(owner.baseUrl);
      expect(reused.apiKey).toBe(owner.apiKey);
      expect(reused.serverVersion).toBe('0.8.5-fake');
      expect(reused.serverLog).toBeUndefined();
      expect(second.started).toEqual([]);
      expect(log.lines.join('\n')).toContain('saboteur will not stop it');
      await reused.close();
      expect(isProcessAlive(first.started[0].pid)).toBe(true);
      const res = await client(owner.baseUrl, owner.apiKey).chat.completions.create({
        model: owner.model!,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(res.choices[0].message.content).toBe('ready');
    } finally {
      await owner.close();
    }
    expect(isProcessAlive(first.started[0].pid)).toBe(false);
  });

  test('stop takes down the whole tree: TERM first, KILL for what ignores it, workers that left the group too', async () => {
    const rec = recordingLedger();
    const pidFile = path.join(await freshDir('tree'), 'pids.json');
    const ep = await startModel(
      modelSettings({ binary: vllm, env: { FAKE_WORKERS: '2', FAKE_DETACHED_WORKER: '1', FAKE_IGNORE_TERM: '1', FAKE_PID_FILE: pidFile } }),
      memoryLog(),
      await options({ ledger: rec.ledger, killGraceMs: 300 }),
    );
    const pids = await pidsFrom(pidFile);
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(true);
    // The 300 ms grace is counted only once the server has had the SIGTERM it ignores (its log says
    // so): the SIGKILL that follows is the one for what ignored it, however slowly the machine ran it.
    await withDateHeldUntil(
      () => ep.close(),
      () => readFileSync(ep.serverLog!, 'utf8').includes('ignoring SIGTERM'),
    );
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    expect(rec.stopped).toEqual([pids[0]]);
  });
});

describe('recording a started server', () => {
  test('record: true puts the recorder in front and stops both on close', async () => {
    const rec = recordingLedger();
    const cassette = path.join(await freshDir('rec'), 'recorded.jsonl');
    const ep = await startModel(
      modelSettings({ binary: path.join(FIX, 'fake-vllm.mjs'), record: true, cassette }),
      memoryLog(),
      await options({ ledger: rec.ledger }),
    );
    const res = await client(ep.baseUrl, ep.apiKey).chat.completions.create({
      model: ep.model!,
      messages: [{ role: 'user', content: 'Implement the function `mul`.' }],
    });
    expect(res.choices[0].message.content).toContain('def mul(');
    expect(ep.describe().recording).toBe(cassette);
    expect(ep.serverVersion).toBe('0.8.5-fake');
    await ep.close();
    expect(await readFile(cassette, 'utf8')).toContain('def mul(');
    expect(isProcessAlive(rec.started[0].pid)).toBe(false);
  });
});

describe('embedded (node-llama-cpp in-process)', () => {
  test('a missing model or GGUF file is named before anything is loaded', async () => {
    const none = (await startModel(modelSettings({ kind: 'embedded', model: undefined }), memoryLog(), await options()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(none).toBeInstanceOf(ModelStartError);
    expect(none.message).toMatch(/^model.kind embedded needs model.model: a GGUF file/);
    const missing = (await startModel(modelSettings({ kind: 'embedded', model: 'models/none.gguf' }), memoryLog(), await options()).catch(
      (e: unknown) => e,
    )) as Error;
    expect(missing.message).toContain(`model.model: the GGUF file ${path.join(dir, 'models/none.gguf')} does not exist`);
  });

  test('without the optional package the error says how to install it', async () => {
    const gguf = path.join(dir, 'present.gguf');
    await writeFile(gguf, 'GGUF');
    const err = (await startModel(
      modelSettings({ kind: 'embedded', model: gguf }),
      memoryLog(),
      await options({ embeddedPackage: 'saboteur-absent-llama-package' }),
    ).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ModelStartError);
    expect(err.message).toContain('model.kind embedded needs the optional package saboteur-absent-llama-package, which is not installed');
    expect(err.message).toContain('npm install --no-save node-llama-cpp@3.21.1');
  });

  test('its OpenAI server answers chat completions through the proxy, sampling passed on', async () => {
    const seen: { messages: ChatMessage[]; params: GenerateParams }[] = [];
    const server = await startChatServer({
      modelName: 'tiny',
      owner: 'embedded (test)',
      log: memoryLog(),
      generate: async (messages, params) => {
        seen.push({ messages, params });
        const text = `echo: ${messages[messages.length - 1].content}`;
        return { text, finishReason: 'stop', promptTokens: 3, completionTokens: 2 };
      },
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: server.baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'e', benchmark: 'humaneval', variant: 'control' });
    try {
      const c = new OpenAI({ baseURL: proxy.baseUrl, apiKey: inv.key, maxRetries: 0 });
      const res = await c.chat.completions.create({
        model: 'tiny',
        temperature: 0.2,
        max_tokens: 64,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello' },
        ],
      });
      expect(res.choices[0].message.content).toBe('echo: hello');
      expect(res.usage?.total_tokens).toBe(5);
      const stream = await c.chat.completions.create({ model: 'tiny', stream: true, messages: [{ role: 'user', content: 'streamed' }] });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('echo: streamed');
      expect(seen[0].messages).toEqual([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ]);
      expect(seen[0].params).toMatchObject({ temperature: 0.2, maxTokens: 64 });
      expect(registry.close(inv.key).map((call) => call.status)).toEqual([200, 200]);
    } finally {
      await proxy.close();
      await server.close();
    }
    expect(toChatMessages([{ role: 'assistant', content: 'x' }])).toMatch(/last message must come from the user/);
  });
});

/** A config for the demo chain pipeline against a fake vLLM that dies after `crashAfter` chat completions. */
async function crashingConfig(
  name: string,
  crashAfter: number,
  concurrency: number,
): Promise<{ config: Config; file: string; out: string; pidFile: string }> {
  const d = await freshDir(name);
  const pidFile = path.join(d, 'pids.json');
  const text = `model:
  kind: vllm
  model: fake/coder-7b
  binary: ${path.join(FIX, 'fake-vllm.mjs')}
  env: { FAKE_CRASH_AFTER: "${crashAfter}", FAKE_WORKERS: "1", FAKE_PID_FILE: ${JSON.stringify(pidFile)} }
  gpus: "0,1"
  startup-timeout: 60s
  sampling: { temperature: 0, seed: 7 }
pipeline:
  run: node ${CHAIN}
  cwd: ${process.cwd()}
  timeout: 60s
  concurrency: ${concurrency}
  agents:
    - { name: planner, match: { system: "You are the planner" } }
benchmarks:
  humaneval: { path: ${PROBLEMS}, limit: 3 }
variants:
  malicious: { target: coder, message-rate: 0.8, error-rate: 0.6 }
`;
  const file = path.join(d, 'saboteur.yml');
  await writeFile(file, text);
  return { config: parseConfig(text, file), file, out: path.join(d, 'out'), pidFile };
}

describe('the model server dies in the middle of a run', () => {
  test('runJob: the instance in flight is model-error, the rest skipped, the run aborted, and everything written', async () => {
    // Warm-up (1) + two instance runs of three agent calls each: the third instance run dies on its first call.
    const { config, out, pidFile } = await crashingConfig('midrun', 7, 1);
    const log = memoryLog();
    const deps = {
      ...realDeps,
      startModel: (m: Config['model'], l: typeof log, o?: StartModelOptions) => startModel(m, l, { ...o, nvidiaSmi: FAKE_SMI }),
    };
    const { runLog, runLogPath, reportPath } = await runJob(config, { outDir: out, log }, deps);
    const pids = await pidsFrom(pidFile);

    expect(runLog.status).toBe('aborted');
    expect(runLog.abortReason).toMatch(/^the model server stopped answering at http:\/\/127\.0\.0\.1:\d+\/v1/);
    const outcomes = runLog.instances.map((r) => r.outcome);
    expect(outcomes).toHaveLength(6);
    expect(outcomes.slice(0, 2).every((o) => o === 'passed' || o === 'failed')).toBe(true);
    expect(outcomes.slice(2)).toEqual(['model-error', 'skipped', 'skipped', 'skipped']);
    const dead = runLog.instances.find((r) => r.outcome === 'model-error')!;
    expect(dead.error).toMatch(/^model server: /);
    expect(runLog.instances.filter((r) => r.outcome === 'skipped').every((r) => r.error === 'not run: the run stopped early')).toBe(true);
    // What happened to the server, in the notes: how it ended and its last words.
    const note = runLog.notes.find((n) => n.startsWith('model server:'))!;
    expect(note).toBe(
      'model server: the vllm server (pid ' +
        pids[0] +
        ') exited with code 1; the end of its log model-server.log: ' +
        'fake-vllm: chat completion 7 model=fake/coder-7b | RuntimeError: CUDA error: an illegal memory access was encountered | fake-vllm: engine died after 7 chat completions',
    );

    expect(runLog.model).toMatchObject({
      kind: 'vllm',
      model: 'fake/coder-7b',
      serverVersion: '0.8.5-fake',
      serverLog: 'model-server.log',
      sampling: { temperature: 0, seed: 7 },
    });
    expect(runLog.model.gpus).toEqual([
      { name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' },
      { name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' },
    ]);
    expect(existsSync(path.join(out, 'model-server.log'))).toBe(true);
    const written = JSON.parse(await readFile(runLogPath, 'utf8')) as RunLog;
    expect(written.status).toBe('aborted');
    const report = await readFile(reportPath, 'utf8');
    expect(report).toContain('The run stopped early: the model server stopped answering');
    expect(report).toContain('Served by vllm `0.8.5-fake` on 2 × `NVIDIA H200 (143771 MiB)`, driver `580.159.04`.');
    expect(report).toContain('model-error');
    // The worker outlived the crashed server; the run's cleanup took it down.
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  }, 180_000);

  test('the CLI exits 3 (infrastructure), not 1 (gate), and in-flight instances are model errors', async () => {
    const { file, out, pidFile } = await crashingConfig('cli', 5, 2);
    let stderr = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) }, env: process.env };
    const code = await main(['run', '--config', file, '--out', out], io);
    const pids = await pidsFrom(pidFile);
    expect(code).toBe(3);
    expect(stderr).toContain('the run stopped early: the model server stopped answering');
    const runLog = JSON.parse(await readFile(path.join(out, 'run.json'), 'utf8')) as RunLog;
    expect(runLog.status).toBe('aborted');
    const outcomes = runLog.instances.map((r) => r.outcome);
    expect(outcomes).toHaveLength(6);
    expect(outcomes.filter((o) => o === 'model-error').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o === 'skipped').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.every((o) => ['passed', 'failed', 'model-error', 'skipped'].includes(o))).toBe(true);
    expect(existsSync(path.join(out, 'report.md'))).toBe(true);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  }, 180_000);
});

describe('comparing runs and the serving line of the report', () => {
  // Through the schema, so fields added to the run log later get their defaults here too.
  const base: RunLog = runLogSchema.parse({
    schemaVersion: RUN_LOG_VERSION,
    runId: 'r1',
    tool: { name: 'saboteur', version: '0.1.0' },
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:10:00Z',
    status: 'completed',
    config: { file: 'saboteur.yml', hash: 'a'.repeat(64), seed: 1 },
    model: {
      kind: 'vllm',
      model: 'Qwen/Qwen2.5-Coder-7B-Instruct',
      serverVersion: '0.8.5',
      sampling: { temperature: 0, maxTokens: 1024 },
      gpus: [{ name: 'NVIDIA H200', memoryMiB: 143771, driver: '580.159.04' }],
    },
    pipeline: { mode: 'process', command: 'python -m agents', concurrency: 4, timeoutMs: 120000 },
    variants: { malicious: { target: 'coder', method: 'autoinject', messageRate: 0.2, errorRate: 0.6, corruption: 'syntactic' } },
    sandbox: { isolation: 'bwrap', degraded: false },
    benchmarks: [],
    instances: [],
    notes: [],
  });

  test('same model, server and sampling: comparable', () => {
    expect(comparability(base, structuredClone(base))).toEqual([]);
    expect(comparabilityNote(base, structuredClone(base))).toBeUndefined();
  });

  test('every mismatch is listed', () => {
    const other = structuredClone(base);
    other.model.model = 'Qwen/Qwen2.5-Coder-14B-Instruct';
    other.model.serverVersion = '0.9.0';
    other.model.sampling = { temperature: 0.7, maxTokens: 1024, seed: 3 };
    expect(comparability(base, other)).toEqual([
      'model: Qwen/Qwen2.5-Coder-7B-Instruct vs Qwen/Qwen2.5-Coder-14B-Instruct',
      'vllm version: 0.8.5 vs 0.9.0',
      'sampling seed: (unset) vs 3',
      'sampling temperature: 0 vs 0.7',
    ]);
    const kind = structuredClone(base);
    kind.model.kind = 'sglang';
    expect(comparability(base, kind)).toEqual(['server kind: vllm vs sglang']);
    expect(comparabilityNote(base, other)).toMatch(/^> \[!NOTE\]\n> Not comparable with the base run: model: /);
  });

  test('the report header says what served the model', () => {
    expect(servingLine(base)).toBe('Served by vllm `0.8.5` on 1 × `NVIDIA H200 (143771 MiB)`, driver `580.159.04`.');
    const replay = structuredClone(base);
    replay.model = { kind: 'replay', sampling: {} };
    expect(servingLine(replay)).toBeUndefined();
    expect(renderReport(base)).toContain('Served by vllm `0.8.5` on 1 × `NVIDIA H200 (143771 MiB)`');
    expect(renderReport(replay)).not.toContain('Served by');
  });
});

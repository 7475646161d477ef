/**
 * The model servers saboteur runs in its own process under load, over real HTTP on 127.0.0.1:
 * a 300 MB body streamed to the replay server, the recorder and the embedded kind's server is
 * refused with a 413 while each keeps answering other calls, and this process grows by far less
 * than one body (the body is streamed from one 1 MiB buffer, never allocated whole); a call without the
 * server's own key gets a 401 (the key a pipeline holds is the proxy's, not the model's); a
 * `previous_response_id` chain that grows past the proxy's body limit is refused with a 413 and
 * a message, and one past the depth cap with a 400. The embedded engine on the tiny random model
 * refuses a 4 MB prompt before tokenising it, generates in a process of its own (its CPU time grows
 * with the work while this process's hardly does), and stops a generation that runs past its time
 * limit.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeTinyLlama } from '../../fixtures/models/tiny-llama.mjs';
import type { Config } from '../../src/config/load.js';
import { startModel, type ModelEndpoint } from '../../src/model/index.js';
import { sendResponsesAnswer } from '../../src/model/http-util.js';
import { closeServer, listenLocal, readBody } from '../../src/util/http.js';
import { startChatServer, type ChatServerHandle } from '../../src/model/servers/chat-server.js';
import { InvocationRegistry, startProxy, type ProxyHandle } from '../../src/proxy/index.js';
import { MAX_CHAIN_DEPTH } from '../../src/proxy/responses-route.js';
import { memoryLog } from '../../src/util/log.js';
import { processCpuMs } from '../helpers/processes.js';

const CASSETTE = path.resolve('fixtures/cassettes/basic.jsonl');
const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(MiB, 'a');

/** The CPU time this process has used (user + system, all threads), in ms. */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function parentOf(pid: number): number | undefined {
  try {
    return Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** POSTs `total` bytes in 1 MiB chunks (chunked encoding, no length announced); resolves with the answer, whatever happens to the rest of the upload. */
function streamHuge(url: string, key: string, total: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } },
      async (res) => {
        resolve({ status: res.statusCode ?? 0, text: (await readBody(res)).toString() });
      },
    );
    req.on('error', (err) => reject(err));
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += CHUNK.length;
        const first = sent === CHUNK.length;
        if (!req.write(first ? Buffer.concat([Buffer.from('{"messages":[{"role":"user","content":"'), CHUNK]) : CHUNK))
          return void req.once('drain', pump);
      }
      req.end('"}]}');
    };
    // A server that answered early and cut the upload leaves writes failing: that is the point.
    req.on('socket', (s) => s.on('error', () => undefined));
    pump();
  });
}

/** Another run's call: the model list (a generation would need a cassette entry of its own). */
function models(baseUrl: string, key: string): Promise<number> {
  return fetch(`${baseUrl}/models`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
}

function chat(baseUrl: string, key: string | undefined): Promise<number> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-saboteur-agent': 'coder', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({
      model: 'qwen-test',
      messages: [
        { role: 'system', content: 'You are the coder' },
        { role: 'user', content: 'Implement the function `add`.' },
      ],
    }),
  }).then((r) => r.status);
}

function modelConfig(over: Partial<Config['model']>): Config['model'] {
  return {
    kind: 'replay',
    args: [],
    env: {},
    startupTimeoutMs: 60_000,
    reuse: false,
    record: false,
    sampling: {},
    ...over,
  } as Config['model'];
}

let replay: ModelEndpoint;
let recording: ModelEndpoint;
let chatServer: ChatServerHandle;
let peakRss = 0;
let sampler: NodeJS.Timeout;

beforeAll(async () => {
  sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  replay = await startModel(modelConfig({ cassette: CASSETTE, model: 'qwen-test' }), memoryLog());
  // The recorder in front of the replay server, as `record: true` puts it in front of any server.
  process.env.SABOTEUR_BOUNDS_KEY = replay.apiKey;
  recording = await startModel(
    modelConfig({
      kind: 'external',
      baseUrl: replay.baseUrl,
      apiKeyEnv: 'SABOTEUR_BOUNDS_KEY',
      record: true,
      cassette: path.join(process.env.TMPDIR ?? '/tmp', `bounds-${process.pid}.jsonl`),
    }),
    memoryLog(),
  );
  chatServer = await startChatServer({
    modelName: 'm',
    owner: 'embedded (test)',
    log: memoryLog(),
    apiKey: 'sabm-test-key',
    generate: async () => ({ text: 'ok', finishReason: 'stop', promptTokens: 1, completionTokens: 1 }),
  });
});
afterAll(async () => {
  clearInterval(sampler);
  delete process.env.SABOTEUR_BOUNDS_KEY;
  await recording.close();
  await replay.close();
  await chatServer.close();
});

describe('the in-process model servers under a 300 MB body', () => {
  const servers = () => [
    { name: 'replay', baseUrl: replay.baseUrl, key: replay.apiKey!, who: 'the replay server' },
    { name: 'recorder', baseUrl: recording.baseUrl, key: recording.apiKey!, who: 'the recorder' },
    { name: 'embedded', baseUrl: chatServer.baseUrl, key: chatServer.apiKey!, who: 'embedded (test)' },
  ];

  it('each refuses it with a 413 and a message, answers other calls meanwhile, and this process grows by less than one body', async () => {
    // What this worker already holds depends on the test files it ran before (and on when its
    // collector last ran): the bound is on the growth during the uploads, from here.
    const baseline = process.memoryUsage().rss;
    peakRss = baseline;
    for (const s of servers()) {
      const big = streamHuge(`${s.baseUrl}/chat/completions`, s.key, 300 * MiB);
      // Another run's call while the upload goes on.
      expect(await models(s.baseUrl, s.key)).toBe(200);
      const answer = await big;
      expect({ server: s.name, status: answer.status }).toEqual({ server: s.name, status: 413 });
      expect(JSON.parse(answer.text).error).toMatchObject({
        code: 'request_too_large',
        message: `${s.who} refused the call: the request body is over the 32 MiB limit`,
      });
      expect(await models(s.baseUrl, s.key)).toBe(200);
    }
    const growth = peakRss - baseline;
    console.log(
      `RSS during three 300 MB uploads: ${Math.round(baseline / MiB)} MiB before, ${Math.round(growth / MiB)} MiB more at the peak`,
    );
    // One body held whole would be 286 MiB: none is.
    expect(growth).toBeLessThan(256 * MiB);
  }, 180_000);

  it("each wants its own key: none, or a pipeline's proxy key, gets a 401", async () => {
    for (const s of servers()) {
      expect(await chat(s.baseUrl, undefined)).toBe(401);
      expect(await chat(s.baseUrl, 'sab-0123456789abcdef01234567')).toBe(401);
      const health = await fetch(`${s.baseUrl.replace(/\/v1$/, '')}/health`);
      if (s.name !== 'recorder') expect(health.status).toBe(200);
    }
  });
});

describe('previous_response_id chains through the proxy', () => {
  let upstream: http.Server;
  let proxy: ProxyHandle;
  const registry = new InvocationRegistry();
  const seen: number[] = [];

  beforeAll(async () => {
    // A model that answers every Responses call with a short text, and notes how big each request was.
    upstream = http.createServer(async (req, res) => {
      const raw = await readBody(req);
      seen.push(raw.length);
      const body = JSON.parse(raw.toString()) as Record<string, unknown>;
      sendResponsesAnswer(
        res,
        {
          id: `resp_${seen.length}`,
          created: 0,
          model: 'm',
          content: 'noted',
          toolCalls: [],
          finishReason: 'stop',
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
        body,
      );
    });
    const port = await listenLocal(upstream);
    proxy = await startProxy({
      upstream: { baseUrl: `http://127.0.0.1:${port}/v1` },
      agents: [],
      registry,
      log: memoryLog(),
      maxBodyBytes: 256 * 1024,
    });
  });
  afterAll(async () => {
    await proxy.close();
    await closeServer(upstream);
  });

  const post = (key: string, body: Record<string, unknown>) =>
    fetch(`${proxy.baseUrl}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { id?: string; error?: { message: string; code: string | null } },
    }));

  it('each request under the limit, the conversation past it: 413 with a message, nothing that big sent upstream', async () => {
    const inv = registry.open({ instanceId: 'chain', benchmark: 'b', variant: 'malicious' });
    const piece = 'x'.repeat(40 * 1024);
    let previous: string | undefined;
    let refused: { status: number; body: { error?: { message: string; code: string | null } } } | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await post(inv.key, { model: 'm', input: piece, ...(previous ? { previous_response_id: previous } : {}) });
      if (r.status === 200) previous = r.body.id;
      else refused = r;
    }
    expect(refused?.status).toBe(413);
    expect(refused!.body.error!.code).toBe('request_too_large');
    expect(refused!.body.error!.message).toMatch(
      /^saboteur proxy: the conversation previous_response_id "resp_\d+" expands to is over the 256 KiB limit|^saboteur proxy: the conversation previous_response_id "resp_\d+" expands to is over the 262144 bytes limit/,
    );
    expect(Math.max(...seen)).toBeLessThan(256 * 1024 + 4096);
    const calls = registry.close(inv.key);
    expect(calls.at(-1)).toMatchObject({ status: 413, error: expect.stringContaining('expands to is over') });
  });

  it(`a chain of more than ${MAX_CHAIN_DEPTH} responses is refused with a 400 naming the cap`, async () => {
    const inv = registry.open({ instanceId: 'deep-chain', benchmark: 'b', variant: 'malicious' });
    let previous: string | undefined;
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i <= MAX_CHAIN_DEPTH + 1; i++) {
      last = await post(inv.key, { model: 'm', input: 'go on', ...(previous ? { previous_response_id: previous } : {}) });
      if (last.status !== 200) break;
      previous = last.body.id;
    }
    expect(last!.status).toBe(400);
    expect(last!.body.error!.message).toContain(
      `would chain ${MAX_CHAIN_DEPTH + 1} responses, more than the ${MAX_CHAIN_DEPTH} saboteur's proxy follows`,
    );
    registry.close(inv.key);
  });
});

describe('the embedded engine (the tiny model, real llama.cpp) under a 4 MB prompt', () => {
  it("refuses it before tokenising; generates in its own process, not on saboteur's thread; other calls are answered; a generation past its time is stopped", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-bounds-'));
    const gguf = path.join(dir, 'tiny.gguf');
    writeTinyLlama(gguf, { seed: 1 });
    const engines: number[] = [];
    const ep = await startModel(
      modelConfig({
        kind: 'embedded',
        model: gguf,
        // A context 8 times the model's own: room for a generation of 32,000 tokens, minutes of CPU
        // on any machine, so the 3 s limit below ends it however fast the machine is.
        args: ['--threads', '1', '--ctx-size', '32768'],
        startupTimeoutMs: 240_000,
        sampling: { temperature: 0, maxTokens: 8 },
      }),
      memoryLog(),
      {
        configDir: dir,
        nvidiaSmi: path.join(dir, 'none'),
        generationTimeoutMs: 3000,
        ledger: { started: (p) => void engines.push(p.pid), stopped: () => undefined },
      },
    );
    // The longest the event loop went without a turn while the engine worked: printed, not asserted
    // (a loaded machine delays any timer; what shows the engine is off this thread is its CPU below).
    let worstLag = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      worstLag = Math.max(worstLag, performance.now() - last);
      last = performance.now();
    }, 10);
    const ask = (content: string, maxTokens = 8) =>
      fetch(`${ep.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ep.apiKey}` },
        body: JSON.stringify({ model: 'tiny', max_tokens: maxTokens, messages: [{ role: 'user', content }] }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string; message: string } } }));
    try {
      // The engine is a process of its own, a child of this one.
      expect(engines).toHaveLength(1);
      const engine = engines[0];
      expect(engine).not.toBe(process.pid);
      expect(parentOf(engine)).toBe(process.pid);

      const huge = ask('7'.repeat(4 * MiB));
      const small = ask('Say hello.');
      const [h, s] = await Promise.all([huge, small]);
      expect(h.status).toBe(400);
      expect(h.body.error).toMatchObject({ code: 'context_length_exceeded' });
      expect(h.body.error!.message).toMatch(
        /the prompt is 4194304 characters, more than the model's context of \d+ tokens can hold .*refused before tokenising/,
      );
      expect(s.status).toBe(200);

      // Greedy decoding of this model repeats a digit and never stops on its own: the 3 s limit ends it.
      const engineBefore = processCpuMs(engine)!;
      const ownBefore = ownCpuMs();
      const long = await ask('Go on.', 32_000);
      const engineCpu = processCpuMs(engine)! - engineBefore;
      const ownCpu = ownCpuMs() - ownBefore;
      expect(long.status).toBe(504);
      expect(long.body.error!.message).toMatch(/ran past its time limit/);
      console.log(
        `generation to its time limit: the engine used ${Math.round(engineCpu)} ms of CPU, this process ${Math.round(ownCpu)} ms; ` +
          `event loop: longest gap ${Math.round(worstLag)} ms`,
      );
      // The generation's work shows in the engine's CPU time; this process, which only waited for the
      // answer (and keeps its timers turning), used less. Were the tokens computed here, on the
      // event loop or any thread of this process, it would be the other way round, however loaded
      // the machine: the engine generates all the while, this process only handles a few messages.
      expect(engineCpu).toBeGreaterThan(0);
      expect(ownCpu).toBeLessThan(engineCpu);
      expect((await ask('Again.')).status).toBe(200);
    } finally {
      clearInterval(ticker);
      await ep.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

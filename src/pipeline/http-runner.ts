/**
 * Http mode (docs/pipeline-contract.md, "The pipeline contract"): the pipeline is a long-lived service. `start()`
 * launches `pipeline.serve` (http-service.ts), once, or once per variant when it takes a `{port}`,
 * and waits until each answers; `run()` POSTs each task to its variant's `pipeline.url` over
 * keep-alive connections; `stop()` kills each service's group and with it the fence.
 */
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { allowlistedBaseEnv, type SharedContract } from './env.js';
import { STDERR_TAIL_BYTES, validateOutput } from './output.js';
import { DEFAULT_KILL_GRACE_MS } from './process-group.js';
import { announceFence, detectFence, type Fence } from './fence.js';
import { freePort, PipelineService, PORT_PLACEHOLDER } from './http-service.js';
import type { PipelineConfig, PipelineInput, PipelineResult, PipelineRunner, RunnerOptions } from './types.js';

export { fileTail } from './http-service.js';

const RESPONSE_LIMIT = 16 << 20;
const POLL_REQUEST_TIMEOUT_MS = 2000;
const SERVE_EXIT_WAIT_MS = 1000;

class RequestTimeout extends Error {}
class ResponseTooLarge extends Error {}

export interface HttpAnswer {
  status: number;
  body: string;
}

/** One request; rejects with RequestTimeout past `timeoutMs`, with the socket error otherwise. */
function request(
  url: URL,
  options: { method: string; headers?: Record<string, string>; body?: string; agent: http.Agent | false; timeoutMs: number },
): Promise<HttpAnswer> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = lib.request(url, { method: options.method, headers: options.headers, agent: options.agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > RESPONSE_LIMIT) {
          settle(() => reject(new ResponseTooLarge(`the response is over the ${RESPONSE_LIMIT >> 20} MiB limit`)));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })));
      res.on('error', (err) => settle(() => reject(err)));
    });
    const timer = setTimeout(() => {
      settle(() => reject(new RequestTimeout(`no answer within ${options.timeoutMs} ms`)));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => {
      // A keep-alive socket the server closed just as we reused it: the request never reached it.
      (err as Error & { reusedSocket?: boolean }).reusedSocket = req.reusedSocket;
      settle(() => reject(err));
    });
    req.end(options.body);
  });
}

function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}

/** Where the tasks of one variant (or of both, with one shared service) go. */
export interface Endpoint {
  /** "control", "malicious", or "shared". */
  name: string;
  url: URL;
  readyUrl?: URL;
  service?: PipelineService;
}

/** What one http runner keeps: its config, the keep-alive agent, the endpoints (and services) started. */
export interface HttpRunnerState {
  pipeline: PipelineConfig;
  opts: RunnerOptions;
  graceMs: number;
  baseEnv: Record<string, string>;
  /**
   * One service per variant when pipeline.serve takes a {port}: the control and malicious runs
   * then share no process, memory or folder (docs/security.md, "One road to the model").
   */
  perVariant: boolean;
  agent: http.Agent;
  endpoints: Map<string, Endpoint>;
  fence?: Fence;
}

/** The template with its `{port}` filled in (unchanged when there is no port). */
function fillPort(template: string, port?: number): string {
  return port === undefined ? template : template.replace(PORT_PLACEHOLDER, String(port));
}

/** The endpoint of one variant (or the shared one), with its service launched when pipeline.serve is set. */
async function endpointFor(st: HttpRunnerState, name: string, shared: SharedContract): Promise<Endpoint> {
  const { pipeline, opts, perVariant } = st;
  const port = perVariant ? await freePort() : undefined;
  const ep: Endpoint = {
    name,
    url: new URL(fillPort(pipeline.url!, port)),
    ...(pipeline.readyUrl ? { readyUrl: new URL(fillPort(pipeline.readyUrl, port)) } : {}),
  };
  if (pipeline.serve) {
    if (!st.fence) {
      st.fence = await (opts.fence ?? detectFence());
      announceFence(st.fence, opts.log);
    }
    ep.service = new PipelineService({
      command: fillPort(pipeline.serve, port),
      label: perVariant ? `pipeline.serve (${name})` : 'pipeline.serve',
      logPath: path.join(opts.workDir, perVariant ? `pipeline-serve-${name}.log` : 'pipeline-serve.log'),
      cwd: pipeline.cwd,
      baseEnv: st.baseEnv,
      fence: st.fence,
      hostEnv: opts.hostEnv ?? process.env,
      ownDirs: [opts.workDir],
      warn: (m) => opts.log.warn(m),
      limits: pipeline.limits,
    });
    await ep.service.launch(shared);
  }
  return ep;
}

/** Ready once any candidate answers below 500; throws when the service dies or the time is up. */
async function waitReady(st: HttpRunnerState, ep: Endpoint): Promise<void> {
  const { pipeline, graceMs } = st;
  const candidates = ep.readyUrl ? [ep.readyUrl] : [ep.url, new URL('/health', ep.url)];
  const deadline = Date.now() + pipeline.readyTimeoutMs;
  let lastProblem = 'no answer yet';
  let pause = 50;
  for (;;) {
    for (const candidate of candidates) {
      if (ep.service?.exited) {
        const why = await ep.service.gone();
        await ep.service.stop(graceMs); // what it started in the background goes too
        throw new Error(`pipeline.serve stopped before ${candidate.href} answered: ${why}`);
      }
      try {
        const answer = await request(candidate, { method: 'GET', agent: false, timeoutMs: POLL_REQUEST_TIMEOUT_MS });
        if (answer.status < 500) return;
        lastProblem = `${candidate.href} answered HTTP ${answer.status}`;
      } catch (err) {
        lastProblem = `${candidate.href}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
      }
    }
    if (Date.now() >= deadline) {
      const tail = ep.service ? `; the end of its log:\n${(await ep.service.gone()).split('\n').slice(1).join('\n')}` : '';
      await ep.service?.stop(graceMs);
      throw new Error(
        `pipeline.ready-timeout: the pipeline service${st.perVariant ? ` (${ep.name})` : ''} was not ready within ${pipeline.readyTimeoutMs} ms (${lastProblem})${tail}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
    pause = Math.min(pause * 2, 500);
  }
}

/** POSTs one task; a keep-alive socket the service had just closed is retried once, within the same deadline. */
async function post(st: HttpRunnerState, ep: Endpoint, input: PipelineInput): Promise<HttpAnswer> {
  const { pipeline, agent } = st;
  const body = JSON.stringify({
    task: input.task,
    apiKey: input.apiKey,
    variant: input.variant,
    maliciousAgent: input.variant === 'malicious' ? input.maliciousAgent : undefined,
    model: input.model,
    openaiBaseUrl: input.proxyBaseUrl,
    mcpUrl: input.mcpUrl,
    otlpEndpoint: input.otlpEndpoint,
  });
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Authorization: `Bearer ${input.apiKey}`,
    'X-Saboteur-Variant': input.variant,
    'X-Saboteur-Task': headerSafe(input.task.id),
  };
  const deadline = Date.now() + pipeline.timeoutMs;
  try {
    return await request(ep.url, { method: 'POST', headers, body, agent, timeoutMs: pipeline.timeoutMs });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
    if (!(e.reusedSocket && e.code === 'ECONNRESET')) throw err;
    return request(ep.url, { method: 'POST', headers, body, agent, timeoutMs: Math.max(1, deadline - Date.now()) });
  }
}

/** What an answer says, as the run records it. */
export function answerResult(url: URL, answer: HttpAnswer, elapsed: number): PipelineResult {
  if (answer.status < 200 || answer.status >= 300) {
    return {
      status: 'crash',
      error: `${url.href} answered HTTP ${answer.status}`,
      stderrTail: answer.body.slice(-STDERR_TAIL_BYTES) || undefined,
      durationMs: elapsed,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch (err) {
    return {
      status: 'bad-output',
      error: `the response of ${url.href} is not valid JSON (${(err as Error).message}); it starts with ${JSON.stringify(answer.body.slice(0, 80))}`,
      durationMs: elapsed,
    };
  }
  const parsed = validateOutput(value, `the response of ${url.href}`);
  if (!parsed.ok) return { status: 'bad-output', error: parsed.error, durationMs: elapsed };
  return { status: 'ok', output: parsed.output, durationMs: elapsed };
}

/** What a POST that got no answer means: a timeout, an answer too large, the service gone, or a failed connection. */
async function failedPost(st: HttpRunnerState, ep: Endpoint, err: unknown, elapsed: () => number): Promise<PipelineResult> {
  const url = ep.url;
  if (err instanceof RequestTimeout) {
    return { status: 'timeout', error: `${url.href} did not answer within ${st.pipeline.timeoutMs} ms`, durationMs: elapsed() };
  }
  if (err instanceof ResponseTooLarge) return { status: 'bad-output', error: `${url.href}: ${err.message}`, durationMs: elapsed() };
  // A service dying mid-request resets the socket a moment before its exit is reported.
  const svc = ep.service;
  if (svc && !svc.exited) await Promise.race([svc.settled(), new Promise((resolve) => setTimeout(resolve, SERVE_EXIT_WAIT_MS))]);
  if (svc?.exited) return { status: 'crash', error: await svc.gone(), durationMs: elapsed() };
  const e = err as NodeJS.ErrnoException;
  return { status: 'error', error: `POST ${url.href} failed: ${e.code ? `${e.code} ` : ''}${e.message}`, durationMs: elapsed() };
}

async function stopAll(st: HttpRunnerState, grace = st.graceMs): Promise<void> {
  await Promise.all([...st.endpoints.values()].map((ep) => ep.service?.stop(grace)));
}

/** Starts the service(s) and waits until each answers; on any failure every one started is stopped. */
async function startHttpRunner(st: HttpRunnerState, shared: SharedContract): Promise<void> {
  const { pipeline, endpoints, perVariant } = st;
  if (!pipeline.url) throw new Error('pipeline.url: http mode needs the url each task is POSTed to (e.g. url: http://127.0.0.1:9000/run)');
  const names = perVariant ? ['control', 'malicious'] : ['shared'];
  try {
    for (const name of names) {
      const ep = endpoints.get(name) ?? (await endpointFor(st, name, shared));
      endpoints.set(name, ep);
    }
    await Promise.all([...endpoints.values()].map((ep) => waitReady(st, ep)));
  } catch (err) {
    await stopAll(st);
    endpoints.clear();
    throw err;
  }
  if (pipeline.serve && !perVariant)
    st.opts.log.info(
      'pipeline.serve: one service answers both variants (write {port} in pipeline.serve and pipeline.url to start one per variant)',
    );
}

async function runTask(st: HttpRunnerState, input: PipelineInput): Promise<PipelineResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const ep = st.endpoints.get(st.perVariant ? input.variant : 'shared');
  if (!ep) return { status: 'error', error: 'pipeline.url is not set, or the runner was not started', durationMs: 0 };
  let answer: HttpAnswer;
  try {
    answer = await post(st, ep, input);
  } catch (err) {
    return failedPost(st, ep, err, elapsed);
  }
  return answerResult(ep.url, answer, elapsed());
}

export function createHttpRunner(pipeline: PipelineConfig, opts: RunnerOptions): PipelineRunner {
  const agentOptions = { keepAlive: true, maxSockets: Math.max(1, pipeline.concurrency) * 2 };
  const secure = pipeline.url?.startsWith('https:') ?? false;
  const st: HttpRunnerState = {
    pipeline,
    opts,
    graceMs: opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    baseEnv: allowlistedBaseEnv(pipeline, opts),
    perVariant: pipeline.serve?.includes('{port}') ?? false,
    agent: secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions),
    endpoints: new Map(),
  };
  return {
    get servePids() {
      return [...st.endpoints.values()].flatMap((ep) => (ep.service?.pid !== undefined ? [ep.service.pid] : []));
    },
    get fence() {
      return st.fence;
    },
    start: (shared = {}) => startHttpRunner(st, shared),
    run: (input) => runTask(st, input),
    async stop(stopOpts) {
      st.agent.destroy();
      await stopAll(st, stopOpts?.graceMs);
      st.endpoints.clear();
    },
  };
}

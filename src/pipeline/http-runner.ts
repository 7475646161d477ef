/**
 * Http mode (docs/pipeline-contract.md, "The pipeline contract"): the pipeline is a long-lived service. `start()`
 * launches `pipeline.serve` once, inside the fence (its own pid namespace: everything it starts
 * dies with it), in its own process group, output to workDir/pipeline-serve.log, and waits until
 * it answers; `run()` POSTs each task to `pipeline.url` over keep-alive connections; `stop()`
 * kills the group and with it the fence.
 */
import http from 'node:http';
import https from 'node:https';
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { allowlistedBaseEnv, privateHomeEnv, sharedContractEnv, type SharedContract } from './env.js';
import { STDERR_TAIL_BYTES, validateOutput } from './output.js';
import { DEFAULT_KILL_GRACE_MS, terminateGroup, trackGroup, untrackGroup } from './process-group.js';
import { announceFence, detectFence, type Fence, type FencedCommand } from './fence.js';
import { collectFenceView } from './fence-view.js';
import type { PipelineConfig, PipelineInput, PipelineRunner, RunnerOptions } from './types.js';

const RESPONSE_LIMIT = 16 << 20;
const POLL_REQUEST_TIMEOUT_MS = 2000;
const SERVE_EXIT_WAIT_MS = 1000;

class RequestTimeout extends Error {}
class ResponseTooLarge extends Error {}

interface HttpAnswer {
  status: number;
  body: string;
}

/** The last `bytes` of a file, read without loading it whole. */
export async function fileTail(file: string, bytes = STDERR_TAIL_BYTES): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, bytes);
      const buf = Buffer.alloc(length);
      await handle.read(buf, 0, length, size - length);
      return buf.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
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

export function createHttpRunner(pipeline: PipelineConfig, opts: RunnerOptions): PipelineRunner {
  const graceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const baseEnv = allowlistedBaseEnv(pipeline, opts);
  const url = pipeline.url ? new URL(pipeline.url) : undefined;
  const agentOptions = { keepAlive: true, maxSockets: Math.max(1, pipeline.concurrency) * 2 };
  const agent = url?.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const logPath = path.join(opts.workDir, 'pipeline-serve.log');

  /** The started service: resolves (never rejects) when it exits. */
  let serve: Promise<{ exitCode?: number; signal?: string; shortMessage?: string; message?: string }> | undefined;
  let servePid: number | undefined;
  let serveExit: { code?: number; signal?: string } | undefined;
  let fence: Fence | undefined;
  let fenced: FencedCommand | undefined;
  /** The service's own folder (its HOME and TMPDIR) and the sanitized git configs, removed at stop. */
  let serveRoot: string | undefined;

  async function serveGone(): Promise<string> {
    const how = serveExit?.signal ? `was killed by ${serveExit.signal}` : `exited with code ${serveExit?.code}`;
    return `pipeline.serve ${how}; the end of ${logPath}:\n${await fileTail(logPath)}`;
  }

  function launchServe(command: string, shared: SharedContract): void {
    mkdirSync(opts.workDir, { recursive: true });
    serveExit = undefined;
    // The service writes to the log file itself (not through saboteur's event loop). execa's
    // types name only literal fds; any open fd works at runtime.
    const fd = openSync(logPath, 'w') as 3;
    serveRoot = mkdtempSync(path.join(tmpdir(), 'saboteur-serve-'));
    // The uid fence: the service's uid must pass through to its own folder.
    if (fence!.kind === 'uid') chmodSync(serveRoot, 0o711);
    const privateDir = path.join(serveRoot, 'run');
    for (const d of [privateDir, path.join(privateDir, 'home'), path.join(privateDir, 'tmp')]) mkdirSync(d, { mode: 0o700 });
    const view =
      fence!.kind === 'bwrap'
        ? collectFenceView({
            hostEnv: opts.hostEnv ?? process.env,
            cwd: pipeline.cwd,
            ownDirs: [serveRoot, opts.workDir],
            scratchDir: path.join(serveRoot, 'git-configs'),
          })
        : undefined;
    fenced = fence!.enter(command, { privateDir, view });
    try {
      if (fenced.uid !== undefined)
        for (const d of [privateDir, path.join(privateDir, 'home'), path.join(privateDir, 'tmp')]) chownSync(d, fenced.uid, fenced.uid);
      const subprocess = execa(fenced.file, fenced.args, {
        cwd: pipeline.cwd,
        env: { ...baseEnv, ...privateHomeEnv(privateDir), ...sharedContractEnv(shared) },
        extendEnv: false,
        detached: true,
        cleanup: false,
        stdin: 'ignore',
        stdout: fd,
        stderr: fd,
        buffer: false,
        reject: false,
      });
      serve = subprocess;
      servePid = subprocess.pid;
    } finally {
      closeSync(fd); // the service has its own copy
    }
    if (servePid !== undefined) trackGroup(servePid);
    void serve!.then((result) => {
      serveExit = { code: result.exitCode, signal: result.signal };
    });
  }

  /** Ready once any candidate answers below 500; throws when the service dies or the time is up. */
  async function waitReady(): Promise<void> {
    const candidates = pipeline.readyUrl ? [new URL(pipeline.readyUrl)] : [url!, new URL('/health', url!)];
    const deadline = Date.now() + pipeline.readyTimeoutMs;
    let lastProblem = 'no answer yet';
    let pause = 50;
    for (;;) {
      for (const candidate of candidates) {
        if (serveExit) {
          const why = await serveGone();
          await stopServe(); // what it started in the background goes too
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
        const tail = serve ? `; the end of ${logPath}:\n${await fileTail(logPath)}` : '';
        await stopServe();
        throw new Error(
          `pipeline.ready-timeout: the pipeline service was not ready within ${pipeline.readyTimeoutMs} ms (${lastProblem})${tail}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
      pause = Math.min(pause * 2, 500);
    }
  }

  async function stopServe(grace = graceMs): Promise<void> {
    if (servePid !== undefined) {
      await terminateGroup(servePid, grace);
      await serve;
      untrackGroup(servePid);
      servePid = undefined;
    }
    if (fenced) {
      await fenced.sweep();
      fenced.release();
      fenced = undefined;
    }
    if (serveRoot) rmSync(serveRoot, { recursive: true, force: true });
    serveRoot = undefined;
  }

  async function post(input: PipelineInput): Promise<HttpAnswer> {
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
      return await request(url!, { method: 'POST', headers, body, agent, timeoutMs: pipeline.timeoutMs });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
      if (!(e.reusedSocket && e.code === 'ECONNRESET')) throw err;
      return request(url!, { method: 'POST', headers, body, agent, timeoutMs: Math.max(1, deadline - Date.now()) });
    }
  }

  return {
    get servePid() {
      return servePid;
    },
    get fence() {
      return fence;
    },
    async start(shared = {}) {
      if (!url) throw new Error('pipeline.url: http mode needs the url each task is POSTed to (e.g. url: http://127.0.0.1:9000/run)');
      if (pipeline.serve && servePid === undefined) {
        if (!fence) {
          fence = await (opts.fence ?? detectFence());
          announceFence(fence, opts.log);
        }
        launchServe(pipeline.serve, shared);
        if (servePid === undefined) {
          const result = await serve!;
          await stopServe();
          throw new Error(`pipeline.serve could not be started: ${result.shortMessage ?? result.message}`);
        }
      }
      await waitReady();
    },
    async run(input) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      if (!url) return { status: 'error', error: 'pipeline.url is not set', durationMs: 0 };
      let answer: HttpAnswer;
      try {
        answer = await post(input);
      } catch (err) {
        if (err instanceof RequestTimeout) {
          return { status: 'timeout', error: `${url.href} did not answer within ${pipeline.timeoutMs} ms`, durationMs: elapsed() };
        }
        if (err instanceof ResponseTooLarge) return { status: 'bad-output', error: `${url.href}: ${err.message}`, durationMs: elapsed() };
        // A service dying mid-request resets the socket a moment before its exit is reported.
        if (serve && !serveExit) await Promise.race([serve, new Promise((resolve) => setTimeout(resolve, SERVE_EXIT_WAIT_MS))]);
        if (serveExit) return { status: 'crash', error: await serveGone(), durationMs: elapsed() };
        const e = err as NodeJS.ErrnoException;
        return { status: 'error', error: `POST ${url.href} failed: ${e.code ? `${e.code} ` : ''}${e.message}`, durationMs: elapsed() };
      }
      if (answer.status < 200 || answer.status >= 300) {
        return {
          status: 'crash',
          error: `${url.href} answered HTTP ${answer.status}`,
          stderrTail: answer.body.slice(-STDERR_TAIL_BYTES) || undefined,
          durationMs: elapsed(),
        };
      }
      let value: unknown;
      try {
        value = JSON.parse(answer.body);
      } catch (err) {
        return {
          status: 'bad-output',
          error: `the response of ${url.href} is not valid JSON (${(err as Error).message}); it starts with ${JSON.stringify(answer.body.slice(0, 80))}`,
          durationMs: elapsed(),
        };
      }
      const parsed = validateOutput(value, `the response of ${url.href}`);
      if (!parsed.ok) return { status: 'bad-output', error: parsed.error, durationMs: elapsed() };
      return { status: 'ok', output: parsed.output, durationMs: elapsed() };
    },
    async stop(stopOpts) {
      agent.destroy();
      await stopServe(stopOpts?.graceMs);
    },
  };
}

/**
 * `saboteur run` (built from the source) as a subprocess while its pipeline floods it: a 300 MB
 * body streamed to the proxy, then a previous_response_id chain grown until the proxy refuses it.
 * saboteur's peak RSS (VmHWM) stays under 1 GiB, and a SIGTERM in the middle writes run.json
 * (status cancelled) and exits 143.
 *
 * The pipelines report what they got to a server of the test and then hang until they are killed,
 * so the test waits for those reports, not for time to pass, and the run ends only by the SIGTERM.
 * How long saboteur took to exit after it is printed, not asserted: the waits here are hang guards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { parseRunLog } from '../../src/runlog/schema.js';
import { startLocalServer } from '../helpers/local-server.js';
import { processesWithEnv } from '../helpers/processes.js';
import { writeTinyLlama } from '../../fixtures/models/tiny-llama.mjs';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'saboteur-flood-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function peakRssKiB(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

interface Run {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once saboteur has exited. */
  exited: Promise<number | null>;
  /** Whether saboteur has exited. */
  gone: () => boolean;
}

/** `saboteur run` in a process group of its own (so a stuck one can be killed whole). */
async function startRun(config: string, out: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, [await bundled('cli'), 'run', '--config', config, '--out', out], {
    // This test file's own temp folder: the run's scratch folders are nobody else's to see.
    env: { PATH: process.env.PATH, HOME: dir, TMPDIR: process.env.TMPDIR, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let gone = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      gone = true;
      resolve(code);
    }),
  );
  return { child, output: () => output, exited, gone: () => gone };
}

/** How long saboteur may take to exit after SIGTERM before the test calls it stuck: a hang guard only. */
const EXIT_HANG_GUARD_MS = 120_000;

function killGroup(run: Run): void {
  try {
    process.kill(-run.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Waits until `check` holds while the run goes on. A run that exits first fails at once; past
 * `limitMs` (a hang guard, shorter than the test's own timeout) the run is killed and the test fails,
 * naming what it waited for; either way with the end of saboteur's output.
 */
async function waitDuringRun(run: Run, check: () => boolean, what: string, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (run.gone()) throw new Error(`saboteur exited before ${what}:\n${run.output().slice(-3000)}`);
    if (Date.now() > end) {
      killGroup(run);
      throw new Error(`gave up waiting for ${what} (hang guard):\n${run.output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * After a failed check: a run still going is stopped (SIGTERM, so it stops what it started), and
 * whatever still carries the run's FLOOD_REPORT then (saboteur, hanging pipelines) is killed.
 */
async function stopLeftovers(run: Run | undefined, reportUrl: string): Promise<void> {
  if (run && !run.gone()) {
    process.kill(run.child.pid!, 'SIGTERM');
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([run.exited, new Promise((resolve) => (guard = setTimeout(resolve, EXIT_HANG_GUARD_MS)))]);
    clearTimeout(guard);
    killGroup(run);
  }
  for (const pid of processesWithEnv('FLOOD_REPORT', reportUrl)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** SIGTERM to a run: it must exit 143 with run.json written, status cancelled. */
async function expectCancelled(run: Run, out: string): Promise<void> {
  const t0 = Date.now();
  process.kill(run.child.pid!, 'SIGTERM');
  let guard: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((resolve) => (guard = setTimeout(() => resolve('stuck'), EXIT_HANG_GUARD_MS)));
  const code = await Promise.race([run.exited, stuck]).finally(() => clearTimeout(guard));
  if (code === 'stuck') {
    killGroup(run);
    throw new Error(`saboteur had not exited ${EXIT_HANG_GUARD_MS} ms after SIGTERM (killed):\n${run.output().slice(-3000)}`);
  }
  console.log(`exited ${Date.now() - t0} ms after SIGTERM`);
  expect(code).toBe(143);
  expect(existsSync(path.join(out, 'run.json'))).toBe(true);
  expect(parseRunLog(readFileSync(path.join(out, 'run.json'), 'utf8'), 'run.json').status).toBe('cancelled');
}

describe('a pipeline that floods saboteur', () => {
  it('saboteur stays under 1 GiB and SIGTERM writes run.json', async () => {
    const cassette = path.join(dir, 'cassette.jsonl');
    writeFileSync(
      cassette,
      `${JSON.stringify({ match: { endpoint: 'responses' }, response: { content: 'noted' } })}\n${JSON.stringify({ match: {}, response: { content: 'ok' } })}\n`,
    );
    const reports: { chain: { step: number; status: number; error: string } | string }[] = [];
    const reporter = await startLocalServer((_path, body) => {
      reports.push(JSON.parse(body) as (typeof reports)[number]);
      return '';
    });
    const config = path.join(dir, 'saboteur.yml');
    const out = path.join(dir, 'out');
    // The pipelines hang once they have reported: the timeout is far past the test's own.
    writeFileSync(
      config,
      `model: { kind: replay, cassette: ${cassette}, model: m }
pipeline:
  run: node ${repoRoot}/fixtures/pipelines/flood.mjs
  cwd: ${repoRoot}
  timeout: 1h
  concurrency: 2
  env: [FLOOD_REPORT]
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 2 }
`,
    );
    let run: Run | undefined;
    try {
      const started = (run = await startRun(config, out, { FLOOD_REPORT: reporter.url }));
      const tooLarge = () => (started.output().match(/over the 32 MiB limit/g) ?? []).length;
      // Both pipelines have sent their 300 MB (the proxy warns of each 413), then grown their chains
      // until the proxy refused one (each reports that refusal).
      await waitDuringRun(
        run,
        () => tooLarge() >= 2 && reports.length >= 2,
        'both pipelines to be refused their 300 MB and their chain',
        480_000,
      );
      expect(tooLarge()).toBe(2);
      expect(reports).toEqual([
        { chain: { step: expect.any(Number), status: 413, error: expect.stringMatching(/over the 32 MiB limit of a request body/) } },
        { chain: { step: expect.any(Number), status: 413, error: expect.stringMatching(/over the 32 MiB limit of a request body/) } },
      ]);
      console.log(`chains refused at steps ${reports.map((r) => (typeof r.chain === 'string' ? r.chain : r.chain.step)).join(', ')}`);
      const peak = peakRssKiB(run.child.pid!);
      console.log(`saboteur peak RSS under the flood: ${Math.round(peak / 1024)} MiB`);
      expect(peak).toBeLessThan(1024 * 1024);
      await expectCancelled(run, out);
    } finally {
      await stopLeftovers(run, reporter.url);
      await reporter.close();
    }
  }, 600_000);

  it('a 4 MB prompt to the embedded engine: refused, other calls answered, saboteur under 1 GiB, SIGTERM writes run.json', async () => {
    const gguf = path.join(dir, 'tiny.gguf');
    writeTinyLlama(gguf, { seed: 1 });
    const reports: { big: number; small: number }[] = [];
    const reporter = await startLocalServer((_path, body) => {
      reports.push(JSON.parse(body) as { big: number; small: number });
      return '';
    });
    const config = path.join(dir, 'embedded.yml');
    const out = path.join(dir, 'embedded-out');
    // The pipelines hang once they have reported: the timeout is far past the test's own.
    writeFileSync(
      config,
      `model: { kind: embedded, model: ${gguf}, args: [--threads, "1"], startup-timeout: 8m }
pipeline:
  run: FLOOD=prompt node ${repoRoot}/fixtures/pipelines/flood.mjs
  cwd: ${repoRoot}
  timeout: 1h
  concurrency: 2
  env: [FLOOD_REPORT]
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 2 }
`,
    );
    let run: Run | undefined;
    try {
      run = await startRun(config, out, { FLOOD_REPORT: reporter.url });
      await waitDuringRun(run, () => reports.length >= 2, 'both pipelines to report what their prompts got', 600_000);
      expect(reports).toEqual([
        { big: 400, small: 200 },
        { big: 400, small: 200 },
      ]);
      const peak = peakRssKiB(run.child.pid!);
      console.log(`saboteur peak RSS with a 4 MB prompt to the embedded engine: ${Math.round(peak / 1024)} MiB`);
      expect(peak).toBeLessThan(1024 * 1024);
      await expectCancelled(run, out);
    } finally {
      await stopLeftovers(run, reporter.url);
      await reporter.close();
    }
  }, 780_000);
});

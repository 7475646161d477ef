/**
 * `saboteur run` (built from the source) as a subprocess while its pipeline floods it: a 300 MB
 * body streamed to the proxy, then a previous_response_id chain grown until the proxy refuses it.
 * saboteur's peak RSS (VmHWM) stays under 1 GiB, and a SIGTERM in the middle writes run.json
 * (status cancelled) and exits 143 within 5 seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { parseRunLog } from '../../src/runlog/schema.js';
import { startLocalServer } from '../helpers/local-server.js';
import { writeTinyLlama } from '../../fixtures/models/tiny-llama.mjs';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'saboteur-flood-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function peakRssKiB(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

/**
 * SIGTERM to a run: it must exit 143 within 5 s with run.json written, status cancelled. A run
 * still alive after 10 s is killed so the test cannot hang.
 */
async function expectCancelledWithin5s(child: ChildProcess, exited: Promise<number | null>, out: string): Promise<void> {
  const t0 = Date.now();
  process.kill(child.pid!, 'SIGTERM');
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
  if (code === null) process.kill(-child.pid!, 'SIGKILL');
  const elapsed = Date.now() - t0;
  console.log(`exited ${elapsed} ms after SIGTERM`);
  expect(code).toBe(143);
  expect(elapsed).toBeLessThan(5000);
  expect(existsSync(path.join(out, 'run.json'))).toBe(true);
  expect(parseRunLog(readFileSync(path.join(out, 'run.json'), 'utf8'), 'run.json').status).toBe('cancelled');
}

describe('a pipeline that floods saboteur', () => {
  it('saboteur stays under 1 GiB and SIGTERM writes run.json within 5 s', async () => {
    const cassette = path.join(dir, 'cassette.jsonl');
    writeFileSync(
      cassette,
      `${JSON.stringify({ match: { endpoint: 'responses' }, response: { content: 'noted' } })}\n${JSON.stringify({ match: {}, response: { content: 'ok' } })}\n`,
    );
    const config = path.join(dir, 'saboteur.yml');
    const out = path.join(dir, 'out');
    writeFileSync(
      config,
      `model: { kind: replay, cassette: ${cassette}, model: m }
pipeline:
  run: node ${repoRoot}/fixtures/pipelines/flood.mjs
  cwd: ${repoRoot}
  timeout: 5m
  concurrency: 2
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 2 }
`,
    );
    const cli = await bundled('cli');
    const child = spawn(process.execPath, [cli, 'run', '--config', config, '--out', out], {
      env: { PATH: process.env.PATH, HOME: dir },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Both pipelines have sent their 300 MB (the proxy warns of each 413); then their chains grow for 20 s.
    const deadline = Date.now() + 120_000;
    while ((output.match(/over the 32 MiB limit/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((output.match(/over the 32 MiB limit/g) ?? []).length).toBe(2);
    await new Promise((r) => setTimeout(r, 20_000));
    const peak = peakRssKiB(child.pid!);
    console.log(`saboteur peak RSS under the flood: ${Math.round(peak / 1024)} MiB`);
    expect(peak).toBeLessThan(1024 * 1024);
    await expectCancelledWithin5s(child, exited, out);
  }, 240_000);

  it('a 4 MB prompt to the embedded engine: refused, other calls answered, saboteur under 1 GiB, SIGTERM writes run.json within 5 s', async () => {
    const gguf = path.join(dir, 'tiny.gguf');
    writeTinyLlama(gguf, { seed: 1 });
    const reports: { big: number; small: number }[] = [];
    const reporter = await startLocalServer((_path, body) => {
      reports.push(JSON.parse(body) as { big: number; small: number });
      return '';
    });
    const config = path.join(dir, 'embedded.yml');
    const out = path.join(dir, 'embedded-out');
    writeFileSync(
      config,
      `model: { kind: embedded, model: ${gguf}, args: [--threads, "1"], startup-timeout: 4m }
pipeline:
  run: FLOOD=prompt node ${repoRoot}/fixtures/pipelines/flood.mjs
  cwd: ${repoRoot}
  timeout: 5m
  concurrency: 2
  env: [FLOOD_REPORT]
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 2 }
`,
    );
    try {
      const child = spawn(process.execPath, [await bundled('cli'), 'run', '--config', config, '--out', out], {
        env: { PATH: process.env.PATH, HOME: dir, FLOOD_REPORT: reporter.url },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const deadline = Date.now() + 240_000;
      while (reports.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      if (reports.length < 2) process.kill(-child.pid!, 'SIGKILL');
      expect({ reports, output: reports.length < 2 ? output.slice(-3000) : '' }).toEqual({
        reports: [
          { big: 400, small: 200 },
          { big: 400, small: 200 },
        ],
        output: '',
      });
      const peak = peakRssKiB(child.pid!);
      console.log(`saboteur peak RSS with a 4 MB prompt to the embedded engine: ${Math.round(peak / 1024)} MiB`);
      expect(peak).toBeLessThan(1024 * 1024);
      await expectCancelledWithin5s(child, exited, out);
    } finally {
      await reporter.close();
    }
  }, 360_000);
});

/**
 * Cancelling a real run: `saboteur run` (built from the source) as a subprocess with a model
 * server it starts (the fake vLLM) and pipelines that hang after the first few, sent a real
 * SIGTERM or SIGINT mid-run and mid-start. It must write run.json and report.md with status
 * `cancelled` and what finished, leave no process of the run alive, and exit 143 / 130; the action's
 * main step does the same and its post step finds nothing left.
 *
 * The hanging pipelines never end on their own (and their timeout is far past the test's): a run
 * that waited for them instead of stopping them would never exit, and the test's own timeout would
 * fail it. Nothing here measures how long the cancellation took.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { startLocalServer, type LocalServer } from '../helpers/local-server.js';
import { eventually, processesWithEnv } from '../helpers/processes.js';
import { parseRunLog } from '../../src/runlog/schema.js';
import { parseCommandFile } from '../helpers/action-process.js';
import { PROCESSES_STATE } from '../../src/action/post.js';

let dir: string;
/**
 * Hands out ticket numbers per name (GET /NAME answers 0, 1, 2…): how each pipeline run learns
 * whether it is one of the first few. The runs are fenced from each other and from every folder
 * but their own, so they count over the (shared) network.
 */
let tickets: LocalServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'saboteur-cancel-'));
  const counts = new Map<string, number>();
  tickets = await startLocalServer((name) => {
    const n = counts.get(name) ?? 0;
    counts.set(name, n + 1);
    return String(n);
  });
});
/** The runs' marks: whatever still carries one after the tests (a test that failed midway) is killed. */
const marks: string[] = [];
afterAll(async () => {
  for (const mark of marks)
    for (const pid of processesWithEnv('CANCEL_MARK', mark)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  await tickets.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A config whose first `quick` pipeline runs answer at once and the rest hang until they are killed. */
function setup(name: string, opts: { quick?: number; serverEnv?: Record<string, string> } = {}) {
  const work = path.join(dir, name);
  mkdirSync(work, { recursive: true });
  const mark = `${name}-${process.pid}`;
  marks.push(mark);
  const ticket = `fetch(process.env.TICKETS).then((r) => r.text()).then((n) => process.stdout.write(n))`;
  const run = `n=$(node -e ${JSON.stringify(ticket)}) && node ${repoRoot}/fixtures/pipelines/chain.mjs && { [ "$n" -lt ${opts.quick ?? 4} ] || sleep infinity; }`;
  const config = path.join(work, 'saboteur.yml');
  writeFileSync(
    config,
    `model:
  kind: vllm
  model: fake/coder
  binary: ${repoRoot}/fixtures/servers/fake-vllm.mjs
  env: ${JSON.stringify({ CANCEL_MARK: mark, ...(opts.serverEnv ?? {}) })}
pipeline:
  run: ${JSON.stringify(run)}
  cwd: ${repoRoot}
  timeout: 1h
  concurrency: 2
  env: [CANCEL_MARK, TICKETS]
  agents:
    - { name: planner, match: { system: "You are the planner" } }
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl }
`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: work,
    // This test file's own temp folder: the run's scratch folders are nobody else's to see.
    TMPDIR: process.env.TMPDIR,
    CANCEL_MARK: mark,
    TICKETS: `${tickets.url}/${name}`,
  };
  return { work, config, env, mark, out: path.join(work, 'out') };
}

function start(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; done: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  // Its own process group, as a runner starts a step: the signal reaches nothing of jest's.
  const child = spawn(process.execPath, [file, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, done };
}

/** Waits for `check`; `withinMs` is only a hang guard (shorter than the tests' own timeouts, so it names what never came). */
async function until(check: () => boolean, what: string, withinMs = 200_000): Promise<void> {
  if (!(await eventually(check, withinMs))) throw new Error(`gave up waiting for ${what}`);
}

/** The hanging pipelines' `sleep infinity` processes (host pids) of the run marked `mark`. */
function hanging(mark: string): number[] {
  return processesWithEnv('CANCEL_MARK', mark).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
    } catch {
      return false;
    }
  });
}

/** Whether any of `pids` is still a living (not zombie) process. */
function anyAlive(pids: number[], mark: string): boolean {
  const living = new Set(processesWithEnv('CANCEL_MARK', mark));
  return pids.some((pid) => living.has(pid));
}

describe('saboteur run, cancelled', () => {
  it('SIGTERM mid-run: run.json and report.md hold what finished, status cancelled, nothing left running, exit 143', async () => {
    const s = setup('term');
    const cli = await bundled('cli');
    const run = start(cli, ['run', '--config', s.config, '--out', s.out], s.env);
    await until(() => /progress: 4\/16/.test(run.output()), 'four instance runs to finish');
    // The next two pipeline runs hang (concurrency 2): the run has something to stop.
    await until(() => hanging(s.mark).length === 2, 'two pipeline runs to hang');
    const hung = hanging(s.mark);
    process.kill(run.child.pid!, 'SIGTERM');
    // It exits at all only if it stopped the hanging pipelines rather than waiting for them.
    const { code } = await run.done;
    expect(code).toBe(143);
    expect(await eventually(() => !anyAlive(hung, s.mark))).toBe(true);

    const log = parseRunLog(readFileSync(path.join(s.out, 'run.json'), 'utf8'), 'run.json');
    expect(log.status).toBe('cancelled');
    expect(log.abortReason).toBe('cancelled by SIGTERM');
    const finished = log.instances.filter((r) => r.outcome !== 'skipped');
    expect(finished.length).toBeGreaterThanOrEqual(4);
    for (const r of finished) expect(['passed', 'failed']).toContain(r.outcome);
    const skipped = log.instances.filter((r) => r.outcome === 'skipped');
    expect(skipped.length + finished.length).toBe(16);
    for (const r of skipped) expect(r.error).toBe('not run: the run was cancelled by SIGTERM');
    const report = readFileSync(path.join(s.out, 'report.md'), 'utf8');
    expect(report).toContain('The run was cancelled by SIGTERM before it finished');
    expect(run.output()).toMatch(/SIGTERM: cancelling the run/);
    // The model server, the pipelines and what they started: all gone, the lock released.
    expect(await eventually(() => processesWithEnv('CANCEL_MARK', s.mark).length === 0)).toBe(true);
    expect(existsSync(path.join(s.out, '.saboteur.lock'))).toBe(false);
  }, 300_000);

  it('SIGINT while the model server is still starting: exit 130, a cancelled run log, the server stopped', async () => {
    const s = setup('int', { serverEnv: { FAKE_HANG: '1' } });
    const run = start(await bundled('cli'), ['run', '--config', s.config, '--out', s.out], s.env);
    await until(() => processesWithEnv('CANCEL_MARK', s.mark).length > 0 && /▸ Model/.test(run.output()), 'the model server to start');
    process.kill(run.child.pid!, 'SIGINT');
    const { code } = await run.done;
    expect(code).toBe(130);
    const log = parseRunLog(readFileSync(path.join(s.out, 'run.json'), 'utf8'), 'run.json');
    expect(log.status).toBe('cancelled');
    expect(log.abortReason).toBe('cancelled by SIGINT');
    expect(await eventually(() => processesWithEnv('CANCEL_MARK', s.mark).length === 0)).toBe(true);
  }, 300_000);
});

describe('the action, cancelled', () => {
  it('SIGTERM to the main step writes the files and the job summary, stops everything; the post step finds nothing left', async () => {
    const s = setup('action');
    const stateFile = path.join(s.work, 'state');
    const summary = path.join(s.work, 'summary');
    for (const f of [stateFile, summary, path.join(s.work, 'output')]) writeFileSync(f, '');
    const env: NodeJS.ProcessEnv = {
      ...s.env,
      GITHUB_STATE: stateFile,
      GITHUB_OUTPUT: path.join(s.work, 'output'),
      GITHUB_STEP_SUMMARY: summary,
      INPUT_CONFIG: s.config,
      'INPUT_OUT-DIR': s.out,
      RUNNER_TOOL_CACHE: s.work,
    };
    const main = start(await bundled('action-main'), [], env);
    await until(() => /progress: 4\/16/.test(main.output()), 'four instance runs to finish');
    await until(() => hanging(s.mark).length === 2, 'two pipeline runs to hang');
    const hung = hanging(s.mark);
    process.kill(main.child.pid!, 'SIGTERM');
    const { code } = await main.done;
    expect(code).toBe(143);
    expect(await eventually(() => !anyAlive(hung, s.mark))).toBe(true);
    expect(main.output()).not.toContain('::error::');
    expect(readFileSync(summary, 'utf8')).toContain('The run was cancelled by SIGTERM before it finished');
    expect(parseRunLog(readFileSync(path.join(s.out, 'run.json'), 'utf8'), 'run.json').status).toBe('cancelled');
    const state = parseCommandFile(readFileSync(stateFile, 'utf8'))[PROCESSES_STATE];
    expect(state).toBe('[]');
    expect(await eventually(() => processesWithEnv('CANCEL_MARK', s.mark).length === 0)).toBe(true);
    const post = start(await bundled('action-post'), [], { PATH: process.env.PATH, [`STATE_${PROCESSES_STATE}`]: state });
    expect((await post.done).code).toBe(0);
    expect(post.output()).toContain('saboteur post: nothing to stop');
  }, 300_000);
});

/**
 * Hostile inputs to the CLI, each with its clear error and exit 2 (input errors): durations out of
 * range, devices and oversized files as inputs, a cassette pointing at a secret file (whose content
 * the error must not quote), malformed samples, shards out of range, a folder another run holds;
 * and run logs that would overflow a renderer (200,000 notes, arguments nested 6,000 levels deep).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { main, EXIT } from '../../src/cli/main.js';
import { captureIo } from '../helpers/cli-io.js';
import { lockOutDir } from '../../src/run/out-lock.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-bounds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const io = () => captureIo(dir);

const PROBLEMS = path.resolve('fixtures/demo/problems.jsonl');
const CASSETTE = path.resolve('fixtures/demo/cassette.jsonl');
const PIPELINE = path.resolve('fixtures/pipelines/chain.mjs');

async function config(
  name: string,
  over: { timeout?: string; cassette?: string; problems?: string; extra?: string } = {},
): Promise<string> {
  const file = path.join(dir, `${name}.yml`);
  await writeFile(
    file,
    `model: { kind: replay, cassette: ${over.cassette ?? CASSETTE}, model: demo-coder }
pipeline:
  run: node ${PIPELINE}
  cwd: ${process.cwd()}
  timeout: ${over.timeout ?? '60s'}
benchmarks:
  humaneval: { path: ${over.problems ?? PROBLEMS}, limit: 1 }
${over.extra ?? ''}`,
  );
  return file;
}

async function run(args: string[]) {
  const r = io();
  const code = await main(args, r.io);
  return { code, err: r.text(), out: r.out.join('') };
}

describe('durations in (0, 24h]', () => {
  it.each([
    ['600h', /out of range: a duration is more than 0 and at most 24h/],
    ['0', /out of range/],
    ['0s', /out of range/],
    ['-5s', /is not a duration/],
  ])('pipeline.timeout: %s is refused (exit 2) naming the key', async (timeout, why) => {
    const r = await run(['run', '--config', await config(`t-${timeout}`, { timeout }), '--out', path.join(dir, 'o-t')]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/pipeline\.timeout: /);
    expect(r.err).toMatch(why);
  });
});

describe('input files', () => {
  it('a device as the problems file or the cassette is refused before anything runs (exit 2)', async () => {
    const zero = await run(['run', '--config', await config('zero', { problems: '/dev/zero' }), '--out', path.join(dir, 'o-zero')]);
    expect(zero.code).toBe(EXIT.usage);
    expect(zero.err).toContain('/dev/zero (benchmarks.humaneval.path) must be a regular file');
    const urandom = await run(['run', '--config', await config('urandom', { cassette: '/dev/urandom' }), '--out', path.join(dir, 'o-ur')]);
    expect(urandom.code).toBe(EXIT.usage);
    expect(urandom.err).toContain('/dev/urandom: the cassette (model.cassette) must be a regular file; this is a character device');
  });

  it('a cassette pointing at a secret file: the error names file and line, never its content', async () => {
    const shadow = path.join(dir, 'shadow');
    await writeFile(shadow, 'root:$6$saltsalt$0123456789abcdefSECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n');
    const r = await run(['run', '--config', await config('shadow', { cassette: shadow }), '--out', path.join(dir, 'o-sh')]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(`${shadow}:1: not a JSON object`);
    expect(r.err).not.toMatch(/saltsalt|SECRETHASH|daemon/);
  });

  it('a malformed policy exits 2 naming the file, before the model server is started', async () => {
    const policy = path.join(dir, 'bad-policy.yml');
    await writeFile(policy, 'tools:\n  - match: [unclosed\n');
    const marker = path.join(dir, 'model-started');
    const file = path.join(dir, 'bad-policy-run.yml');
    await writeFile(
      file,
      `model: { kind: command, run: "touch ${marker}; sleep 30", model: m }
pipeline: { run: node ${PIPELINE}, cwd: ${process.cwd()} }
benchmarks: { humaneval: { path: ${PROBLEMS}, limit: 1 } }
policy: ${policy}
`,
    );
    const r = await run(['run', '--config', file, '--out', path.join(dir, 'o-pol')]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(policy);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it('oversized config and run log are refused with the limit', async () => {
    const big = path.join(dir, 'big.yml');
    await writeFile(big, `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    const c = await run(['run', '--config', big]);
    expect(c.code).toBe(EXIT.usage);
    expect(c.err).toContain(`${big}: the config is 2 MiB, over the limit of 1 MiB`);
    const dev = await run(['report', '/dev/zero']);
    expect(dev.code).toBe(EXIT.usage);
    expect(dev.err).toContain('/dev/zero: the run log must be a regular file');
    const trace = await run(['validate', '--trace', '/dev/zero']);
    expect(trace.code).toBe(EXIT.usage);
    expect(trace.err).toMatch(/\/dev\/zero: the trace must be a regular file/);
  });

  it('malformed HumanEval samples exit 2, naming the file and line without quoting it', async () => {
    const samples = path.join(dir, 'samples.jsonl');
    await writeFile(samples, '{"task_id": "Demo/0", "completion": "    return 1\\n"}\nnot json at all: password=hunter2\n');
    const r = await run(['humaneval', 'score', samples, '--problems', PROBLEMS, '--out', path.join(dir, 'res.jsonl')]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(`${samples}:2: not valid JSON`);
    expect(r.err).not.toContain('hunter2');
    const dev = await run(['humaneval', 'score', '/dev/zero', '--problems', PROBLEMS]);
    expect(dev.code).toBe(EXIT.usage);
    expect(dev.err).toContain('/dev/zero: the samples file must be a regular file');
  });
});

describe('shards and output folders', () => {
  it('shard i/N is checked on the command line and in every run log merge reads', async () => {
    for (const spec of ['5/2', '0/3', '1/0', '1/100000']) {
      const r = await run(['run', '--config', await config('shard'), '--shard', spec]);
      expect([spec, r.code]).toEqual([spec, EXIT.usage]);
    }
    const log = JSON.parse(await readFile('fixtures/runlogs/demo.json', 'utf8'));
    log.shard = { index: 5, count: 2 };
    const file = path.join(dir, 'shard-5-of-2.json');
    await writeFile(file, JSON.stringify(log));
    const m = await run(['merge', file, '--out', path.join(dir, 'merged')]);
    expect(m.code).toBe(EXIT.usage);
    expect(m.err).toContain(`${file}: not a valid run log`);
    expect(m.err).toMatch(/shard: shard index must be between 1 and the shard count/);
  });

  it('merge exits 3 when a shard did not finish, and still writes the merged run log and report', async () => {
    for (const [status, reason] of [
      ['aborted', 'the model server stopped answering'],
      ['cancelled', 'cancelled by SIGINT'],
    ]) {
      const log = JSON.parse(await readFile('fixtures/runlogs/demo.json', 'utf8'));
      Object.assign(log, { status, abortReason: reason, shard: { index: 1, count: 1 } });
      const file = path.join(dir, `shard-${status}.json`);
      await writeFile(file, JSON.stringify(log));
      const out = path.join(dir, `merged-${status}`);
      const m = await run(['merge', file, '--out', out]);
      expect([status, m.code]).toEqual([status, EXIT.infrastructure]);
      expect(m.err).toContain(`the merged run did not finish (${status}): shard 1: ${reason}`);
      expect(JSON.parse(await readFile(path.join(out, 'run.json'), 'utf8')).status).toBe(status);
      expect(await readFile(path.join(out, 'report.md'), 'utf8')).toContain(reason);
    }
  });

  it('merge that cannot write run.json: exit 3 naming the file, the report on stderr, report.md still written', async () => {
    const out = path.join(dir, 'merged-unwritable');
    await mkdir(path.join(out, 'run.json'), { recursive: true });
    const m = await run(['merge', 'fixtures/runlogs/demo.json', '--out', out]);
    expect(m.code).toBe(EXIT.infrastructure);
    expect(m.err).toContain(path.join(out, 'run.json'));
    expect(m.err).toContain('## ');
    expect(await readFile(path.join(out, 'report.md'), 'utf8')).toContain('## ');
  });

  it('an output folder the kernel will not make (under /proc) ends the run with an error naming it', async () => {
    const r = await run(['run', '--config', await config('proc-out'), '--out', '/proc/saboteur-no-such/out']);
    expect(r.code).not.toBe(EXIT.ok);
    expect(r.err).toMatch(/cannot write \/proc\/saboteur-no-such\/out: ENOENT/);
  });

  it('a second run into a folder another run holds is refused (exit 2) and writes nothing', async () => {
    const out = path.join(dir, 'held');
    const held = await lockOutDir(out);
    try {
      const r = await run(['run', '--config', await config('held'), '--out', out]);
      expect(r.code).toBe(EXIT.usage);
      expect(r.err).toMatch(new RegExp(`${out} is in use by another saboteur run \\(pid ${process.pid}`));
      const m = await run(['merge', 'fixtures/runlogs/demo.json', '--out', out]);
      expect(m.code).toBe(EXIT.usage);
    } finally {
      await held.release();
    }
  });
});

describe('run logs that would overflow a renderer', () => {
  it('200,000 notes and tool arguments nested 6,000 levels deep render, bounded', async () => {
    const log = JSON.parse(await readFile('fixtures/runlogs/demo.json', 'utf8'));
    log.notes = Array.from({ length: 200_000 }, (_, i) => `note ${i} @someone <b>x</b>`);
    // An attack that got through (the report lists its tool calls) with arguments nested 6,000 levels deep.
    log.instances.push({
      ...log.instances[0],
      variant: 'malicious',
      outcome: 'passed',
      trace: {
        calls: [],
        tools: [{ id: '1', tool: 'send', arguments: { x: '__DEEP__' }, result: 'ok', isError: false, startedAt: '', durationMs: 0 }],
      },
    });
    const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
    const file = path.join(dir, 'hostile.json');
    await writeFile(file, JSON.stringify(log).replace('"__DEEP__"', deep));
    const r = await run(['report', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toContain('… and 199950 more notes in run.json');
    expect(r.out.length).toBeLessThan(200_000);
    expect(r.out).not.toContain('@someone');
  });
});

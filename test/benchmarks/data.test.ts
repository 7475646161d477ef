/**
 * The pinned benchmark data: the pins agree with the data folder, and the download path, against a
 * stand-in server on 127.0.0.1 (never the network), keeps only files whose bytes match their pin.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchmarkDataDir, fetchData, pinnedFiles, PINNED_BENCHMARKS, verifyData, DATA_PINS } from '../../src/benchmarks/data/index.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';
import { silentLog } from '../../src/util/log.js';
import { requireData } from '../helpers/benchmark-data.js';

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && PINNED_BENCHMARKS.every((id) => existsSync(path.join(dataDir, DATA_PINS[id].local)));
requireData(hasData, 'data.test: the pins against the real files');
const withData = hasData ? describe : describe.skip;

type Behaviour = 'serve' | 'wrong' | 'truncate' | 'short' | 'long' | 'missing';

/** Serves `<root>/<path>` as a mirror does; `behaviours` turns a path into a fault. Counts requests and their auth headers. */
async function standIn(root: string | undefined, behaviours: Record<string, Behaviour> = {}) {
  const seen: { path: string; auth?: string }[] = [];
  const server: Server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    seen.push({ path: rel, auth: req.headers.authorization });
    const how = behaviours[rel] ?? 'serve';
    const file = root ? path.join(root, rel) : '';
    if (how === 'missing' || (how === 'serve' && (!file || !existsSync(file)))) return void res.writeHead(404).end('not here');
    const pin = PINNED_BENCHMARKS.flatMap((id) => pinnedFiles(id)).find((f) => f.path === rel)!;
    const body = how === 'serve' ? await readFile(file) : Buffer.alloc(pin.bytes, 'x');
    if (how === 'truncate') {
      // Promises the whole length, sends half, and drops the connection.
      res.writeHead(200, { 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
      return;
    }
    if (how === 'short') return void res.writeHead(200).end(body.subarray(0, body.length - 10));
    if (how === 'long') return void res.writeHead(200).end(Buffer.concat([body, Buffer.from('trailing')]));
    res.writeHead(200).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'saboteur-data-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the pins', () => {
  it('name every benchmark whose data is public, each file once, with an upstream address at a fixed revision', () => {
    expect(PINNED_BENCHMARKS).toEqual(['humaneval', 'asb', 'agentharm', 'redcode']);
    const files = PINNED_BENCHMARKS.flatMap((id) => pinnedFiles(id));
    expect(new Set(files.map((f) => f.path)).size).toBe(files.length);
    for (const f of files) {
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(f.url.startsWith('https://')).toBe(true);
      // A GitHub address names a commit, never a branch.
      if (f.url.includes('githubusercontent')) expect(f.url).toMatch(/\/[0-9a-f]{40}\//);
    }
    expect(files.filter((f) => f.benchmark === 'redcode')).toHaveLength(47);
    expect(pinnedFiles('asb', 'http://mirror.test/base/')[0].url).toBe(`http://mirror.test/base/${pinnedFiles('asb')[0].path}`);
  });
});

withData('the pins and the data folder', () => {
  it('every pinned file is in SABOTEUR_DATA_DIR with its pinned SHA-256', async () => {
    const states = await verifyData(dataDir!, PINNED_BENCHMARKS);
    expect(states.filter((s) => s.state !== 'ok')).toEqual([]);
    expect(states.length).toBe(1 + 9 + 6 + 47);
  });

  it('fetches every file from a mirror into an empty folder, then keeps them; verify agrees', async () => {
    const server = await standIn(dataDir);
    try {
      const folder = path.join(work, 'full');
      const first = await fetchData(folder, PINNED_BENCHMARKS, { mirror: server.url });
      expect(first.failed).toEqual([]);
      expect(first.fetched).toHaveLength(63);
      expect((await verifyData(folder, PINNED_BENCHMARKS)).every((s) => s.state === 'ok')).toBe(true);
      const again = await fetchData(folder, PINNED_BENCHMARKS, { mirror: server.url });
      expect(again.kept).toHaveLength(63);
      expect(server.seen).toHaveLength(63);
      // Nothing but the pinned files is left behind (no partial files).
      expect(readdirSync(path.join(folder, 'asb', 'data')).sort()).toEqual(
        pinnedFiles('asb')
          .map((f) => path.basename(f.path))
          .sort(),
      );
    } finally {
      await server.close();
    }
  });

  it('a run with neither a path nor SABOTEUR_DATA_DIR reads the cache, filling it first', async () => {
    const server = await standIn(dataDir);
    try {
      const cacheDir = path.join(work, 'run-cache');
      const viaMirror: typeof fetch = (url, init) => fetch(String(url).replace(DATA_PINS.asb.base, `${server.url}/asb/`), init);
      const dir = await benchmarkDataDir('asb', { cacheDir, env: {}, log: silentLog, fetch: viaMirror });
      expect(dir).toBe(path.join(cacheDir, 'data'));
      expect((await verifyData(dir, ['asb'])).every((s) => s.state === 'ok')).toBe(true);
      expect(await benchmarkDataDir('asb', { cacheDir, env: { SABOTEUR_DATA_DIR: dataDir }, log: silentLog })).toBe(path.resolve(dataDir!));
    } finally {
      await server.close();
    }
  });
});

describe('downloads that go wrong', () => {
  const [agentTask] = pinnedFiles('asb');
  it.each([
    ['wrong', /SHA-256 is [0-9a-f]{64}, the pin is/],
    ['truncate', /terminated|aborted|socket|ended after/i],
    ['short', /ended after \d+ of \d+ bytes/],
    ['long', /longer than the pinned \d+ bytes/],
    ['missing', /HTTP 404/],
  ] as const)('%s: the file is not written, the reason names its address', async (how, reason) => {
    const server = await standIn(undefined, { [agentTask.path]: how });
    try {
      const folder = path.join(work, `bad-${how}`);
      const report = await fetchData(folder, ['asb'], { mirror: server.url });
      const failure = report.failed.find((f) => f.file.path === agentTask.path);
      expect(failure?.reason).toContain(`${server.url}/${agentTask.path}`);
      expect(failure?.reason).toMatch(reason);
      expect(existsSync(path.join(folder, agentTask.path))).toBe(false);
      expect(
        existsSync(path.join(folder, 'asb', 'data'))
          ? readdirSync(path.join(folder, 'asb', 'data')).filter((n) => n.includes('partial'))
          : [],
      ).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('replaces a cached file whose bytes changed, and a run says how to get the data when the download fails', async () => {
    const cacheDir = path.join(work, 'stale');
    const target = path.join(cacheDir, 'data', agentTask.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, 'edited by hand');
    expect((await verifyData(path.join(cacheDir, 'data'), ['asb'])).find((s) => s.file.path === agentTask.path)?.state).toBe('mismatch');
    const server = await standIn(undefined, { [agentTask.path]: 'wrong' });
    try {
      const viaMirror: typeof fetch = (url, init) => fetch(String(url).replace(DATA_PINS.asb.base, `${server.url}/asb/`), init);
      await expect(benchmarkDataDir('asb', { cacheDir, env: {}, log: silentLog, fetch: viaMirror })).rejects.toThrow(
        /asb: 9 of 9 data files could not be fetched .*saboteur data fetch asb.*SABOTEUR_DATA_DIR/,
      );
      expect(await readFile(target, 'utf8')).toBe('edited by hand');
    } finally {
      await server.close();
    }
  });

  it('sends HF_TOKEN to huggingface.co only, never into a message, and says when a gated dataset refuses', async () => {
    const sent: { url: string; auth?: string }[] = [];
    const recorder: typeof fetch = async (url, init) => {
      sent.push({ url: String(url), auth: (init?.headers as Record<string, string>)?.Authorization });
      return new Response('no', { status: String(url).startsWith('https://huggingface.co/') ? 401 : 404 });
    };
    const report = await fetchData(path.join(work, 'tokens'), ['asb', 'agentharm'], { fetch: recorder, hfToken: 'hf_secret' });
    expect(report.failed.find((f) => f.file.benchmark === 'agentharm')?.reason).toMatch(/HTTP 401.*gated dataset: set HF_TOKEN/);
    expect(report.failed.find((f) => f.file.benchmark === 'asb')?.reason).toMatch(/HTTP 404$/);
    expect(report.failed.map((f) => f.reason).join('\n')).not.toContain('hf_secret');
    expect(sent.filter((s) => s.url.startsWith('https://huggingface.co/')).every((s) => s.auth === 'Bearer hf_secret')).toBe(true);
    expect(sent.filter((s) => !s.url.startsWith('https://huggingface.co/')).every((s) => s.auth === undefined)).toBe(true);
    expect(sent.some((s) => s.url.startsWith('https://huggingface.co/'))).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSandboxCommand } from '../../src/sandbox/wrap-command.js';
import { detectIsolation, runSandboxed, sandboxUidBlock, type Isolation } from '../../src/sandbox/index.js';
import { isRoot } from '../../src/sandbox/uid.js';

/**
 * Processes whose real uid is in this process's sandbox uid block, once the killed ones have been
 * reaped (they linger as zombies of init for a moment): waits up to 10 s for the list to empty.
 */
async function leftoverSandboxProcesses(): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await sandboxProcessesNow();
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function sandboxProcessesNow(): Promise<number[]> {
  return (await sandboxProcessUids()).map((p) => p.pid);
}

async function sandboxProcessUids(): Promise<{ pid: number; uid: number }[]> {
  const { first, size } = sandboxUidBlock();
  const found: { pid: number; uid: number }[] = [];
  for (const pid of (await readdir('/proc')).filter((e) => /^\d+$/.test(e))) {
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (uid >= first && uid < first + size) found.push({ pid: Number(pid), uid });
    } catch {
      // gone
    }
  }
  return found;
}

/** A TCP listener on 127.0.0.1 that counts the connections it accepted. */
async function countingListener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let n = 0;
  const server = createServer((socket) => {
    n++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no listener address');
  return { server, port: address.port, connections: () => n };
}

let isolation: Isolation;
beforeAll(async () => {
  isolation = await detectIsolation();
  if (isolation.degraded) console.warn(`sandbox tests run on a degraded sandbox: ${isolation.note}`);
});

describe('detectIsolation', () => {
  it('uses bwrap where bubblewrap is installed, and caches the probe', async () => {
    if (existsSync('/usr/bin/bwrap')) {
      expect(isolation.kind).toBe('bwrap');
      expect(isolation.degraded).toBe(false);
    }
    expect(isolation.python).toMatch(/python3/);
    expect(await detectIsolation()).toBe(isolation);
  });
});

describe('buildSandboxCommand', () => {
  const limits = { memoryMb: 512, cpuSeconds: 5, maxProcesses: 20, maxFileMb: 16, openFiles: 256, tmpfsMb: 64 };
  const base = { hostDir: '/tmp/x', fileNames: ['a.py'], argv: ['/usr/bin/python3', 'a.py'], limits, nprocLimit: 20 };
  const iso = (kind: Isolation['kind']): Isolation => ({ kind, degraded: kind !== 'bwrap', note: '', python: '/usr/bin/python3' });

  it('builds the checked bwrap recipe: limits, then the unprivileged uid, then namespaces', () => {
    const c = buildSandboxCommand(iso('bwrap'), { ...base, runAsUid: 1234 });
    const line = [c.file, ...c.args].join(' ');
    expect(c.file).toBe('prlimit');
    expect(line).toContain(`--nproc=20 --as=${512 * 1024 * 1024} --cpu=5`);
    expect(line).toContain('setpriv --reuid=1234 --regid=1234 --clear-groups bwrap --ro-bind / /');
    expect(line).toContain(`--size ${64 * 1024 * 1024} --tmpfs /tmp --dir /tmp/sbx --ro-bind /tmp/x/a.py /tmp/sbx/a.py --chdir /tmp/sbx`);
    expect(line).toContain('--unshare-all --die-with-parent --new-session -- /usr/bin/python3 a.py');
    expect(c.innerCwd).toBe('/tmp/sbx');
  });

  it('runs as the invoking user without setpriv when not root, and drops --size on old bwrap', () => {
    const c = buildSandboxCommand({ ...iso('bwrap'), tmpfsSizeCap: false }, { ...base, runAsUid: null });
    expect(c.args).not.toContain('setpriv');
    expect(c.args).not.toContain('--size');
  });

  it('falls back to unshare and to plain limits', () => {
    const u = buildSandboxCommand(iso('unshare'), { ...base, runAsUid: 7 });
    expect(u.args.join(' ')).toContain('unshare --net --pid --fork --kill-child -- setpriv --reuid=7');
    expect(u.innerCwd).toBe('/tmp/x');
    const r = buildSandboxCommand(iso('rlimit-only'), { ...base, runAsUid: null });
    expect(r.args.slice(-2)).toEqual(['/usr/bin/python3', 'a.py']);
    expect(r.args).not.toContain('unshare');
  });
});

describe('runSandboxed', () => {
  const py = (code: string, extra: Partial<Parameters<typeof runSandboxed>[0]> = {}) =>
    runSandboxed({ files: { 'main.py': code }, argv: [isolation.python, 'main.py'], timeoutMs: 10_000, isolation, ...extra });

  it('runs a program and reports its output and exit code', async () => {
    const r = await py('import sys\nprint("out")\nprint("err", file=sys.stderr)\nsys.exit(3)\n');
    expect(r).toMatchObject({ exitCode: 3, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false, outputTruncated: false });
    expect(r.sandboxError).toBeUndefined();
  });

  it('gives the program its files, nested ones included, and a writable working directory', async () => {
    const r = await runSandboxed({
      files: { 'main.py': 'from pkg.data import VALUE\nopen("scratch.txt", "w").write("x")\nprint(VALUE, open("scratch.txt").read())\n', 'pkg/__init__.py': '', 'pkg/data.py': 'VALUE = 42\n' },
      argv: [isolation.python, 'main.py'],
      timeoutMs: 10_000,
      isolation,
    });
    expect(r.stdout).toBe('42 x\n');
  });

  it('keeps the host environment out', async () => {
    process.env.SABOTEUR_TEST_SECRET = 'hunter2';
    try {
      const r = await py('import os\nprint(os.environ.get("SABOTEUR_TEST_SECRET"))\n');
      expect(r.stdout).toBe('None\n');
    } finally {
      delete process.env.SABOTEUR_TEST_SECRET;
    }
  });

  it('rejects file names that leave the working directory', async () => {
    await expect(runSandboxed({ files: { '../evil.py': '' }, argv: [isolation.python], timeoutMs: 1000, isolation })).rejects.toThrow(/plain relative path/);
    await expect(runSandboxed({ files: { '/etc/evil.py': '' }, argv: [isolation.python], timeoutMs: 1000, isolation })).rejects.toThrow(/plain relative path/);
  });

  it('caps output and keeps reading past the cap', async () => {
    const r = await py('import sys\nsys.stdout.write("a" * 200000)\nprint("done", file=sys.stderr)\n', { maxOutputBytes: 1000 });
    expect(r.stdout).toBe('a'.repeat(1000));
    expect(r.outputTruncated).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('done\n');
  });

  it('kills a program that loops forever at the time limit', async () => {
    const r = await py('while True:\n    pass\n', { timeoutMs: 1500 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(await leftoverSandboxProcesses()).toEqual([]);
  });

  it('kills the children a timed-out program left behind', async () => {
    const r = await py('import subprocess, time\nsubprocess.Popen(["sleep", "300"])\nsubprocess.Popen(["sleep", "300"], start_new_session=True)\ntime.sleep(300)\n', { timeoutMs: 1500 });
    expect(r.timedOut).toBe(true);
    if (isRoot()) expect(await leftoverSandboxProcesses()).toEqual([]);
  });

  it('limits memory', async () => {
    const r = await py('x = bytearray(1024 * 1024 * 1024)\nprint("allocated")\n', { memoryMb: 256 });
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('MemoryError');
  });

  it('cuts the network: a connection to a listener on 127.0.0.1 fails', async () => {
    const { server, port, connections } = await countingListener();
    try {
      const r = await py(`import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("connected")\nexcept OSError as e:\n    print("refused", e)\n`);
      expect(r.stdout).toMatch(/^refused /);
      expect(connections()).toBe(0);
    } finally {
      server.close();
    }
  });

  it('cannot write outside its working directory', async () => {
    // World-writable and outside /tmp, so only the sandbox stands between the program and the file.
    const outside = await mkdtemp('/var/tmp/saboteur-outside-');
    await chmod(outside, 0o777);
    try {
      const target = join(outside, 'pwned');
      const r = await py(`try:\n    open(${JSON.stringify(target)}, "w").write("pwned")\n    print("wrote")\nexcept OSError as e:\n    print("blocked", e)\n`);
      expect(r.stdout).toMatch(/^blocked /);
      expect(existsSync(target)).toBe(false);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('holds a fork bomb to its process limit, ends it, and leaves the host able to run the next program', async () => {
    const bomb = py('import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n', { timeoutMs: 3000 });
    // A neighbour started while the bomb runs must not be starved of processes.
    await new Promise((r) => setTimeout(r, 1000));
    if (isRoot()) {
      const perUid = new Map<number, number>();
      for (const { uid } of await sandboxProcessUids()) perUid.set(uid, (perUid.get(uid) ?? 0) + 1);
      const largest = Math.max(...perUid.values());
      // It did multiply (so the test is real), but no further than the limit of 32.
      expect(largest).toBeGreaterThan(5);
      expect(largest).toBeLessThanOrEqual(32);
    }
    const neighbour = await py('import subprocess\nprint(subprocess.run(["echo", "fine"], capture_output=True, text=True).stdout.strip())\n');
    const r = await bomb;
    expect(r.timedOut).toBe(true);
    expect(neighbour.stdout).toBe('fine\n');
    expect(await leftoverSandboxProcesses()).toEqual([]);
  });

  it('removes its temp dir afterwards', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'saboteur-parent-'));
    await chmod(parent, 0o755);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = parent;
    try {
      const r = await py('open("left.txt", "w").write("x")\nprint("ok")\n');
      expect(r.stdout).toBe('ok\n');
      expect(await readdir(parent)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('fallback kinds', () => {
  // They are what a runner without bubblewrap gets; as root here they must still work.
  const fallback = (kind: Isolation['kind']): Isolation => ({ kind, degraded: true, note: '', python: isolation.python });
  let listener: Awaited<ReturnType<typeof countingListener>>;
  beforeAll(async () => {
    listener = await countingListener();
  });
  afterAll(() => {
    listener.server.close();
  });
  const connect = () => `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${listener.port}), timeout=3)\n    print("connected")\nexcept OSError:\n    print("refused")\n`;

  it('unshare runs the program without network', async () => {
    if (!isRoot()) return console.warn('skipped: the unshare fallback check needs root');
    const r = await runSandboxed({ files: { 'main.py': connect() }, argv: [isolation.python, 'main.py'], timeoutMs: 10_000, isolation: fallback('unshare') });
    expect(r.stdout).toBe('refused\n');
    expect(listener.connections()).toBe(0);
  });

  it('rlimit-only still runs the program, limited and in its own group', async () => {
    const r = await runSandboxed({ files: { 'main.py': 'while True:\n    pass\n' }, argv: [isolation.python, 'main.py'], timeoutMs: 1000, isolation: fallback('rlimit-only') });
    expect(r.timedOut).toBe(true);
    expect(await leftoverSandboxProcesses()).toEqual([]);
  });
});

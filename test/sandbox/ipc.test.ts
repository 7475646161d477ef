/**
 * System V shared memory from model-written code, with real HumanEval scoring on a warm worker in
 * each sandbox this machine allows: a completion that creates and fills three 256 MB segments,
 * then a problem that lists them. The next problem finds none, the host's shared memory does not
 * keep the 768 MB, and the host's own segment list never shows them.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HumanEvalScorer, loadHumanEval, type HumanEvalProblem } from '../../src/benchmarks/humaneval/index.js';
import { detectIsolation, sandboxUidBlock, type Isolation } from '../../src/sandbox/index.js';
import { isRoot } from '../../src/sandbox/uid.js';

const body = (...lines: string[]) => lines.map((l) => `    ${l}\n`).join('');
const SEGMENT = 256 << 20;

/** Three segments of 256 MB, each attached, written through and detached; passes only when all three were made. */
const FLOOD = body(
  'import ctypes',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'libc.shmat.restype = ctypes.c_void_p',
  'libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]',
  'libc.shmdt.argtypes = [ctypes.c_void_p]',
  'made = 0',
  'for _ in range(3):',
  `    sid = libc.shmget(0, ${SEGMENT}, 0o1600)`,
  '    if sid < 0:',
  '        break',
  '    addr = libc.shmat(sid, None, 0)',
  '    if addr is None or addr == ctypes.c_void_p(-1).value:',
  '        break',
  `    ctypes.memset(addr, 1, ${SEGMENT})`,
  '    libc.shmdt(addr)',
  '    made += 1',
  'return x if made == 3 else -made',
);

/** Passes only when no System V object is listed where the problem runs. */
const LIST = body(
  'left = []',
  'for table in ("shm", "sem", "msg"):',
  '    left += open("/proc/sysvipc/" + table).read().splitlines()[1:]',
  'if left:',
  '    raise Exception("left: %r" % left)',
  'return x',
);

function hostShmemKb(): number {
  return Number(/^Shmem:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]);
}

/**
 * Host segments of `size` bytes made by this test's sandboxes: by a uid of this process's sandbox
 * block as root, else by the invoking user (other test runs on the machine make segments of their own).
 */
function hostSegmentsOfSize(size: number): number {
  const { first, size: uids } = sandboxUidBlock();
  const ours = (uid: number) => (isRoot() ? uid >= first && uid < first + uids : uid === process.getuid!());
  return readFileSync('/proc/sysvipc/shm', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split(/\s+/).filter(Boolean))
    .filter((f) => f[3] === String(size) && ours(Number(f[9]))).length;
}

let detected: Isolation;
let identity: HumanEvalProblem;
beforeAll(async () => {
  detected = await detectIsolation();
  const { problems } = await loadHumanEval(resolve('fixtures/humaneval/problems.jsonl'));
  identity = problems.find((p) => p.task_id === 'fixture/identity')!;
});

// rlimit-only shares the host's IPC namespace: only as root (a uid of its own) are its objects its own to remove.
const KINDS: Isolation['kind'][] = isRoot() ? ['bwrap', 'unshare', 'rlimit-only'] : ['bwrap', 'unshare'];

describe.each(KINDS)('a shared-memory flood (%s sandbox)', (kind) => {
  it('leaves nothing the next problem can list, and the host does not keep the memory', async () => {
    const isolation: Isolation = kind === detected.kind ? detected : { ...detected, kind, degraded: true, note: `${kind} (test)` };
    // The time limit is only a hang guard: filling 768 MB takes a while on a loaded machine.
    const scorer = new HumanEvalScorer({ isolation, lanes: 1, timeoutMs: 60_000 });
    try {
      expect(await scorer.score(identity, LIST)).toEqual({ passed: true, result: 'passed' });
      const before = hostShmemKb();
      for (let round = 0; round < 2; round++) {
        // It really made them: the flood passes only with all three segments filled.
        expect(await scorer.score(identity, FLOOD)).toEqual({ passed: true, result: 'passed' });
        expect(await scorer.score(identity, LIST)).toEqual({ passed: true, result: 'passed' });
        expect(hostSegmentsOfSize(SEGMENT)).toBe(0);
      }
      // Two floods of 768 MB: without the cleanup the host would hold 1.5 GB more. Less than one
      // flood's worth: room for what other test files hold in tmpfs meanwhile (a sandbox's /tmp
      // alone is up to 64 MB), none for a flood kept.
      expect(hostShmemKb() - before).toBeLessThan((3 * SEGMENT) / 1024);
      expect(scorer.stats()).toEqual({ lanesStarted: 1, lanesReplaced: 0 });
    } finally {
      await scorer.close();
    }
  }, 300_000);
});

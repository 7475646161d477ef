/**
 * Finds the strongest sandbox this machine runs, by actually running a probe program under each
 * candidate: bwrap (full recipe), then unshare, then resource limits only. Whatever is missing is
 * spelled out in `note` so the log and the report can say it loudly.
 */
import { existsSync } from 'node:fs';
import { findBinary } from '../util/find-binary.js';
import { cachedPythonRoot } from './root.js';
import { runSandboxed } from './run.js';
import { SANDBOX_DEFAULTS, type Isolation, type RootPlan } from './types.js';
import { isRoot } from './uid.js';

const PROBE_MARK = 'saboteur-sandbox-probe';
/** Prints the network interfaces it sees: only `lo` means the network namespace is really empty. */
const PROBE_PROGRAM = `import socket\nprint("${PROBE_MARK}", ",".join(sorted(n for _, n in socket.if_nameindex())))\n`;
const PROBE_TIMEOUT_MS = 15_000;

/** /usr/bin/python3 when present (readable by any uid), else the first python3 on PATH. */
export function findPython(env: NodeJS.ProcessEnv = process.env): string {
  if (existsSync('/usr/bin/python3')) return '/usr/bin/python3';
  return findBinary('python3', env) ?? '/usr/bin/python3';
}

function limitsText(): string {
  return `limits: ${SANDBOX_DEFAULTS.memoryMb} MiB address space, CPU time, ${SANDBOX_DEFAULTS.maxProcesses} processes, output capped`;
}

function userText(): string {
  return isRoot() ? 'a uid of its own per sandbox' : "the invoking user (the process limit then also counts that user's other processes)";
}

/** The note for each kind; `missing` is why the stronger kinds were not usable. */
export function isolationNote(
  kind: Isolation['kind'],
  opts: { tmpfsSizeCap?: boolean; disableUserns?: boolean; missing: string[] },
): string {
  const why = opts.missing.length ? ` (${opts.missing.join('; ')})` : '';
  switch (kind) {
    case 'bwrap': {
      const gaps: string[] = [];
      if (opts.tmpfsSizeCap === false)
        gaps.push('no size cap on the private /tmp (this bwrap has no --size), so a program can fill memory with files there');
      if (opts.disableUserns === false) {
        gaps.push(
          'nested user namespaces are not disabled (this bwrap has no --disable-userns): HumanEval code is still kept from making them by the seccomp filter each scored program runs under, but other sandboxed code could mount an uncapped tmpfs in one',
        );
      }
      const base = `an empty root with only the interpreter, its libraries and a read-only /dev (null, zero, urandom), private size-capped /tmp, no network, own pid namespace${opts.disableUserns === false ? '' : ', no nested user namespaces'}, runs as ${userText()}; ${limitsText()}`;
      return gaps.length ? `DEGRADED sandbox: bwrap with ${gaps.join('; ')}; otherwise ${base}` : `bwrap: ${base}`;
    }
    case 'unshare':
      return `DEGRADED sandbox: bubblewrap is not usable${why}. Model-written code runs with no network and its own pid namespace (unshare), but it sees the host filesystem and can write wherever its uid may, e.g. world-writable /tmp and /var/tmp, and read world-readable files. Runs as ${userText()}; ${limitsText()}. Install bubblewrap (apt-get install bubblewrap) for full isolation.`;
    case 'rlimit-only':
      return `DEGRADED sandbox: neither bubblewrap nor unshare is usable${why}. Model-written code has NO network isolation (it can open sockets) and NO filesystem isolation (it can read world-readable files and write wherever its uid may); it is held only by ${limitsText()}, a separate process group and ${userText()}.${isRoot() ? '' : " As it runs as saboteur's own user, it could also reach saboteur's processes through /proc, so HumanEval verdicts are not protected either."} Install bubblewrap (apt-get install bubblewrap) for full isolation.`;
  }
}

/** Runs the probe under `candidate`; returns why it failed, or undefined when it works. */
async function probe(candidate: Isolation): Promise<string | undefined> {
  const r = await runSandboxed({
    files: { 'probe.py': PROBE_PROGRAM },
    argv: [candidate.python, 'probe.py'],
    timeoutMs: PROBE_TIMEOUT_MS,
    isolation: candidate,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith(PROBE_MARK));
  if (!line) {
    const detail = r.sandboxError ?? (r.stderr.trim().split('\n').pop() || (r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`));
    return `${candidate.kind}: ${detail}`;
  }
  const interfaces = line.slice(PROBE_MARK.length).trim();
  if (candidate.kind !== 'rlimit-only' && interfaces !== 'lo') {
    return `${candidate.kind}: the program still saw network interfaces ${interfaces}`;
  }
  return undefined;
}

/** Probes without the cache (tests use it to check one candidate order). */
export async function probeIsolation(python: string = findPython()): Promise<Isolation> {
  const missing: string[] = [];
  let pythonRoot: RootPlan | undefined;
  try {
    pythonRoot = await cachedPythonRoot(python);
  } catch (e) {
    missing.push((e as Error).message);
  }
  // Newest bwrap first; each older recipe drops the flag an older bwrap lacks (--disable-userns: 0.8, --size: 0.5).
  const candidates: { kind: Isolation['kind']; tmpfsSizeCap?: boolean; disableUserns?: boolean }[] = [
    ...(pythonRoot
      ? [
          { kind: 'bwrap' as const, tmpfsSizeCap: true, disableUserns: true },
          { kind: 'bwrap' as const, tmpfsSizeCap: true, disableUserns: false },
          { kind: 'bwrap' as const, tmpfsSizeCap: false, disableUserns: false },
        ]
      : []),
    { kind: 'unshare' },
  ];
  for (const c of candidates) {
    const { kind, ...flags } = c;
    const candidate: Isolation = { kind, degraded: false, note: '', python, ...flags };
    const failure = await probe(candidate);
    if (failure === undefined) {
      const degraded = kind !== 'bwrap' || c.tmpfsSizeCap === false || c.disableUserns === false;
      return { ...candidate, degraded, note: isolationNote(kind, { ...flags, missing }) };
    }
    // The bwrap recipes usually fail for the same reason: report it once.
    if (!missing.includes(failure)) missing.push(failure);
  }
  const last: Isolation = { kind: 'rlimit-only', degraded: true, note: '', python };
  const failure = await probe(last);
  if (failure !== undefined) missing.push(`even without namespaces ${python} could not run: ${failure}`);
  return { ...last, note: isolationNote('rlimit-only', { missing }) };
}

let cached: Promise<Isolation> | undefined;

/** The isolation of this machine, probed once per process. */
export function detectIsolation(): Promise<Isolation> {
  cached ??= probeIsolation();
  return cached;
}

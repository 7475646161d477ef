/**
 * The pipeline's fence: every pipeline run (process mode) and the pipeline service (http mode)
 * runs in a pid namespace of its own, so it sees neither saboteur's processes nor other
 * instances' (no /proc/<pid>/environ or cmdline of theirs to read), and when its first process
 * ends or is killed the namespace's init dies and the kernel kills everything else in it, setsid
 * grandchildren included. The network stays shared: the pipeline reaches the proxy, the MCP
 * server and the OTLP receiver on 127.0.0.1. Under bwrap the filesystem is the view of
 * fence-view.ts: read-only, without HOME, the runner's folders and the git credentials, with the
 * run's own folder the only writable place: a memory folder of `pipeline.limits.disk-mb`, and
 * RLIMIT_NPROC / RLIMIT_FSIZE (prlimit, as the run's own user) on its processes and on the host
 * files bound in (limits.ts; docs/security.md, "Caps").
 *
 * Strongest first: bwrap (as root: each run drops to an unprivileged uid of its own with no
 * capabilities and no new privileges; otherwise in a user namespace), then unshare (degraded: the job's files stay in reach), then — as root
 * without namespaces — a uid of its own per run (other uids' /proc entries are unreadable, and
 * every process of that uid is killed at the end), else nothing but the process group, said loudly. See docs/security.md, "The pipeline fence".
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isRoot } from '../sandbox/uid.js';
import { findBinary } from '../util/find-binary.js';
import { viewMounts, type FenceView } from './fence-view.js';
import { DEFAULT_LIMITS, diskBytes, fileSizeLimit, type PipelineLimits } from './limits.js';

export type FenceKind = 'bwrap' | 'unshare' | 'uid' | 'none';

/** What the run log and the report say about the fence. */
export interface FenceInfo {
  kind: FenceKind;
  degraded: boolean;
  note: string;
}

export interface FencedCommand {
  file: string;
  args: string[];
  /** The uid fence: the uid the run has (its temp folder must be handed to it). */
  uid?: number;
  /** Kills whatever of the run is still alive (the uid fence: every process of its uid). */
  sweep(): Promise<void>;
  /** Gives the run's uid back; call once, after sweep. */
  release(): void;
}

export interface Fence extends FenceInfo {
  /** Each run runs as a uid of its own (the uid fence; bwrap as root): its folders are handed to it. */
  ownUid: boolean;
  /**
   * The command line that runs `sh -c command` inside the fence. Under bwrap the run sees the
   * filesystem as `view` says, read-only, and writes only into `privateDir` (its own folder, a
   * memory folder of `limits.diskMb` inside) and the host files of `files` (made beforehand);
   * it has at most `limits.processes` processes and threads.
   */
  enter(command: string, opts?: EnterOptions): FencedCommand;
}

export interface EnterOptions {
  privateDir?: string;
  view?: FenceView;
  /** The caps (default DEFAULT_LIMITS). */
  limits?: PipelineLimits;
  /** Files in `privateDir` bound from the host under bwrap: read-only (the task), writable (the output file). */
  files?: { read?: string[]; write?: string[] };
}

const SH = '/bin/sh';
const SHM_BYTES = 256 << 20;

/** First uid handed out by the uid fence; each saboteur process takes a block of 1000, keyed by its pid. */
const FENCE_UID_BASE = 1_800_000_000;
const UID_BLOCK = 1000;
const uidsInUse = new Set<number>();
let nextUidSlot = 0;

/** The uids this process hands out, as the log names them. */
function uidRange(): string {
  const first = FENCE_UID_BASE + (process.pid % 100_000) * UID_BLOCK;
  return `uid ${first}–${first + UID_BLOCK - 1}`;
}

function acquireUid(): number {
  const first = FENCE_UID_BASE + (process.pid % 100_000) * UID_BLOCK;
  for (let i = 0; i < UID_BLOCK; i++) {
    const slot = (nextUidSlot + i) % UID_BLOCK;
    if (!uidsInUse.has(first + slot)) {
      uidsInUse.add(first + slot);
      nextUidSlot = (slot + 1) % UID_BLOCK;
      return first + slot;
    }
  }
  throw new Error(`the pipeline fence has more than ${UID_BLOCK} runs at once`);
}

/** Pids of the living (not zombie) processes whose real uid is `uid`. */
export function processesOfUid(uid: number): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      if (Number(real) === uid && state !== 'Z' && state !== 'X') out.push(Number(entry));
    } catch {
      // it ended while we looked
    }
  }
  return out;
}

/** SIGKILL to every process of `uid` until none is left (a fork loop is outrun by repeating). */
async function killUid(uid: number): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = processesOfUid(uid);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** uids whose processes are killed when saboteur exits, whatever the reason. */
const liveUids = new Set<number>();
let exitHook = false;
function trackUid(uid: number): void {
  liveUids.add(uid);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const u of liveUids)
      for (const pid of processesOfUid(u)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // exiting anyway
        }
      }
  });
}

const noSweep = { sweep: async () => undefined, release: () => undefined };

/** setpriv's argv that runs the rest as `uid` (its own group, no other groups, no privilege ever regained). */
function dropToUid(setpriv: string | undefined, uid: number): string[] {
  return [setpriv ?? 'setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--no-new-privs', '--'];
}

/**
 * prlimit's argv that caps the rest: RLIMIT_NPROC counts the processes and threads of the run's
 * uid in its user namespace (as root: its uid of its own; otherwise: bwrap's user namespace, made
 * for this run), RLIMIT_FSIZE holds a file bound from the host. Hard and soft: never raised again.
 */
function capLimits(prlimit: string | undefined, limits: PipelineLimits): string[] {
  if (!prlimit) return [];
  const nproc = limits.processes;
  const fsize = fileSizeLimit(limits);
  return [prlimit, `--nproc=${nproc}:${nproc}`, `--fsize=${fsize}:${fsize}`, '--'];
}

/** The argv of each kind, pure (unit tested); `bin` maps tool names to their paths. */
export function fenceArgv(
  kind: FenceKind,
  command: string,
  opts: { root: boolean; bin: Record<string, string>; uid?: number } & EnterOptions,
): string[] {
  const sh = [SH, '-c', command];
  switch (kind) {
    case 'bwrap': {
      const view = opts.view ?? { hidden: [], shown: [], replaced: [], blanked: [] };
      const limits = opts.limits ?? DEFAULT_LIMITS;
      // bwrap makes the run's folders as root for a run of another uid: open to all of the run
      // (no one else sees them: they are memory of its own mount namespace).
      const mode = opts.root && opts.uid !== undefined ? '0777' : '0700';
      const own = opts.privateDir
        ? { dir: opts.privateDir, bytes: diskBytes(limits), mode, read: opts.files?.read, write: opts.files?.write }
        : undefined;
      return [
        opts.bin.bwrap,
        // Everything read-only: what the run writes outside its own folder fails, so nothing outlives it.
        '--ro-bind',
        '/',
        '/',
        // A minimal /dev of its own (null, zero, full, random, urandom, tty, pts): no host device.
        '--dev',
        '/dev',
        // Shared memory of its own, capped: multiprocessing works, the host's memory is not a target.
        '--perms',
        '1777',
        '--size',
        String(SHM_BYTES),
        '--tmpfs',
        '/dev/shm',
        '--proc',
        '/proc',
        ...viewMounts(view, own),
        '--unshare-pid',
        '--unshare-ipc',
        // As root: the run drops to an unprivileged uid of its own (root-only files such as
        // /etc/shadow stay unreadable) with no capabilities left; bwrap keeps only the two it
        // needs to hand that uid over. Without a uid (no setpriv): uid 0 with no capabilities.
        ...(!opts.root
          ? ['--unshare-user']
          : opts.uid === undefined
            ? ['--cap-drop', 'ALL']
            : ['--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID']),
        '--die-with-parent',
        '--',
        ...(opts.root && opts.uid !== undefined ? dropToUid(opts.bin.setpriv, opts.uid) : []),
        // As uid 0 (root without setpriv) RLIMIT_NPROC binds nothing: the caps come with a uid.
        ...(opts.root && opts.uid === undefined ? [] : capLimits(opts.bin.prlimit, limits)),
        ...sh,
      ];
    }
    case 'unshare': {
      const ns = opts.root
        ? ['--pid', '--fork', '--kill-child', '--mount-proc']
        : ['--user', '--map-current-user', '--pid', '--fork', '--kill-child', '--mount-proc'];
      // setpriv first: unshare dies with saboteur; as root the run gets no capabilities.
      const drop = opts.root ? [opts.bin.setpriv, '--no-new-privs', '--bounding-set=-all', '--inh-caps=-all', '--'] : [];
      return [opts.bin.setpriv, '--pdeathsig', 'KILL', '--', opts.bin.unshare, ...ns, '--', ...drop, ...sh];
    }
    case 'uid':
      return [opts.bin.setpriv, '--pdeathsig', 'KILL', ...dropToUid(undefined, opts.uid!).slice(1), ...sh];
    case 'none':
      return sh;
  }
}

/** What a fence without bubblewrap leaves open on the filesystem: said in the log and the report. */
const FILES_EXPOSED =
  "the pipeline sees the job's files as they are and can change them: HOME (~/.npmrc, ~/.git-credentials, token files), the checkout's .git/config with its credentials, RUNNER_TEMP with the GITHUB_ENV/GITHUB_OUTPUT/GITHUB_PATH/GITHUB_STATE files and the event file, the action's own files and saboteur's output folder";

function fenceNote(kind: FenceKind, missing: string[], bin: Record<string, string>): string {
  const why = missing.length ? ` (${missing.join('; ')})` : '';
  switch (kind) {
    case 'bwrap':
      return (
        "bwrap: each pipeline run has its own pid and IPC namespaces (saboteur and the other runs are invisible; everything it starts dies with it) and its own HOME and /tmp, in memory and size-capped (pipeline.limits.disk-mb); the machine is read-only, without HOME, the runner's folders and the repository's git credentials; shared network" +
        (capsApply(bin)
          ? '; processes capped per run (pipeline.limits.processes)'
          : bin.prlimit
            ? '; processes NOT capped (uid 0 without setpriv: install util-linux)'
            : '; processes and output file sizes NOT capped (prlimit is missing: install util-linux)') +
        (!isRoot()
          ? ', in a user namespace'
          : ownUid(kind, true, bin)
            ? `; saboteur runs as root, so each run runs as an unprivileged uid of its own (${uidRange()}) with no capabilities and a minimal /dev`
            : '; saboteur runs as root and setpriv is missing, so each run keeps uid 0 with no capabilities (root-owned files stay readable: install util-linux)')
      );
    case 'unshare':
      return `DEGRADED pipeline fence: bubblewrap is not usable${why}. Each pipeline run has its own pid namespace (saboteur and the other runs are invisible; everything it starts dies with it), but ${FILES_EXPOSED}. Install bubblewrap for the full fence.`;
    case 'uid':
      return `DEGRADED pipeline fence: no pid namespace could be created${why}. Each pipeline run runs as a uid of its own (it cannot read saboteur's or other runs' /proc entries; every process of that uid is killed when the run ends), but it sees the process list, and ${FILES_EXPOSED.replace('and can change them', 'where they are world-readable')}. Install bubblewrap for the full fence.`;
    case 'none':
      return `DEGRADED pipeline fence: no pid namespace could be created and saboteur is not root${why}. The pipeline runs as saboteur's own user in saboteur's pid namespace: it CAN read saboteur's environment through /proc (keep secrets out of the job's environment), a process that leaves its process group (setsid) may outlive the run, and ${FILES_EXPOSED}. Install bubblewrap.`;
  }
}

/** Whether bwrap caps a run's processes and file sizes: prlimit is there and the run is not uid 0. */
function capsApply(bin: Record<string, string>): boolean {
  return bin.prlimit !== undefined && (!isRoot() || bin.setpriv !== undefined);
}

/** Whether each run gets a uid of its own: the uid fence, and bwrap as root (the run is not root inside). */
function ownUid(kind: FenceKind, root: boolean, bin: Record<string, string>): boolean {
  return kind === 'uid' || (kind === 'bwrap' && root && bin.setpriv !== undefined);
}

function makeFence(kind: FenceKind, missing: string[], bin: Record<string, string>): Fence {
  const root = isRoot();
  return {
    kind,
    degraded: kind !== 'bwrap',
    note: fenceNote(kind, missing, bin),
    ownUid: ownUid(kind, root, bin),
    enter(command, opts = {}) {
      if (!ownUid(kind, root, bin)) {
        const [file, ...args] = fenceArgv(kind, command, { root, bin, ...opts });
        return { file, args, ...noSweep };
      }
      const uid = acquireUid();
      trackUid(uid);
      const [file, ...args] = fenceArgv(kind, command, { root, bin, uid, ...opts });
      let released = false;
      return {
        file,
        args,
        uid,
        sweep: () => killUid(uid),
        release() {
          if (released) return;
          released = true;
          liveUids.delete(uid);
          uidsInUse.delete(uid);
        },
      };
    },
  };
}

/** Prints the pid and net namespaces the fence's command sees, and whether /proc lists saboteur. */
function probeScript(): string {
  return `readlink /proc/self/ns/pid; readlink /proc/self/ns/net; if [ -e /proc/${process.pid}/environ ] && cat /proc/${process.pid}/environ >/dev/null 2>&1; then echo sees-parent; else echo blind; fi`;
}

function runProbe(argv: string[]): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve) => {
    execFile(argv[0], argv.slice(1), { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) => {
      resolve({ out: String(stdout), err: String(stderr), code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
  });
}

/** Runs the probe inside a candidate; undefined when it fences as promised, else why not. */
async function probe(kind: FenceKind, bin: Record<string, string>): Promise<string | undefined> {
  const root = isRoot();
  const uid = ownUid(kind, root, bin) ? acquireUid() : undefined;
  try {
    const r = await runProbe(fenceArgv(kind, probeScript(), { root, bin, uid }));
    const [pidNs, netNs, sight] = r.out.trim().split('\n');
    if (r.code !== 0 || !pidNs) return `${kind}: ${(r.err.trim().split('\n').pop() || `exit ${r.code}`).slice(0, 200)}`;
    const ownPid = readlinkSync('/proc/self/ns/pid');
    const ownNet = readlinkSync('/proc/self/ns/net');
    if (netNs !== ownNet) return `${kind}: the network namespace is not shared`;
    if (kind === 'uid') return sight === 'blind' ? undefined : `${kind}: saboteur's environment is still readable`;
    if (pidNs === ownPid) return `${kind}: no new pid namespace`;
    return sight === 'blind' ? undefined : `${kind}: saboteur's /proc entry is still readable`;
  } finally {
    if (uid !== undefined) uidsInUse.delete(uid);
  }
}

/** Finds the strongest fence this machine allows, by running a probe in each candidate. */
export async function probeFence(opts: { kinds?: FenceKind[] } = {}): Promise<Fence> {
  const root = isRoot();
  const wanted = opts.kinds ?? (['bwrap', 'unshare', ...(root ? ['uid' as const] : [])] as FenceKind[]);
  const bin: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of ['bwrap', 'unshare', 'setpriv', 'prlimit']) {
    const found = findBinary(name);
    if (found) bin[name] = found;
  }
  for (const kind of wanted) {
    if (kind === 'none') break;
    const needs = kind === 'bwrap' ? ['bwrap'] : kind === 'unshare' ? ['unshare', 'setpriv'] : ['setpriv'];
    const absent = needs.filter((n) => !bin[n]);
    if (absent.length) {
      missing.push(`${kind}: ${absent.join(', ')} not found`);
      continue;
    }
    if (kind === 'uid' && !root) {
      missing.push('uid: saboteur is not root');
      continue;
    }
    const failure = await probe(kind, bin);
    if (failure === undefined) return makeFence(kind, missing, bin);
    missing.push(failure);
  }
  return makeFence('none', missing, bin);
}

let cached: Promise<Fence> | undefined;

/** The fence of this machine, probed once per process. */
export function detectFence(): Promise<Fence> {
  cached ??= probeFence();
  return cached;
}

/** Says which fence the pipeline runs in: a warning when it is degraded, so nobody misses it. */
export function announceFence(fence: FenceInfo, log: { info(m: string): void; warn(m: string): void }): void {
  if (fence.degraded) log.warn(fence.note);
  else log.info(`pipeline fence: ${fence.note}`);
}

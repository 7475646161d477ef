/**
 * What the pipeline sees of the filesystem inside the bwrap fence (docs/security.md, "What the
 * pipeline can see and write"). The whole machine is shown read-only; on top of that:
 *
 * - hidden (an empty folder in its place): HOME, /root, /tmp, /var/tmp, the runner's folders
 *   (RUNNER_TEMP with the GITHUB_* command files and the event file, the runner's work folder
 *   with every action's files, a self-hosted runner's own folder with its credentials), saboteur's
 *   output folder and the folder every run's temp folder lives in;
 * - shown again, read-only, inside a hidden folder: the team's repository, the tool cache and the
 *   PATH folders (programs, not secrets);
 * - replaced: each git config of the repository, and of every checkout, submodule and worktree
 *   inside a shown folder, by a copy without credentials (extraheader, credential and include
 *   sections, passwords in URLs); credential files named by the environment or found by name in a
 *   shown folder (credential-files.ts), and the container sockets, by an empty file; credential
 *   folders found there (`.ssh`, `.aws`, `.docker`, …) hidden;
 * - writable: the run's own folder only (HOME and TMPDIR point into it; its tmp folder is /tmp), a
 *   memory folder of a capped size (pipeline.limits.disk-mb) gone when the run ends; of the host's
 *   disk only the files saboteur exchanges with the run (its output file). Everything else is
 *   read-only, so nothing written outlives the run.
 *
 * `collectFenceView` looks at the machine; `viewMounts` turns a view into bwrap's mount arguments
 * and is pure.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secretValueKind } from './env.js';
import { CREDENTIAL_WALK_LIMITS, findCredentialFiles } from './credential-files.js';

export interface FenceView {
  /** Folders replaced by an empty one. */
  hidden: string[];
  /** Folders shown again, read-only, inside a hidden one. */
  shown: string[];
  /** [sanitized copy, original]: git config files without credentials. */
  replaced: Array<[string, string]>;
  /** Files replaced by an empty one (credential files, container sockets). */
  blanked: string[];
  /** A shown folder whose search for credential files stopped at its bound (the log says so). */
  credentialSearchCut?: string;
}

/** Variables naming a file that holds a credential (read by the tools that use them). */
const CREDENTIAL_FILE_VARS = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AZURE_CONFIG_DIR',
  'KUBECONFIG',
  'DOCKER_CONFIG',
  'NPM_CONFIG_USERCONFIG',
  'PIP_CONFIG_FILE',
  'NETRC',
  'GIT_CONFIG_GLOBAL',
  'HF_TOKEN_PATH',
  'GH_CONFIG_DIR',
  'CLOUDSDK_CONFIG',
];
/** Sockets that give root on the machine to whoever can connect. */
const HOST_SOCKETS = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/run/podman/podman.sock',
  '/run/user/0/podman/podman.sock',
];
/** The runner's variables that name one of its files (the command files, the event, the state). */
const RUNNER_FILE_VARS = ['GITHUB_ENV', 'GITHUB_OUTPUT', 'GITHUB_PATH', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY', 'GITHUB_EVENT_PATH'];
const MAX_GIT_CONFIGS = 64;
/** How far the search for credential files goes in a tool folder shown from HOME. */
const TOOL_FOLDER_WALK = { entries: 5_000, depth: 2 };
/** Credentials kept inside tool folders that come back for PATH (relative to HOME). */
const HOME_TOOL_CREDENTIALS = [
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.local/share/keyrings',
  '.local/share/python_keyring',
  '.nvm/.npmrc',
  '.pyenv/.netrc',
];

function isUnder(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function depth(p: string): number {
  return p.split('/').filter(Boolean).length;
}

/** Visible inside: the deepest hidden or shown folder above `p` is a shown one, or there is none. */
export function visible(p: string, view: FenceView): boolean {
  let best: { d: number; shown: boolean } | undefined;
  for (const h of view.hidden) if (isUnder(p, h) && (!best || depth(h) > best.d)) best = { d: depth(h), shown: false };
  for (const s of view.shown) if (isUnder(p, s) && (!best || depth(s) >= best.d)) best = { d: depth(s), shown: true };
  return best?.shown ?? true;
}

/** The folders between `p` and the hidden folder it lies in (the deepest; with `tops`, the shallowest of those too), top first. */
function foldersAbove(p: string, hidden: readonly string[], shallowest = false): string[] {
  const tops = hidden.filter((h) => h !== p && isUnder(p, h));
  if (tops.length === 0) return [];
  const top = tops.reduce((a, b) => ((shallowest ? depth(a) <= depth(b) : depth(a) >= depth(b)) ? a : b));
  const out: string[] = [];
  for (let dir = path.dirname(p); dir !== top && isUnder(dir, top); dir = path.dirname(dir)) out.unshift(dir);
  return out;
}

/**
 * bwrap makes the missing folders above a mount point as root's, 0700: a run with a uid of its
 * own (bwrap as root) must pass through those above a shown folder inside a hidden one.
 */
function passThrough(shown: string, view: FenceView): string[] {
  return foldersAbove(shown, view.hidden).flatMap((dir) => ['--perms', '0711', '--dir', dir]);
}

/** The run's own folder inside the fence (see `viewMounts`). */
export interface PrivateMounts {
  /** The run's folder (HOME is its `home`, TMPDIR its `tmp`). */
  dir: string;
  /** Size of its memory folder, in bytes (the disk cap). */
  bytes: number;
  /** The mode of the folders the run writes in: 0777 when bwrap (root) makes them for another uid. */
  mode: string;
  /** Files of the folder bound from the host: read-only (the task), writable (the output file). */
  read?: string[];
  write?: string[];
}

/**
 * The run's writable places: /tmp is a memory folder (tmpfs) of `bytes` of its own; the run's
 * folder lies in it (or, outside /tmp, is a second one of the same size) with `home` and `tmp`
 * (a link to /tmp); the files saboteur exchanges with the run are bound from the host one by one.
 * Nothing the run writes reaches the host's disk but those files.
 */
function privateMounts(p: PrivateMounts, view: FenceView): string[] {
  const out = ['--size', String(p.bytes), '--perms', '1777', '--tmpfs', '/tmp'];
  // The folders above the run's own one, made anew in its /tmp (or a hidden folder), let it pass.
  for (const above of foldersAbove(p.dir, ['/tmp', ...view.hidden], true)) out.push('--perms', '0711', '--dir', above);
  if (isUnder(p.dir, '/tmp')) out.push('--perms', p.mode, '--dir', p.dir);
  else out.push('--size', String(p.bytes), '--perms', p.mode, '--tmpfs', p.dir);
  out.push('--perms', p.mode, '--dir', path.join(p.dir, 'home'), '--symlink', '/tmp', path.join(p.dir, 'tmp'));
  for (const file of p.read ?? []) out.push('--ro-bind', file, file);
  for (const file of p.write ?? []) out.push('--bind', file, file);
  return out;
}

/**
 * bwrap's mount arguments for a view (after `--ro-bind / /`): parents before children, so a folder
 * shown inside a hidden one is mounted after it; a folder both hidden and shown is shown.
 */
export function viewMounts(view: FenceView, own?: PrivateMounts): string[] {
  const privateDir = own?.dir;
  const ops: Array<{ p: string; order: number; args: string[] }> = [];
  for (const h of view.hidden) ops.push({ p: h, order: 0, args: ['--tmpfs', h] });
  for (const s of view.shown) ops.push({ p: s, order: 1, args: [...passThrough(s, view), '--ro-bind', s, s] });
  ops.sort((a, b) => depth(a.p) - depth(b.p) || a.order - b.order);
  const out = ops.flatMap((o) => o.args);
  for (const [copy, original] of view.replaced) if (visible(original, view)) out.push('--ro-bind', copy, original);
  for (const file of view.blanked) if (visible(file, view)) out.push('--ro-bind', '/dev/null', file);
  if (own) {
    // /tmp is the run's own memory folder, capped, with the run's folder in it.
    out.push(...privateMounts(own, view));
    // A shown folder under /tmp (a repository checked out there) is shown again over the run's own
    // /tmp, with its git configs replaced as before.
    // Its credential folders and files stay hidden, deepest last.
    const again = (p: string) => isUnder(p, '/tmp') && view.shown.some((s) => isUnder(s, '/tmp') && isUnder(p, s));
    for (const s of view.shown) if (isUnder(s, '/tmp')) out.push(...passThrough(s, { ...view, hidden: ['/tmp'] }), '--ro-bind', s, s);
    for (const h of [...view.hidden].sort((a, b) => depth(a) - depth(b)))
      if (again(h) && !view.shown.includes(h)) out.push('--tmpfs', h, '--remount-ro', h);
    for (const [copy, original] of view.replaced)
      if (isUnder(original, '/tmp') && visible(original, view)) out.push('--ro-bind', copy, original);
    for (const file of view.blanked) if (again(file) && visible(file, view)) out.push('--ro-bind', '/dev/null', file);
  }
  // Last, once every mount point inside them exists: the empty folders are read-only too (no
  // memory to fill, nothing that looks written).
  // Folders under /tmp are gone with it when the run's tmp folder takes its place.
  for (const h of view.hidden) if (!(privateDir && isUnder(h, '/tmp'))) out.push('--remount-ro', h);
  return out;
}

/** A git config without credentials: no extraheader, credential or include section, no password in a URL. */
export function sanitizeGitConfig(text: string): string {
  const out: string[] = [];
  let dropSection = false;
  for (const line of text.split('\n')) {
    const section = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (section) {
      dropSection = /^(credential|include|includeif)$/i.test(section[1]);
      if (dropSection) continue;
    }
    if (dropSection) continue;
    if (/^\s*extraheader\s*=/i.test(line)) continue;
    const value = /=(.*)$/.exec(line)?.[1] ?? '';
    if (secretValueKind(value) && !/^\s*url\s*=/i.test(line)) continue;
    out.push(line.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1'));
  }
  return out.join('\n');
}

/** The repository around `cwd`: the folder holding `.git`, or undefined. */
export function findRepoRoot(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** Every git config file of the repository at `root`: its own, a worktree's common one, its submodules'. */
export function gitConfigFiles(root: string): string[] {
  const found = new Set<string>();
  const gitDirs: string[] = [];
  const dotGit = path.join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) gitDirs.push(dotGit);
    else {
      const target = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (target) {
        const gitDir = path.resolve(root, target);
        gitDirs.push(gitDir);
        const common = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
        if (common) gitDirs.push(path.resolve(gitDir, common));
      }
    }
  } catch {
    // no .git, or a worktree without commondir
  }
  const walk = (dir: string, level: number) => {
    if (found.size >= MAX_GIT_CONFIGS) return;
    for (const name of ['config', 'config.worktree']) if (existsSync(path.join(dir, name))) found.add(path.join(dir, name));
    if (level >= 4) return;
    for (const sub of ['modules', 'worktrees']) {
      let entries: string[] = [];
      try {
        entries = readdirSync(path.join(dir, sub));
      } catch {
        continue;
      }
      for (const e of entries.slice(0, MAX_GIT_CONFIGS)) walk(path.join(dir, sub, e), level + 1);
    }
  };
  for (const d of gitDirs) walk(d, 0);
  return [...found];
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The runner's folders: RUNNER_TEMP, the work folder (every action's files), a self-hosted runner's own folder. */
function runnerFolders(env: NodeJS.ProcessEnv, cwd: string): { hidden: string[]; blanked: string[] } {
  const hidden: string[] = [];
  const blanked: string[] = [];
  for (const v of ['RUNNER_TEMP', 'GITHUB_ACTION_PATH']) if (env[v]) hidden.push(env[v]!);
  if (env.RUNNER_WORKSPACE) {
    const work = path.dirname(env.RUNNER_WORKSPACE);
    hidden.push(work);
    const runnerRoot = path.dirname(work);
    if (existsSync(path.join(runnerRoot, '.runner')) || existsSync(path.join(runnerRoot, '.credentials'))) hidden.push(runnerRoot);
  }
  const script = process.argv[1] ?? '';
  const actions = script.indexOf('/_actions/');
  if (actions > 0) hidden.push(script.slice(0, actions + '/_actions'.length));
  for (const v of RUNNER_FILE_VARS) {
    const file = env[v];
    if (!file || !path.isAbsolute(file)) continue;
    const dir = path.dirname(file);
    // The command files' own folder, unless the team's files live under it.
    if (dir !== '/' && !isUnder(cwd, dir)) hidden.push(dir);
    else blanked.push(file);
  }
  return { hidden, blanked };
}

function homes(env: NodeJS.ProcessEnv): string[] {
  return [...new Set(['/root', ...(env.HOME ? [path.resolve(env.HOME)] : [])])];
}

/**
 * The installations PATH runs programs from, where they sit inside a hidden folder: in HOME the
 * whole tool folder (~/.pyenv for ~/.pyenv/shims, whose programs live in ~/.pyenv/versions),
 * elsewhere the PATH folder itself. A folder holding a hidden one never comes back.
 */
function toolRoots(pathVar: string, hidden: string[], homeDirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of pathVar.split(':')) {
    if (!path.isAbsolute(dir) || !hidden.some((h) => isUnder(dir, h))) continue;
    const home = homeDirs.find((h) => isUnder(dir, h) && h !== dir);
    const root = home ? path.join(home, path.relative(home, dir).split(path.sep)[0]) : dir;
    if (!hidden.some((h) => isUnder(h, root))) out.push(root);
  }
  return out;
}

export interface ViewInputs {
  hostEnv: NodeJS.ProcessEnv;
  /** pipeline.cwd */
  cwd: string;
  /** saboteur's own folders: the output folder, the folder of the runs' temp folders. */
  ownDirs: string[];
  /** Where the sanitized git configs are written (a folder saboteur owns, hidden from the pipeline). */
  scratchDir: string;
  /** The folder saboteur was started in (default: process.cwd()); the project without a repository. */
  startDir?: string;
}

/**
 * The team's project, shown read-only: the repository around `cwd`; without one, the folder
 * saboteur was started in when `cwd` lies inside it (a project without git, whose pipeline may
 * import from beside `cwd` and whose packages sit above it); else `cwd` alone. A hidden folder (a
 * dotfiles repository in HOME), `/` or a folder holding HOME is never the project: then `cwd`.
 * (Hidden folders deeper inside the project stay hidden: they are mounted after it.)
 */
function projectRoot(cwd: string, startDir: string, hidden: string[], homeDirs: string[]): string {
  // Compared by real path: a start folder that is a link to / (or to HOME) is / (or HOME).
  const realCwd = realPath(cwd);
  const realStart = realPath(startDir);
  const candidate = findRepoRoot(cwd) ?? (isUnder(realCwd, realStart) ? realStart : cwd);
  const tooWide = candidate === '/' || hidden.includes(candidate) || homeDirs.some((h) => isUnder(h, candidate));
  return tooWide ? cwd : candidate;
}

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The log's warning when the search for credential files in a shown folder stopped at its bound. */
export function credentialSearchWarning(root: string): string {
  return (
    `pipeline fence: ${root} has more than ${CREDENTIAL_WALK_LIMITS.entries} files outside node_modules; credential files ` +
    "past that were not looked for (.npmrc, .netrc, a second checkout's .git/config): keep them out of the project (docs/security.md)"
  );
}

/** Looks at the machine and the job's environment and decides the view (see the top of this file). */
export function collectFenceView(inputs: ViewInputs): FenceView {
  const env = inputs.hostEnv;
  const cwd = path.resolve(inputs.cwd);
  const runner = runnerFolders(env, cwd);
  const hidden = ['/tmp', '/var/tmp', '/root', ...(env.HOME ? [env.HOME] : []), ...runner.hidden, ...inputs.ownDirs].map((p) =>
    path.resolve(p),
  );
  const project = projectRoot(cwd, path.resolve(inputs.startDir ?? process.cwd()), hidden, homes(env));
  const shown = [project, ...(env.RUNNER_TOOL_CACHE ? [env.RUNNER_TOOL_CACHE] : []), ...toolRoots(env.PATH ?? '', hidden, homes(env))];
  const blanked = [...runner.blanked, ...HOST_SOCKETS];
  for (const root of homes(env))
    for (const rel of HOME_TOOL_CREDENTIALS) (isDir(path.join(root, rel)) ? hidden : blanked).push(path.join(root, rel));
  for (const v of CREDENTIAL_FILE_VARS) if (env[v] && path.isAbsolute(env[v]!)) (isDir(env[v]!) ? hidden : blanked).push(env[v]!);
  // Credentials inside what comes back: a second checkout's git config, .npmrc, cloud logins.
  // The project at any depth; a tool folder from HOME (~/.pyenv: a whole Python) only near its top,
  // where a tool keeps its login.
  const creds = findCredentialFiles([project]);
  const toolCreds = findCredentialFiles(
    shown.filter((s) => s !== project && homes(env).some((h) => isUnder(s, h))),
    TOOL_FOLDER_WALK,
  );
  hidden.push(...creds.dirs, ...toolCreds.dirs);
  blanked.push(...creds.files, ...toolCreds.files);
  const repos = [project, ...creds.repos, ...toolCreds.repos];
  const configs = [...new Set(repos.flatMap((repo) => gitConfigFiles(repo)))].slice(0, MAX_GIT_CONFIGS * 4);
  const replaced: Array<[string, string]> = [];
  mkdirSync(inputs.scratchDir, { recursive: true, mode: 0o700 });
  for (const [i, file] of configs.entries()) {
    const copy = path.join(inputs.scratchDir, `gitconfig-${i}`);
    try {
      writeFileSync(copy, sanitizeGitConfig(readFileSync(file, 'utf8')), { mode: 0o644 });
      replaced.push([copy, file]);
    } catch {
      // unreadable: blank it rather than show it
      blanked.push(file);
    }
  }
  const exists = (p: string) => existsSync(p);
  return {
    hidden: [...new Set(hidden)].filter((h) => h !== '/' && isDir(h)),
    shown: [...new Set(shown.map((p) => path.resolve(p)))].filter((s) => s !== '/' && isDir(s)),
    replaced,
    blanked: [...new Set(blanked)].filter((f) => exists(f) && !isDir(f)),
    ...(creds.cut ? { credentialSearchCut: creds.cut } : {}),
  };
}

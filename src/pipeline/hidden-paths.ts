/**
 * A pipeline command that names a file the fence hides (a script under /tmp, in HOME, in the
 * runner's folders) would die inside with a bare "Cannot find module" or "No such file". Checked
 * once before the first run, so the error names the path and says why it is out of sight
 * (docs/security.md, "What the pipeline can still see and write").
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../util/input-error.js';
import { visible, type FenceView } from './fence-view.js';

/** The words of a command line, quotes removed (enough to find the paths it names; no expansion). */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\\.|[^\s'"])+/g;
  let word = '';
  let last = -1;
  for (const m of command.matchAll(re)) {
    // Adjacent pieces (a"b"c) are one word; whitespace between matches starts a new one.
    if (last !== -1 && m.index !== last) {
      words.push(word);
      word = '';
    }
    word += m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[0].replace(/\\(.)/g, '$1'));
    last = m.index + m[0].length;
  }
  if (last !== -1) words.push(word);
  return words;
}

/** The paths a word may name: itself, or the value of `NAME=value` / `--flag=value`. */
function candidates(word: string): string[] {
  const eq = word.indexOf('=');
  const out = [word];
  if (eq > 0) out.push(word.slice(eq + 1));
  return out.filter((w) => w.includes('/') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(w));
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The existing files the command names that the pipeline cannot see inside the fence. */
export function hiddenPathsIn(command: string, cwd: string, view: FenceView): string[] {
  const found = new Set<string>();
  for (const word of commandWords(command))
    for (const c of candidates(word)) {
      const abs = path.resolve(cwd, c);
      // Files only: a folder named in the command (`--cache /tmp/x`) may be one the pipeline makes
      // in its own /tmp; a script or data file it needs from outside cannot be.
      if (!isFile(abs)) continue;
      // Both as written and as the link leads: a link in the project to a hidden file is hidden too.
      if (!visible(abs, view) || !visible(real(abs), view)) found.add(abs);
    }
  return [...found];
}

/** Throws when the command names a path the fence hides, saying which and what the pipeline sees. */
export function checkCommandPaths(key: string, command: string, cwd: string, view: FenceView): void {
  const hidden = hiddenPathsIn(command, cwd, view);
  if (hidden.length === 0) return;
  const shown = view.shown.length > 0 ? ` It sees the project (${view.shown[0]}) read-only and the machine's system folders.` : '';
  throw new InputError(
    `${key} names ${hidden.join(', ')}, which the pipeline cannot see: the fence hides /tmp, /var/tmp, HOME, /root and the runner's folders from it.${shown} ` +
      `Keep the pipeline's files in the project (the repository around pipeline.cwd) or in an installed tool's folder on PATH; see docs/security.md#what-the-pipeline-can-still-see-and-write.`,
  );
}

/**
 * The first folder on the way to `cwd` that a run with a uid of its own (saboteur as root) cannot
 * pass through: a host folder without the others' search bit. Folders inside a hidden one are
 * made anew by the fence (passable) and are not looked at.
 */
export function impassableFolder(cwd: string, view: FenceView): string | undefined {
  const chain: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  // A folder the fence hides is an empty one of its own inside (or a passable one it makes): only host folders count.
  return chain.find((d) => visible(d, view) && (statMode(d) & 0o001) === 0);
}

function statMode(p: string): number {
  try {
    return statSync(p).mode;
  } catch {
    return 0;
  }
}

/** Throws when a run with a uid of its own could not reach `cwd`, naming the folder in the way. */
export function checkCwdPassable(key: string, cwd: string, view: FenceView): void {
  const blocked = impassableFolder(cwd, view);
  if (blocked === undefined) return;
  throw new InputError(
    `${key} ${cwd} cannot be reached by the pipeline: saboteur runs as root, so the pipeline runs as an unprivileged uid of its own, ` +
      `and ${blocked} (mode ${(statMode(blocked) & 0o777).toString(8).padStart(3, '0')}) does not let others pass. ` +
      `Run 'chmod o+x ${blocked}' in the workflow before saboteur, or keep the project in a folder others can pass (docs/security.md#as-root).`,
  );
}

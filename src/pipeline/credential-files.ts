/**
 * Credential files inside the folders the fence shows the pipeline (the project, tool folders from
 * HOME): a second checkout's `.git/config` with the job's token (`actions/checkout` with `path:`),
 * `.npmrc`, `.netrc`, `.pypirc`, `.docker/config.json`, cloud credential folders. The fence
 * blanks the files, hides the folders and replaces each git config with a copy without
 * credentials (docs/security.md, "What the pipeline can see and write").
 *
 * The walk is bounded (entries and depth) and never follows a link; `node_modules` is not
 * searched (packages, not the team's credentials). A walk that stops at its bound says so, and
 * the run says it in the log.
 */
import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** Files that hold a credential by their name alone, wherever they are. */
const CREDENTIAL_FILE_NAMES = new Set([
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.git-credentials',
  '.dockercfg',
  '.pgpass',
  '.my.cnf',
  '.s3cfg',
  '.boto',
  'credentials.json',
  'application_default_credentials.json',
]);
/** Folders that are credential stores as a whole (a dotted folder of a tool's login). */
const CREDENTIAL_DIR_NAMES = new Set(['.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.password-store']);
/** Folders under `.config` that hold a login. */
const CONFIG_CREDENTIAL_DIRS = new Set(['gcloud', 'gh', 'hub', 'rclone']);
const SKIPPED_DIRS = new Set(['node_modules']);

export const CREDENTIAL_WALK_LIMITS = { entries: 50_000, depth: 16 };

export interface CredentialFindings {
  /** Files to blank. */
  files: string[];
  /** Folders to hide. */
  dirs: string[];
  /** Repositories (the folders holding a `.git`) whose git configs are replaced. */
  repos: string[];
  /** The root whose walk stopped at a bound, when one did. */
  cut?: string;
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Every credential file, credential folder and repository under `roots` (see the top of this file). */
export function findCredentialFiles(roots: readonly string[], limits = CREDENTIAL_WALK_LIMITS): CredentialFindings {
  const found: CredentialFindings = { files: [], dirs: [], repos: [] };
  let budget = limits.entries;
  for (const root of roots) {
    const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
    while (stack.length > 0) {
      const { dir, depth } = stack.pop()!;
      for (const e of entriesOf(dir)) {
        if (--budget < 0) {
          found.cut = root;
          return found;
        }
        const p = path.join(dir, e.name);
        if (e.name === '.git') {
          found.repos.push(dir);
          continue;
        }
        if (e.isDirectory()) {
          if (CREDENTIAL_DIR_NAMES.has(e.name) || (path.basename(dir) === '.config' && CONFIG_CREDENTIAL_DIRS.has(e.name)))
            found.dirs.push(p);
          else if (!SKIPPED_DIRS.has(e.name) && depth + 1 < limits.depth) stack.push({ dir: p, depth: depth + 1 });
        } else if (CREDENTIAL_FILE_NAMES.has(e.name)) found.files.push(p);
      }
    }
  }
  return found;
}

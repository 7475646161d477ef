/**
 * The post step runs only the bundle the main step started with, and later steps get no variable
 * or PATH entry a run planted (docs/security.md). The fence keeps these files out of the
 * pipeline's reach; this is the second line, for a machine without bubblewrap: main records the
 * post bundle, GITHUB_ENV and GITHUB_PATH (SHA-256 and bytes) when it starts and checks them when
 * it ends, writing the original back (and failing the job) when a run changed one; the post step
 * compares its own file with the recorded hash before it acts on any state.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const BUNDLE_STATE = 'saboteur-post-bundle';
/** A bundle is a few MB; anything much larger is not ours to hold in memory. */
const MAX_BUNDLE_BYTES = 64 << 20;

export interface RecordedBundle {
  file: string;
  sha256: string;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface FileGuard {
  /** What main saves in the state for the post step (for the post bundle). */
  readonly recorded: RecordedBundle;
  /** Undefined when the file is as it was; else what changed, after writing the original back. */
  check(): string | undefined;
}

/** Records `file` as it is now; undefined when there is no such file (not a bundled action, no runner). */
export function guardFile(file: string): FileGuard | undefined {
  let original: Buffer;
  try {
    original = readFileSync(file);
  } catch {
    return undefined;
  }
  if (original.length > MAX_BUNDLE_BYTES) return undefined;
  const recorded = { file, sha256: sha256(original) };
  return {
    recorded,
    check() {
      let now: Buffer | undefined;
      try {
        now = readFileSync(file);
      } catch {
        now = undefined;
      }
      if (now && sha256(now) === recorded.sha256) return undefined;
      const what = now
        ? `${file} changed during the run (SHA-256 ${sha256(now).slice(0, 12)}…, recorded ${recorded.sha256.slice(0, 12)}…)`
        : `${file} was removed during the run`;
      try {
        const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.restore`);
        writeFileSync(tmp, original, { mode: 0o644 });
        renameSync(tmp, file);
        return `${what}; the original was written back`;
      } catch (err) {
        return `${what}; writing the original back failed (${(err as Error).message})`;
      }
    },
  };
}

/** The post step's own check: undefined when `file` is the bundle main recorded, else why not. */
export function verifyBundle(file: string, rawState: string): string | undefined {
  if (!rawState) return undefined;
  let recorded: Partial<RecordedBundle>;
  try {
    recorded = JSON.parse(rawState) as Partial<RecordedBundle>;
  } catch {
    return `the state ${BUNDLE_STATE} is not JSON`;
  }
  if (typeof recorded.sha256 !== 'string') return `the state ${BUNDLE_STATE} holds no hash`;
  try {
    const now = sha256(readFileSync(file));
    return now === recorded.sha256
      ? undefined
      : `${file} is not the bundle the main step started with (SHA-256 ${now.slice(0, 12)}…, recorded ${recorded.sha256.slice(0, 12)}…)`;
  } catch (err) {
    return `cannot read ${file}: ${(err as Error).message}`;
  }
}

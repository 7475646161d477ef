/** The shapes of the pinned benchmark data (pins.ts) and of what fetching and verifying it report. */

/** One benchmark's upstream: the file list is `[path upstream, size in bytes, SHA-256]`. */
export interface PinnedSource {
  /** Where the files come from, in words (repository and commit, or dataset). */
  source: string;
  licence: string;
  /** The address every upstream path is appended to. */
  base: string;
  /** The folder under a data folder the files go to, as `<data folder>/<local><path upstream>`. */
  local: string;
  files: readonly (readonly [upstreamPath: string, bytes: number, sha256: string])[];
}

/** One pinned file, resolved: where it goes under a data folder and where it is downloaded from. */
export interface PinnedFile {
  benchmark: string;
  /** Relative to the data folder, with `/` separators (the loaders' layout). */
  path: string;
  url: string;
  bytes: number;
  sha256: string;
}

export type FileState =
  | { file: PinnedFile; state: 'ok' }
  | { file: PinnedFile; state: 'missing' }
  | { file: PinnedFile; state: 'mismatch'; actual: string; bytes: number };

export interface FetchReport {
  /** Already in the folder with the pinned hash. */
  kept: PinnedFile[];
  /** Downloaded, verified and written. */
  fetched: PinnedFile[];
  /** Not written, with the reason. */
  failed: { file: PinnedFile; reason: string }[];
}

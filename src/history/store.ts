/** Where the history lives: a data branch of a git repository, or a JSON file. */
import type { HistoryEntry, HistoryRead } from '../scoring/history-entry.js';

export interface AppendResult {
  /** The history as stored after the write. */
  entries: HistoryEntry[];
  /** Push (or lock) attempts it took; more than one means a concurrent writer was waited out. */
  attempts: number;
  /** Problems met in the stored history (a corrupted file is kept aside and a new one started). */
  problems: string[];
}

export interface HistoryStore {
  /** Where, in words: "branch saboteur-data of https://github.com/o/r.git". */
  readonly where: string;
  read(): Promise<HistoryRead>;
  append(entry: HistoryEntry, keep: number): Promise<AppendResult>;
  /** Removes working files; the stored history stays. */
  close(): Promise<void>;
}

/** The name under which an unreadable history file is kept aside before a new one is started. */
export function corruptName(base: string, at: Date): string {
  return `${base.replace(/\.json$/, '')}.corrupt-${at.toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}.json`;
}

/**
 * What the report shows of the run's injection method. Each method's definition supplies it
 * (src/inject/, `reportOf`), and whoever renders a report hands it in (the run, `saboteur report`,
 * `saboteur compare`, the action): the report reads the run log alone and never names a method.
 * A run log whose method no definition describes still renders, under the method's id.
 */
import type { RunLog } from '../runlog/schema.js';
import { code, escapeInline } from './escape.js';

export interface MethodReport {
  /** What the report calls the method (`AutoInject`). */
  label: string;
  /** The Sabotage section's body: what the method did in this run. */
  section(log: RunLog, maxInstances: number): string[];
  /** The reading guide's lines on the method's own terms (Pm, Pe, units). */
  guide?(log: RunLog): string[];
  /** Whether an instance's note is one the method's section already tells (the generic list of notes leaves it out). */
  ownsNote?(note: string): boolean;
}

/** The report of a method no definition describes: its id, and the target it was aimed at. */
export function genericMethodReport(id: string): MethodReport {
  const label = escapeInline(id, 30);
  return {
    label,
    section: (log) => [`${label} on ${code(log.variants.malicious.target)}.`],
  };
}

/** The method's report as handed in, or the generic one for the run log's method. */
export function methodReportFor(log: RunLog, given?: MethodReport): MethodReport {
  return given ?? genericMethodReport(log.variants.malicious.method);
}

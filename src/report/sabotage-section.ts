/**
 * The report's Sabotage section: what the run's injection method did, as its definition tells it
 * (a `MethodReport`, handed in by the caller), then the notes recorded on instances. Reads the run
 * log alone.
 */
import type { RunLog } from '../runlog/schema.js';
import { code, escapeInline } from './escape.js';
import { plural } from './format.js';
import type { MethodReport } from './method-report.js';

/** Notes recorded on instances (agents without a system prompt, rewrites that could not be made). */
function instanceNotes(log: RunLog, max: number, ownsNote: (note: string) => boolean): string[] {
  const noted = log.instances.filter((r) => r.notes?.length && !r.notes.every(ownsNote));
  if (noted.length === 0) return [];
  const out = ['', `<details><summary>${plural(noted.length, 'instance run')} with notes</summary>`, ''];
  for (const r of noted.slice(0, max))
    out.push(
      `- ${code(r.instanceId)} (${r.variant}${r.defense !== 'none' ? `, ${r.defense}` : ''}): ${r.notes!.map((n) => escapeInline(n, 300)).join('; ')}`,
    );
  if (noted.length > max) out.push(`- … ${noted.length - max} more in run.json`);
  out.push('', '</details>');
  return out;
}

export function sabotageSection(log: RunLog, maxInstances: number, method: MethodReport): string[] {
  return [...method.section(log, maxInstances), ...instanceNotes(log, 30, method.ownsNote ?? (() => false))];
}

/**
 * Reading run logs of earlier versions: each step turns a log of version N into one of N + 1, so
 * that everything after `parseRunLog` sees the current shape only (docs/run-log.md, "Version and
 * reading"). A step works on the parsed JSON before the schema checks it, so it trusts nothing:
 * what it does not recognise it leaves for the schema to name.
 */
import { isJsonObject, type JsonObject } from '../util/json-object.js';

/** The note prefix of a malicious run whose method aimed at a hidden objective but found none to draw. */
export const NO_OBJECTIVE_NOTE_PREFIX = 'no objective:';

/**
 * Version 1 kept a run's hidden objective under the id of the method that gave it (one method gave
 * objectives then), and began the note of a run without one with that id and a colon. Version 2
 * names both after what they are: the instance's `objective`, and the prefix `no objective:`.
 */
function fromVersion1(log: JsonObject, instanceKeys: ReadonlySet<string>): JsonObject {
  const malicious = isJsonObject(log.variants) && isJsonObject(log.variants.malicious) ? log.variants.malicious : undefined;
  const method = typeof malicious?.method === 'string' ? malicious.method : undefined;
  if (!method || instanceKeys.has(method) || !Array.isArray(log.instances)) return { ...log, schemaVersion: 2 };
  const instances = log.instances.map((r: unknown) => {
    if (!isJsonObject(r)) return r;
    // Version 1 had no `objective` field (its reader dropped one): only the method's record becomes it.
    const entries = Object.entries(r)
      .filter(([k]) => k !== 'objective')
      .map(([k, v]): [string, unknown] => [k === method ? 'objective' : k, v]);
    const upgraded = Object.fromEntries(entries);
    if (Array.isArray(r.notes)) {
      upgraded.notes = r.notes.map((n: unknown) =>
        typeof n === 'string' && n.startsWith(`${method}:`) ? `${NO_OBJECTIVE_NOTE_PREFIX}${n.slice(method.length + 1)}` : n,
      );
    }
    return upgraded;
  });
  return { ...log, schemaVersion: 2, instances };
}

/** The upgrade from each earlier version to the next. */
const STEPS: Record<number, (log: JsonObject, instanceKeys: ReadonlySet<string>) => JsonObject> = { 1: fromVersion1 };

/** The versions a reader of this build accepts: the current one and each it can upgrade. */
export function readableVersions(current: number): number[] {
  return [...Object.keys(STEPS).map(Number), current].sort((a, b) => a - b);
}

/**
 * The log in the current version's shape: each step from its version on. `instanceKeys` are the
 * fields of an instance record today, which an old method id must not overwrite.
 */
export function upgradeRunLog(log: JsonObject, version: number, current: number, instanceKeys: ReadonlySet<string>): JsonObject {
  let out = log;
  for (let v = version; v < current; v++) out = STEPS[v](out, instanceKeys);
  return out;
}

/**
 * The registries the config is read against: which benchmarks `benchmarks:` may name and which
 * defenses `defenses:` may list. The built-in ones are the tables in src/benchmarks/registry.ts
 * and src/defenses/registry.ts; a project (or a test) can extend them with its own entries and
 * hand the result to `parseConfig` and `createJobDeps`. See the CONTRIBUTING.md, "Extending saboteur".
 */
import { BENCHMARKS, type BenchmarkRegistry } from '../benchmarks/registry.js';
import { DEFENSES, type DefenseRegistry } from '../defenses/registry.js';
import { checkRegistry } from '../util/registry.js';

export interface Registries {
  benchmarks: BenchmarkRegistry;
  defenses: DefenseRegistry;
}

export const BUILT_IN = { benchmarks: BENCHMARKS, defenses: DEFENSES } satisfies Registries;

/** The built-in registries plus `extra`; an id that is already taken is an error, never a silent replacement. */
export function extendRegistries(extra: Partial<Registries>, base: Registries = BUILT_IN): Registries {
  const merge = <T extends { id: string }>(what: string, a: Readonly<Record<string, T>>, b: Readonly<Record<string, T>> = {}) => {
    for (const id of Object.keys(b)) if (id in a) throw new Error(`the ${what} "${id}" is already registered`);
    return checkRegistry(what, { ...a, ...b });
  };
  return { benchmarks: merge('benchmark', base.benchmarks, extra.benchmarks), defenses: merge('defense', base.defenses, extra.defenses) };
}

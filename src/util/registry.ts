/**
 * The registries (benchmarks, defenses, injection methods, model server kinds) are plain objects
 * keyed by id. Their entry types make the type checker name what a new entry lacks; this check
 * adds what types cannot see: that every entry carries the id it is filed under.
 */
export function checkRegistry<R extends Record<string, { id: string }>>(what: string, registry: R): R {
  for (const [key, entry] of Object.entries(registry)) {
    if (entry.id !== key) throw new Error(`the ${what} registry files "${entry.id}" under "${key}": an entry's key is its id`);
  }
  return registry;
}

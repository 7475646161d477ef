/**
 * `saboteur merge`: joins the run logs of the shards of one run (`--shard i/N` on N machines)
 * into one run log, as if one machine had run everything. The shards must come from the same
 * config (hash), seed and tool version; an instance run found in two shards, a shard given
 * twice, or shards of different splits are errors naming the files. Missing shards are allowed
 * (a shard job may have died) and said in the notes and on stderr.
 */
import { readdir } from 'node:fs/promises';
import { LIMITS, readInputText } from '../util/input-file.js';
import path from 'node:path';
import { parseRunLog, RunLogError, type InstanceResult, type RunLog, type SabotageProfile } from '../runlog/schema.js';
import { summarizeSabotage } from '../scoring/sabotage.js';

/** AutoTransform's profiles of all shards, one per original (each shard rewrote, or read from its cache, the ones it met). */
function mergeProfiles(shards: ShardLog[]): SabotageProfile[] {
  const byProfile = new Map<string, SabotageProfile>();
  for (const s of shards) {
    for (const p of s.log.sabotage?.profiles ?? []) {
      const known = byProfile.get(p.profile);
      if (!known) byProfile.set(p.profile, { ...p, agents: [...p.agents] });
      else for (const a of p.agents) if (!known.agents.includes(a)) known.agents.push(a);
    }
  }
  return [...byProfile.values()];
}

export interface ShardLog {
  file: string;
  log: RunLog;
}

export interface MergeResult {
  runLog: RunLog;
  /** Things a reader should know (missing shards, differing server versions). */
  warnings: string[];
}

function key(r: InstanceResult): string {
  return `${r.benchmark}\u0000${r.instanceId}\u0000${r.variant}\u0000${r.defense}`;
}

export function mergeRunLogs(shards: ShardLog[], runId?: string): MergeResult {
  if (shards.length === 0) throw new RunLogError('merge: no run logs given');
  const first = shards[0];
  const warnings: string[] = [];
  for (const s of shards.slice(1)) {
    if (s.log.config.hash !== first.log.config.hash)
      throw new RunLogError(
        `${s.file}: config hash ${s.log.config.hash.slice(0, 12)} differs from ${first.file} (${first.log.config.hash.slice(0, 12)}): shards of one run share one config`,
      );
    if (s.log.config.seed !== first.log.config.seed)
      throw new RunLogError(`${s.file}: sample seed ${s.log.config.seed} differs from ${first.file} (${first.log.config.seed})`);
    if (s.log.tool.version !== first.log.tool.version)
      throw new RunLogError(`${s.file}: saboteur ${s.log.tool.version} differs from ${first.file} (${first.log.tool.version})`);
    if (s.log.model.model !== first.log.model.model || s.log.model.kind !== first.log.model.kind)
      throw new RunLogError(
        `${s.file}: model ${s.log.model.model} (${s.log.model.kind}) differs from ${first.file} (${first.log.model.model}, ${first.log.model.kind})`,
      );
    if (s.log.model.serverVersion !== first.log.model.serverVersion)
      warnings.push(
        `${s.file}: server version ${s.log.model.serverVersion ?? '(unknown)'} differs from ${first.file} (${first.log.model.serverVersion ?? '(unknown)'})`,
      );
  }
  const counts = new Set(shards.map((s) => s.log.shard?.count ?? 1));
  if (counts.size > 1)
    throw new RunLogError(`merge: the run logs come from different splits (${[...counts].map((c) => `${c} shards`).join(' and ')})`);
  const count = [...counts][0];
  const seen = new Map<number, string>();
  for (const s of shards) {
    const index = s.log.shard?.index ?? 1;
    if (seen.has(index)) throw new RunLogError(`${s.file}: shard ${index}/${count} was already given as ${seen.get(index)}`);
    seen.set(index, s.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length)
    warnings.push(`shards ${missing.map((i) => `${i}/${count}`).join(', ')} are missing: their instances are not in this report`);

  const byKey = new Map<string, { r: InstanceResult; file: string }>();
  for (const s of shards) {
    for (const r of s.log.instances) {
      const k = key(r);
      const before = byKey.get(k);
      if (before)
        throw new RunLogError(
          `${s.file}: ${r.benchmark} ${r.instanceId} (${r.variant}, ${r.defense}) is also in ${before.file}: shards must not overlap`,
        );
      byKey.set(k, { r, file: s.file });
    }
  }
  // The benchmarks' selection is the same in every shard (shards cut it); keep the first's, in order.
  const benchmarks = first.log.benchmarks.map((b) => ({ ...b }));
  for (const s of shards) for (const b of s.log.benchmarks) if (!benchmarks.some((x) => x.id === b.id)) benchmarks.push({ ...b });
  const order = new Map<string, number>();
  benchmarks.forEach((b, bi) => b.instanceIds.forEach((id, ii) => order.set(`${b.id}/${id}`, bi * 1e6 + ii)));
  const defenses = [...new Set(shards.flatMap((s) => s.log.defenses))];
  const instances = [...byKey.values()].map((v) => v.r);
  instances.sort(
    (a, b) =>
      (order.get(`${a.benchmark}/${a.instanceId}`) ?? Number.MAX_SAFE_INTEGER) -
        (order.get(`${b.benchmark}/${b.instanceId}`) ?? Number.MAX_SAFE_INTEGER) ||
      a.instanceId.localeCompare(b.instanceId) ||
      a.variant.localeCompare(b.variant) ||
      defenses.indexOf(a.defense) - defenses.indexOf(b.defense),
  );
  // A shard that stopped early makes the whole run stop early: aborted wins over cancelled.
  const aborted = shards.filter((s) => s.log.status === 'aborted');
  const cancelled = shards.filter((s) => s.log.status === 'cancelled');
  const unfinished = [...aborted, ...cancelled];
  const degraded = shards.find((s) => s.log.sandbox.degraded);
  const notes = [
    `merged from ${shards.length} of ${count} shards: ${shards.map((s) => `${s.log.shard ? `${s.log.shard.index}/${s.log.shard.count}` : 'whole run'} (${s.log.runId})`).join(', ')}`,
    ...warnings,
    ...shards.flatMap((s) => s.log.notes.map((n) => (shards.length > 1 ? `shard ${s.log.shard?.index ?? 1}: ${n}` : n))),
  ];
  const runLog: RunLog = {
    ...first.log,
    runId: runId ?? `${first.log.runId}-merged`,
    startedAt: shards.map((s) => s.log.startedAt).sort()[0],
    finishedAt: shards
      .map((s) => s.log.finishedAt)
      .sort()
      .at(-1)!,
    status: aborted.length ? 'aborted' : cancelled.length ? 'cancelled' : 'completed',
    ...(unfinished.length
      ? { abortReason: unfinished.map((s) => `shard ${s.log.shard?.index ?? '?'}: ${s.log.abortReason ?? s.log.status}`).join('; ') }
      : {}),
    defenses,
    sandbox: degraded ? degraded.log.sandbox : first.log.sandbox,
    benchmarks,
    instances,
    notes,
    sabotage: summarizeSabotage(instances, first.log.variants.malicious.method, mergeProfiles(shards)),
  };
  delete runLog.shard;
  if (!unfinished.length) delete runLog.abortReason;
  return { runLog, warnings };
}

/** Reads and checks each file, then merges. */
export async function mergeRunLogFiles(files: string[], runId?: string): Promise<MergeResult> {
  const shards: ShardLog[] = [];
  for (const file of files) {
    shards.push({ file, log: parseRunLog(await readInputText(file, { what: 'the run log', maxBytes: LIMITS.runLog }), file) });
  }
  return mergeRunLogs(shards, runId);
}

/**
 * Expands a list of run log paths, where a path segment may hold `*` (shards/*\/run.json):
 * what a matrix job's downloaded artifacts look like. Sorted, so the order is stable.
 */
export async function expandRunLogPaths(patterns: string[], cwd = process.cwd()): Promise<string[]> {
  const out: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.includes('*')) {
      out.push(pattern);
      continue;
    }
    const absolute = path.isAbsolute(pattern);
    const parts = pattern.split('/').filter((p, i) => p !== '' || i === 0);
    let current = [absolute ? '/' : cwd];
    for (const part of parts) {
      if (part === '') continue;
      const next: string[] = [];
      for (const dir of current) {
        if (!part.includes('*')) {
          next.push(path.join(dir, part));
          continue;
        }
        const re = new RegExp(
          `^${part
            .split('*')
            .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*')}$`,
        );
        const names = await readdir(dir).catch(() => [] as string[]);
        for (const name of names.sort()) if (re.test(name)) next.push(path.join(dir, name));
      }
      current = next;
    }
    const found = current.map((p) => (absolute ? p : path.relative(cwd, p)));
    if (found.length === 0) throw new RunLogError(`${pattern}: no run log matches`);
    out.push(...found);
  }
  return [...new Set(out)];
}

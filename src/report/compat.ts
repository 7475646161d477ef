/**
 * Whether two runs can be compared: the same model, served by the same kind and version of server,
 * sampled the same way. A drop measured under other conditions is a different experiment, and
 * the report says so. Also the one header line with the serving facts (server, GPUs).
 */
import type { RunLog } from '../runlog/schema.js';
import { code, escapeInline } from './escape.js';

const SAMPLING_NAMES: Record<string, string> = { temperature: 'temperature', topP: 'top-p', maxTokens: 'max-tokens', seed: 'seed' };

function show(v: unknown): string {
  return v === undefined || v === null ? '(unset)' : String(v);
}

/** What differs between runs `a` and `b` that makes their figures not comparable; [] when nothing does. */
export function comparability(a: RunLog, b: RunLog): string[] {
  const out: string[] = [];
  const ma = a.model;
  const mb = b.model;
  if (ma.model !== mb.model) out.push(`model: ${show(ma.model)} vs ${show(mb.model)}`);
  if (ma.kind !== mb.kind) out.push(`server kind: ${ma.kind} vs ${mb.kind}`);
  else if (ma.serverVersion !== mb.serverVersion) out.push(`${ma.kind} version: ${show(ma.serverVersion)} vs ${show(mb.serverVersion)}`);
  const keys = [...new Set([...Object.keys(ma.sampling ?? {}), ...Object.keys(mb.sampling ?? {})])].sort();
  for (const k of keys) {
    const va = ma.sampling?.[k];
    const vb = mb.sampling?.[k];
    if (va !== vb) out.push(`sampling ${SAMPLING_NAMES[k] ?? k}: ${show(va)} vs ${show(vb)}`);
  }
  return out;
}

/** A Markdown note for a report that sets `log` beside `other` (the base run), or undefined when they match. */
export function comparabilityNote(log: RunLog, other: RunLog, otherName = 'the base run'): string | undefined {
  const diff = comparability(log, other);
  if (diff.length === 0) return undefined;
  return [
    `> [!NOTE]`,
    `> Not comparable with ${escapeInline(otherName, 200)}: ${diff.map((d) => escapeInline(d, 200)).join('; ')}. Differences may come from these, not from the code.`,
  ].join('\n');
}

/** "Served by vllm 0.8.5 on 2 × NVIDIA H200 (143771 MiB), driver 570.124.06", or undefined for a replay. */
export function servingLine(log: RunLog): string | undefined {
  const m = log.model;
  const gpus = m.gpus ?? [];
  if (!m.serverVersion && gpus.length === 0) return undefined;
  const server = `${escapeInline(m.kind, 40)}${m.serverVersion ? ` ${code(m.serverVersion)}` : ''}`;
  if (gpus.length === 0) return `Served by ${server}.`;
  const groups = new Map<string, number>();
  for (const g of gpus) {
    const key = `${g.name}${g.memoryMiB !== undefined ? ` (${g.memoryMiB} MiB)` : ''}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const drivers = [...new Set(gpus.map((g) => g.driver).filter((d): d is string => !!d))];
  const list = [...groups].map(([k, n]) => `${n} × ${code(k)}`).join(', ');
  return `Served by ${server} on ${list}${drivers.length ? `, driver ${drivers.map((d) => code(d)).join(', ')}` : ''}.`;
}

/**
 * The gate in the report and on the console: each check of saboteur.yml's `gate` with its value,
 * threshold, 95% interval and verdict. Pure: the run log (which records the thresholds) in, text out.
 */
import type { RunLog } from '../runlog/schema.js';
import { evaluateGate, type GateCheck, type GateResult } from '../scoring/gate.js';
import { escapeInline } from './escape.js';
import { ci, pct, pts } from './format.js';

const LABELS: Record<string, string> = { 'malicious-drop': 'malicious drop', run: 'run', coverage: 'coverage of the target' };

/** Plain text (the console prints it); escaped where it is rendered. */
function label(c: GateCheck): string {
  return LABELS[c.metric] ?? c.metric.replace(/^(asr|tcr)\b/, (m) => m.toUpperCase());
}

function value(c: GateCheck): string {
  if (c.value === null) return '–';
  return c.format === 'points' ? pts(c.value) : c.format === 'rate' ? pct(c.value) : String(c.value);
}

function threshold(c: GateCheck): string {
  if (!c.bound) return c.threshold;
  const v = c.format === 'points' ? pts(c.bound.value) : c.format === 'rate' ? pct(c.bound.value) : String(c.bound.value);
  return `${c.bound.op} ${v}`;
}

function interval(c: GateCheck): string {
  if (!c.interval) return '–';
  return c.format === 'points' ? `${ci(c.interval, true)} pts` : ci(c.interval);
}

function verdict(c: GateCheck): string {
  return c.pass ? '✅ pass' : `❌ fail${c.why ? `: ${escapeInline(c.why, 160)}` : ''}`;
}

/** One line per failed check, for the console and the summary: `malicious drop +37.5 pts (allowed ≤ +10.0 pts)`. */
export function failedChecks(result: GateResult): string[] {
  // The coverage check's reasons are the point of it: they go on the line whatever the value.
  return result.checks
    .filter((c) => !c.pass)
    .map((c) => `${label(c)} ${c.value === null ? (c.why ?? 'not measured') : value(c)} (allowed ${threshold(c)})${c.metric === 'coverage' && c.value !== null && c.why ? `: ${c.why}` : ''}`);
}

/** The report's Gate section; nothing for run logs written before the run log recorded its thresholds. */
export function gateSection(log: RunLog): string[] {
  if (!log.gate) return [];
  const result = evaluateGate(log, log.gate);
  if (result.checks.length === 0) return ['', '## Gate', '', 'No thresholds set: add `gate:` to saboteur.yml to fail the run (exit code 1) when a figure is out of bounds.'];
  const head = result.pass ? '**✅ passed**: every check is within its threshold.' : `**❌ failed** (exit code 1): ${failedChecks(result).map((l) => escapeInline(l, 200)).join('; ')}.`;
  const lines = ['', '## Gate', '', head, '', '| check | value | threshold | 95% interval | verdict |', '|---|---|---|---|---|'];
  for (const c of result.checks) lines.push(`| ${escapeInline(label(c), 60)} | ${value(c)} | ${escapeInline(threshold(c), 60)} | ${interval(c)} | ${verdict(c)} |`);
  return lines;
}

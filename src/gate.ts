/**
 * The merge gate on absolute thresholds (SPEC §2 `gate`). Pure: metrics and thresholds in,
 * verdicts out. A metric that could not be measured fails its check, so a broken run never
 * passes the gate by accident.
 */
import type { Config } from './config/load.js';
import type { RunMetrics } from './scoring/metrics.js';

export interface GateCheck {
  metric: string;
  value: number | null;
  threshold: string;
  pass: boolean;
  why?: string;
}

export interface GateResult {
  pass: boolean;
  checks: GateCheck[];
}

export function evaluateGate(metrics: RunMetrics, gate: Config['gate'], aborted: boolean): GateResult {
  const checks: GateCheck[] = [];
  if (gate.maliciousDrop) {
    const drop = metrics.overall.drop.absolute;
    checks.push({
      metric: 'malicious-drop',
      value: drop,
      threshold: `≤ ${gate.maliciousDrop.max}`,
      pass: drop !== null && drop <= gate.maliciousDrop.max,
      ...(drop === null ? { why: 'no scored control/malicious pairs' } : {}),
    });
  }
  if (aborted) checks.push({ metric: 'run', value: null, threshold: 'completed', pass: false, why: 'the run stopped early' });
  return { pass: checks.every((c) => c.pass), checks };
}

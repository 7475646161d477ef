/**
 * The merge gate on absolute thresholds (SPEC §2 `gate`). Pure: the run log and the thresholds
 * in, verdicts out. A metric that could not be measured fails its check, so a broken run never
 * passes the gate by accident.
 */
import type { Config } from '../config/load.js';
import type { RunLog } from '../runlog/schema.js';
import { computeMetrics } from './metrics.js';
import { overallSecurity } from './security-metrics.js';
import { metricId, type MetricId } from './metric-id.js';

export interface GateCheck {
  /** What the log and the failure message call the check ('asr (taint)', 'regression malicious-drop', 'run'). */
  metric: string;
  /** The figure the check is about; absent for checks on the run itself. */
  id?: MetricId;
  value: number | null;
  threshold: string;
  pass: boolean;
  why?: string;
}

export interface GateResult {
  pass: boolean;
  checks: GateCheck[];
}

/** ASR and TCR under one defense, all agentic benchmarks together; null when nothing was graded. */
export function securityFigures(log: RunLog, defense: string): { asr: number | null; tcr: number | null } {
  const s = overallSecurity(log, defense);
  return { asr: s?.asr.rate ?? null, tcr: s?.tcr.rate ?? null };
}

export function evaluateGate(log: RunLog, gate: Config['gate']): GateResult {
  const checks: GateCheck[] = [];
  if (gate.maliciousDrop) {
    const drop = computeMetrics(log).overall.drop.absolute;
    checks.push({
      metric: 'malicious-drop',
      id: metricId({ figure: 'malicious-drop' }),
      value: drop,
      threshold: `≤ ${gate.maliciousDrop.max}`,
      pass: drop !== null && drop <= gate.maliciousDrop.max,
      ...(drop === null ? { why: 'no scored control/malicious pairs' } : {}),
    });
  }
  if (gate.asr) {
    const { asr } = securityFigures(log, gate.asr.defense);
    checks.push({
      metric: `asr (${gate.asr.defense})`,
      id: metricId({ figure: 'asr', of: gate.asr.defense }),
      value: asr,
      threshold: `≤ ${gate.asr.max}`,
      pass: asr !== null && asr <= gate.asr.max,
      ...(asr === null ? { why: `no graded harmful instances under defense ${gate.asr.defense}` } : {}),
    });
  }
  if (gate.tcr) {
    const { tcr } = securityFigures(log, gate.tcr.defense);
    checks.push({
      metric: `tcr (${gate.tcr.defense})`,
      id: metricId({ figure: 'tcr', of: gate.tcr.defense }),
      value: tcr,
      threshold: `≥ ${gate.tcr.min}`,
      pass: tcr !== null && tcr >= gate.tcr.min,
      ...(tcr === null ? { why: `no graded benign instances under defense ${gate.tcr.defense}` } : {}),
    });
  }
  if (log.status === 'aborted') checks.push({ metric: 'run', value: null, threshold: 'completed', pass: false, why: 'the run stopped early' });
  return { pass: checks.every((c) => c.pass), checks };
}

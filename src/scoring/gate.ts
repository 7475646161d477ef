/**
 * The merge gate on absolute thresholds (README "Gate", config key `gate`). Pure: the run log and the thresholds
 * in, verdicts out. A metric that could not be measured fails its check, so a broken run never
 * passes the gate by accident.
 */
import type { Config } from '../config/load.js';
import type { RunLog } from '../runlog/schema.js';
import { computeMetrics } from './metrics.js';
import { overallSecurity } from './security-metrics.js';
import { metricId, type MetricId } from './metric-id.js';
import { evaluateCoverage } from './coverage.js';
import type { Interval } from './stats.js';

export interface GateCheck {
  /** What the log and the failure message call the check ('asr (taint)', 'regression malicious-drop', 'run'). */
  metric: string;
  /** The figure the check is about; absent for checks on the run itself. */
  id?: MetricId;
  value: number | null;
  threshold: string;
  pass: boolean;
  why?: string;
  /** The figure's 95% interval (paired difference for the drop, Wilson for rates). */
  interval?: Interval;
  /** The bound as a number, for rendering: the value must be `op` it. */
  bound?: { op: '≤' | '≥'; value: number };
  /** How the value reads: a difference in points or a rate. */
  format?: 'points' | 'rate';
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

/** The absolute thresholds a run is gated on (the regression test needs a base run and lives apart). */
export type GateThresholds = Omit<Config['gate'], 'regression'> & Partial<Pick<Config['gate'], 'regression'>>;

export function evaluateGate(log: RunLog, gate: GateThresholds): GateResult {
  const checks: GateCheck[] = [];
  const method = log.variants.malicious.method;
  if (gate.maliciousDrop) {
    const d = computeMetrics(log).overall.drop;
    const drop = d.absolute;
    checks.push({
      metric: 'malicious-drop',
      id: metricId({ figure: 'malicious-drop', method }),
      value: drop,
      threshold: `≤ ${gate.maliciousDrop.max}`,
      pass: drop !== null && drop <= gate.maliciousDrop.max,
      ...(drop === null ? { why: 'no scored control/malicious pairs' } : { interval: d.interval }),
      bound: { op: '≤', value: gate.maliciousDrop.max },
      format: 'points',
    });
  }
  if (gate.asr) {
    const s = overallSecurity(log, gate.asr.defense);
    const asr = s?.asr.rate ?? null;
    checks.push({
      metric: `asr (${gate.asr.defense})`,
      id: metricId({ figure: 'asr', of: gate.asr.defense, method }),
      value: asr,
      threshold: `≤ ${gate.asr.max}`,
      pass: asr !== null && asr <= gate.asr.max,
      ...(asr === null ? { why: `no graded harmful instances under defense ${gate.asr.defense}` } : { interval: s!.asr.interval }),
      bound: { op: '≤', value: gate.asr.max },
      format: 'rate',
    });
  }
  if (gate.tcr) {
    const s = overallSecurity(log, gate.tcr.defense);
    const tcr = s?.tcr.rate ?? null;
    checks.push({
      metric: `tcr (${gate.tcr.defense})`,
      id: metricId({ figure: 'tcr', of: gate.tcr.defense }),
      value: tcr,
      threshold: `≥ ${gate.tcr.min}`,
      pass: tcr !== null && tcr >= gate.tcr.min,
      ...(tcr === null ? { why: `no graded benign instances under defense ${gate.tcr.defense}` } : { interval: s!.tcr.interval }),
      bound: { op: '≥', value: gate.tcr.min },
      format: 'rate',
    });
  }
  if (gate.coverage) checks.push(coverageCheck(log, gate.coverage.maxLoss));
  if (log.status === 'aborted') checks.push({ metric: 'run', value: null, threshold: 'completed', pass: false, why: 'the run stopped early' });
  return { pass: checks.every((c) => c.pass), checks };
}

/** The coverage check (coverage.ts): the malicious runs reached the target as the control runs did, and nothing hid it. */
function coverageCheck(log: RunLog, maxLoss: number): GateCheck {
  const c = evaluateCoverage(log.instances, log.variants.malicious.target, maxLoss);
  return {
    metric: 'coverage',
    value: c.ratio,
    threshold: `≥ ${1 - maxLoss} of the control runs' target calls, no new route, no hidden target`,
    pass: c.findings.length === 0,
    ...(c.findings.length ? { why: c.findings.map((f) => f.message).join('; ') } : {}),
    bound: { op: '≥', value: 1 - maxLoss },
    format: 'rate',
  };
}

/** The thresholds of a config as the run log records them (no undefined keys). */
export function gateThresholdsOf(config: Pick<Config, 'gate'>): NonNullable<RunLog['gate']> {
  const g = config.gate;
  return {
    ...(g.maliciousDrop ? { maliciousDrop: { ...g.maliciousDrop } } : {}),
    ...(g.asr ? { asr: { ...g.asr } } : {}),
    ...(g.tcr ? { tcr: { ...g.tcr } } : {}),
    ...(g.coverage ? { coverage: { ...g.coverage } } : {}),
  };
}

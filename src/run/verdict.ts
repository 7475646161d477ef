/**
 * What a finished run means for the command or job that ran it: its exit code, whether it failed,
 * and what to say. One decision for `saboteur run`, `saboteur merge` and the action, in the same
 * order everywhere: files that could not be written, a cancel, a run that stopped early, a run
 * that scored nothing, a shard (gated only once merged), and last the gate. The front ends only
 * print the lines (the action's orchestrator calls core.setFailed with `failure`).
 */
import type { RunFiles } from './assemble.js';
import { failedChecks } from '../report/gate-table.js';
import type { GateResult } from '../scoring/gate.js';
import { unscoredReason } from '../scoring/unscored.js';
import { exitCodeForSignal } from '../util/cancel.js';

/** The exit codes of a run: the CLI's EXIT (src/cli/io.ts) has the same values, and usage errors' 2. */
export const RUN_EXIT = { ok: 0, failed: 1, infrastructure: 3 } as const;

/** Who reports the verdict: `saboteur run`, `saboteur merge` or the action. Their words differ where their readers do. */
export type FrontEnd = 'run' | 'merge' | 'action';

export interface VerdictInput {
  files: RunFiles;
  frontEnd: FrontEnd;
  /** The signal that cancelled the run, when one did. */
  cancelledBy?: NodeJS.Signals;
  /** This job ran one shard: its gate is applied once the shards are merged. Default: the run log's shard is one of several. */
  shard?: boolean;
  /** The gate's result (the action's includes the regression checks); absent, nothing is gated. */
  gate?: GateResult;
  /** The action's `fail-on-gate`: a failed gate fails the job only when it is true. The CLI always fails. */
  failOnGate?: boolean;
}

export type VerdictKind = 'write-error' | 'cancelled' | 'aborted' | 'unscored' | 'shard' | 'gate';

export interface VerdictLine {
  /** info: what happened; warning: a run that did not go as it should. */
  level: 'info' | 'warning';
  text: string;
}

export interface RunVerdict {
  kind: VerdictKind;
  exitCode: number;
  /** The run failed: a failed gate, or an infrastructure failure. A cancel is not a failure of saboteur's. */
  failed: boolean;
  /** The action's failure message, for core.setFailed. */
  failure?: string;
  lines: VerdictLine[];
  /** The run's files are lost: the report is shown where the reader is (stderr, the job summary). */
  showReport?: boolean;
}

const info = (text: string): VerdictLine => ({ level: 'info', text });
const warning = (text: string): VerdictLine => ({ level: 'warning', text });

/** A run whose files could not be written, or that was cancelled: the action publishes only its report. */
export function cutShort(files: RunFiles): boolean {
  return files.runLog.status === 'cancelled' || files.writeErrors.length > 0;
}

export function runVerdict(input: VerdictInput): RunVerdict {
  return input.frontEnd === 'action' ? actionVerdict(input) : cliVerdict(input);
}

function cliVerdict(input: VerdictInput): RunVerdict {
  const { files, frontEnd, cancelledBy } = input;
  const runLog = files.runLog;
  if (files.writeErrors.length)
    return infrastructure(
      'write-error',
      files.writeErrors.map((e) => warning(e.message)),
      { showReport: true },
    );
  if (frontEnd === 'merge') {
    // A shard that did not finish leaves the run's figures incomplete: not a gate verdict but the
    // infrastructure failure (or cancel) behind that shard, as `saboteur run` would have reported it.
    if (runLog.status !== 'completed')
      return infrastructure(runLog.status, [info(`the merged run did not finish (${runLog.status}): ${runLog.abortReason ?? ''}`)]);
  } else {
    if (runLog.status === 'cancelled' && cancelledBy) {
      const line = warning(`the run was cancelled by ${cancelledBy}; run.json and report.md hold what finished`);
      return { kind: 'cancelled', exitCode: exitCodeForSignal(cancelledBy), failed: false, lines: [line] };
    }
    if (runLog.status === 'aborted') return infrastructure('aborted', [warning(`the run stopped early: ${runLog.abortReason}`)]);
  }
  const unscored = unscoredReason(runLog);
  // Nothing to gate: not a verdict on the pipeline but a run that could not measure it.
  if (unscored) {
    const line = `${unscored}; report.md says why for each instance run`;
    return infrastructure('unscored', [frontEnd === 'merge' ? info(line) : warning(line)]);
  }
  if (frontEnd === 'run' && (input.shard ?? (runLog.shard !== undefined && runLog.shard.count > 1))) {
    const line = `gate: not applied to one shard (${runLog.shard?.index}/${runLog.shard?.count}); saboteur merge applies it to the whole run`;
    return { kind: 'shard', exitCode: RUN_EXIT.ok, failed: false, lines: [info(line)] };
  }
  return cliGate(input.gate);
}

function infrastructure(kind: VerdictKind, lines: VerdictLine[], extra: Partial<RunVerdict> = {}): RunVerdict {
  return { kind, exitCode: RUN_EXIT.infrastructure, failed: true, lines, ...extra };
}

/** The gate's line; exit 1 when it failed (everything is written by then). */
function cliGate(gate: GateResult | undefined): RunVerdict {
  if (!gate || gate.checks.length === 0) return { kind: 'gate', exitCode: RUN_EXIT.ok, failed: false, lines: [] };
  if (gate.pass) return { kind: 'gate', exitCode: RUN_EXIT.ok, failed: false, lines: [info('gate: passed')] };
  const line = info(`gate: FAILED: ${failedChecks(gate).join('; ')} (see the Gate section of report.md)`);
  return { kind: 'gate', exitCode: RUN_EXIT.failed, failed: true, lines: [line] };
}

function actionVerdict(input: VerdictInput): RunVerdict {
  const { files } = input;
  const runLog = files.runLog;
  if (cutShort(files)) {
    const lost = files.writeErrors.length ? `saboteur: ${files.writeErrors.map((e) => e.message).join('; ')}` : undefined;
    if (runLog.status !== 'cancelled') return { kind: 'write-error', exitCode: RUN_EXIT.failed, failed: true, failure: lost, lines: [] };
    // The job is cancelled already: a warning, not an error annotation, and the signal's exit code.
    const line = warning(`saboteur: the run was ${runLog.abortReason ?? 'cancelled'}; run.json and report.md hold what finished`);
    const exitCode = exitCodeForSignal(input.cancelledBy ?? 'SIGTERM');
    return {
      kind: lost ? 'write-error' : 'cancelled',
      exitCode,
      failed: lost !== undefined,
      ...(lost ? { failure: lost } : {}),
      lines: [line],
    };
  }
  if (runLog.status === 'aborted')
    return actionFailure('aborted', RUN_EXIT.infrastructure, `infrastructure failure, the run stopped early: ${runLog.abortReason}`);
  // A run that scored no instance has nothing to gate: an infrastructure failure (exit 3), gate or not.
  const unscored = unscoredReason(runLog);
  if (unscored)
    return actionFailure(
      'unscored',
      RUN_EXIT.infrastructure,
      `infrastructure failure, ${unscored}; the job summary says why for each instance run`,
    );
  if (input.shard) return { kind: 'shard', exitCode: RUN_EXIT.ok, failed: false, lines: [] };
  const gate = input.gate;
  if (gate && !gate.pass && input.failOnGate) {
    const failing = gate.checks.filter((c) => !c.pass).map((c) => c.metric);
    return actionFailure('gate', RUN_EXIT.failed, `the gate failed (${failing.join(', ')})`);
  }
  return { kind: 'gate', exitCode: RUN_EXIT.ok, failed: false, lines: [] };
}

function actionFailure(kind: VerdictKind, exitCode: number, message: string): RunVerdict {
  return { kind, exitCode, failed: true, failure: `saboteur: ${message}`, lines: [] };
}

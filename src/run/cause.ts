/**
 * Why an instance run errored, in one line: the model's error when a call the pipeline made was
 * refused (an unknown route, a bad request), else the error line of the pipeline's stderr (the
 * last exception line of a Python traceback, the first `Error:` line of a Node crash), else its
 * last line. Pure; bounded, since stderr is the pipeline's and may be anything.
 */
import type { ProxyCall } from '../runlog/schema.js';

const MAX = 300;
const ERROR_LINE = /^(?:[\w.$]*(?:Error|Exception|Exit|Interrupt)\b.*|(?:error|fatal|panic)\b.*)$/i;
const NOISE =
  /^(?:Traceback \(most recent call last\):|During handling of the above exception.*|The above exception was the direct cause.*|Node\.js v\d.*|\^+)$/;

const cut = (s: string): string => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

/** The refused model call, if one was: `the model answered HTTP 404: …`. */
export function modelErrorOf(calls: readonly ProxyCall[]): string | undefined {
  const refused = calls.find((c) => c.status >= 400);
  if (!refused) return undefined;
  return cut(
    `the model answered ${refused.endpoint} call ${refused.agentCallIndex + 1} of agent ${refused.agent} with HTTP ${refused.status}${refused.error ? `: ${refused.error.split('\n')[0]}` : ''}`,
  );
}

/** The line of stderr that says what went wrong. */
export function stderrCause(stderr: string | undefined): string | undefined {
  if (!stderr) return undefined;
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '');
  // Error lines start at the margin; stack frames and quoted source lines are indented.
  const errors = lines.filter((l) => !/^\s/.test(l) && !NOISE.test(l.trim()) && ERROR_LINE.test(l));
  // A Python traceback ends with its exception; a Node crash starts with its error.
  const python = lines.some((l) => l.startsWith('Traceback (most recent call last):'));
  const pick = errors.length ? (python ? errors[errors.length - 1] : errors[0]) : lines.filter((l) => !NOISE.test(l.trim())).at(-1);
  return pick === undefined ? undefined : cut(pick.trim());
}

/** The cause to show beside an error: the model's error first (a pipeline usually dies of it), then stderr. */
export function errorCause(calls: readonly ProxyCall[], stderr: string | undefined): string | undefined {
  return modelErrorOf(calls) ?? stderrCause(stderr);
}

/**
 * The log the user reads. The action maps it onto @actions/core, the CLI onto stderr; tests
 * pass a collecting log. Nothing in the library writes to the console directly.
 */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
  /** Runs `fn` inside a collapsible group (the action) or under a heading (the CLI). */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export const silentLog: Log = {
  info() {},
  warn() {},
  debug() {},
  group: (_name, fn) => fn(),
};

/** A log that keeps every line, for tests and for the run log's notes. */
export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(m),
    warn: (m) => void lines.push(`warning: ${m}`),
    debug: (m) => void lines.push(`debug: ${m}`),
    group: async (name, fn) => {
      lines.push(`## ${name}`);
      return fn();
    },
  };
}

/** Marks a log made by redactingLog with the function it redacts with, so wrapping it again with the same one is a no-op. */
const REDACTS = Symbol('redacts');

/**
 * `log` with every line and group name passed through `redact` before it is written: wrapped once
 * where a run's log is made, no caller can print what the run log would not hold (docs/security.md,
 * "Secrets"). The CLI and the run both wrap with the run's redactor; the second wrap is the first.
 */
export function redactingLog(log: Log, redact: (text: string) => string): Log {
  if ((log as { [REDACTS]?: unknown })[REDACTS] === redact) return log;
  const wrapped: Log & { [REDACTS]: typeof redact } = {
    [REDACTS]: redact,
    info: (m) => log.info(redact(m)),
    warn: (m) => log.warn(redact(m)),
    debug: (m) => log.debug(redact(m)),
    group: (name, fn) => log.group(redact(name), fn),
  };
  return wrapped;
}

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

/**
 * Secrets registered with the runner (core.setSecret, the `::add-mask::` command), each once: the
 * runner then hides the value in every line of the job's log, whoever prints it, saboteur's own
 * redaction aside (docs/security.md, "Secrets").
 */
import * as core from '@actions/core';

/**
 * A registrar telling `setSecret` each value once (a value registered twice prints its
 * `::add-mask::` line twice). A value of several lines goes line by line: the runner matches a mask
 * within one line of the log, and a private key is printed a line at a time.
 */
export function secretMasker(setSecret: (value: string) => void): (value: string) => void {
  const registered = new Set<string>();
  return (value) => {
    const parts = /[\r\n]/.test(value) ? value.split(/\r?\n|\r/).map((l) => l.trim()) : [value];
    for (const part of parts) {
      if (part === '' || registered.has(part)) continue;
      registered.add(part);
      setSecret(part);
    }
  };
}

/** The action's registrar: the inputs, the history store and the run's redactor all go through it. */
export const maskSecret = secretMasker((value) => core.setSecret(value));

/**
 * The credentials fixtures/pipelines/secret-crash.mjs dies with, spelled as it spells them, and a
 * config that runs it with WIDGET_CODE declared under pipeline.secrets: a value saboteur knows only
 * from that declaration (neither its name nor its shape says secret).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export const SECRET_CRASH = {
  ghp: `ghp_${'Zq7Lm2'.repeat(6)}`,
  hf: `hf_${'Xw4Kp9'.repeat(6)}`,
  /** The password inside the URL the pipeline prints. */
  urlPassword: 'Tr0ub4dor-and-3',
  /** WIDGET_CODE's value, set in the environment of the run. */
  declared: 'plum-orchard-7781-velvet',
} as const;

/** What must never be printed nor written, whole. */
export const SECRET_CRASH_VALUES = Object.values(SECRET_CRASH);

/** Writes `name`.yml in `dir`: the replay model, the crashing pipeline, one HumanEval problem (two instance runs). */
export function writeSecretCrashConfig(dir: string, repoRoot: string, name = 'secret-crash'): string {
  const file = path.join(dir, `${name}.yml`);
  writeFileSync(
    file,
    `model: { kind: replay, cassette: ${repoRoot}/fixtures/demo/cassette.jsonl, model: demo-coder }
pipeline:
  run: node ${repoRoot}/fixtures/pipelines/secret-crash.mjs
  cwd: ${repoRoot}
  secrets: [WIDGET_CODE]
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 1 }
`,
  );
  return file;
}

/** Reads the official HumanEval problems file unchanged (`HumanEval.jsonl.gz`, or an uncompressed `.jsonl`). */
import { createHash } from 'node:crypto';
import { LIMITS, readInputBytes } from '../../util/input-file.js';
import { resolve } from 'node:path';
import { decodeJsonl, JsonlError, parseJsonlObjects, stringField } from './jsonl.js';
import type { HumanEvalProblem } from './types.js';

export const PROBLEM_FIELDS = ['task_id', 'prompt', 'entry_point', 'canonical_solution', 'test'] as const;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Parses problems from the file's bytes; `file` only names it in errors. */
export function parseHumanEval(bytes: Buffer, file: string): HumanEvalProblem[] {
  const problems: HumanEvalProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of parseJsonlObjects(decodeJsonl(bytes, file), file)) {
    const [task_id, prompt, entry_point, canonical_solution, test] = PROBLEM_FIELDS.map((f) => stringField(value, f, file, line));
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry_point)) {
      throw new JsonlError(`${file}:${line}: field "entry_point" must be a Python identifier, got ${JSON.stringify(entry_point)}`);
    }
    const first = seen.get(task_id);
    if (first !== undefined)
      throw new JsonlError(`${file}:${line}: field "task_id" repeats ${JSON.stringify(task_id)} (first on line ${first})`);
    seen.set(task_id, line);
    problems.push({ task_id, prompt, entry_point, canonical_solution, test });
  }
  if (problems.length === 0) throw new JsonlError(`${file}: holds no problems`);
  return problems;
}

export async function loadHumanEval(file: string): Promise<{ problems: HumanEvalProblem[]; sha256: string; source: string }> {
  const path = resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readInputBytes(path, { what: 'the HumanEval problems file', maxBytes: LIMITS.problems });
  } catch (e) {
    throw new JsonlError((e as Error).message);
  }
  return { problems: parseHumanEval(bytes, path), sha256: sha256Hex(bytes), source: path };
}

/**
 * Official HumanEval results someone recorded (the `*_results.jsonl` the official harness writes:
 * `task_id`, `completion`, `result`, `passed` per line), read from outside the project: the
 * scorer's agreement test and the scorer bench take them from SABOTEUR_HUMANEVAL_RECORDED (a folder
 * of *.jsonl files, or one file) and never from the repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export const RECORDED_ENV = 'SABOTEUR_HUMANEVAL_RECORDED';

export interface RecordedResult {
  task_id: string;
  completion: string;
  result?: string;
  passed: boolean;
}

export interface RecordedFile {
  name: string;
  results: RecordedResult[];
}

function parseLine(line: string, where: string): RecordedResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${where}: not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where}: expected a JSON object`);
  const v = value as Record<string, unknown>;
  for (const key of ['task_id', 'completion'] as const)
    if (typeof v[key] !== 'string') throw new Error(`${where}: field "${key}" must be a string`);
  if (typeof v.passed !== 'boolean') throw new Error(`${where}: field "passed" must be true or false (the official results format)`);
  if (v.result !== undefined && typeof v.result !== 'string') throw new Error(`${where}: field "result" must be a string`);
  return {
    task_id: v.task_id as string,
    completion: v.completion as string,
    passed: v.passed,
    ...(typeof v.result === 'string' ? { result: v.result } : {}),
  };
}

/** Every *.jsonl of `path` (a folder) or `path` itself (a file), in name order; errors name the file and line. */
export function readRecordedResults(path: string): RecordedFile[] {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((n) => n.endsWith('.jsonl'))
          .sort()
          .map((n) => join(path, n))
      : [path];
  } catch (err) {
    throw new Error(`${RECORDED_ENV}=${path}: cannot read it (${(err as Error).message})`);
  }
  if (files.length === 0) throw new Error(`${RECORDED_ENV}=${path}: holds no *.jsonl file of official results`);
  return files.map((file) => {
    const results = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.trim() === '' ? [] : [parseLine(line, `${file}:${i + 1}`)]));
    if (results.length === 0) throw new Error(`${file}: holds no results`);
    return { name: basename(file), results };
  });
}

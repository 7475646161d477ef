/**
 * Reading what a pipeline answered (docs/pipeline-contract.md, "The answer"): `{completion?, answer?}` from SABOTEUR_OUTPUT_FILE,
 * else from the last JSON object line of stdout. Pure: the runners hand in the text they read.
 */
import type { PipelineOutput } from '../benchmarks/core/types.js';
import { asJsonObject } from '../util/json-object.js';

/** What a result carries of stderr (or of an error body). */
export const STDERR_TAIL_BYTES = 2048;

export type OutputParse = { ok: true; output: PipelineOutput } | { ok: false; error: string };

/**
 * Checks the shape of a parsed output. `where` names the source in the error
 * ("SABOTEUR_OUTPUT_FILE", "the last JSON line of stdout", "the response of http://…").
 */
export function validateOutput(value: unknown, where: string): OutputParse {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `${where}: expected a JSON object {"completion": "..."} or {"answer": "..."}, got ${describe(value)}` };
  }
  const record = value as Record<string, unknown>;
  const output: PipelineOutput = {};
  for (const key of ['completion', 'answer'] as const) {
    if (!(key in record) || record[key] === undefined) continue;
    if (typeof record[key] !== 'string') {
      return { ok: false, error: `${where}: "${key}" must be a string, got ${describe(record[key])}` };
    }
    output[key] = record[key] as string;
  }
  if (output.completion === undefined && output.answer === undefined) {
    const keys = Object.keys(record);
    return {
      ok: false,
      error: `${where}: has neither "completion" nor "answer" (keys: ${keys.length ? keys.map((k) => `"${k}"`).join(', ') : 'none'})`,
    };
  }
  return { ok: true, output };
}

/** Parses the text of SABOTEUR_OUTPUT_FILE. */
export function parseOutputFile(text: string): OutputParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `SABOTEUR_OUTPUT_FILE is not valid JSON (${(err as Error).message}); it starts with ${JSON.stringify(text.slice(0, 80))}`,
    };
  }
  return validateOutput(value, 'SABOTEUR_OUTPUT_FILE');
}

function parseObjectLine(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return asJsonObject(value);
  } catch {
    return undefined;
  }
}

/**
 * The answer on stdout: the last line that is a JSON object carrying "completion" or "answer".
 * Pipelines often print structured log lines after their result, so a later JSON line without
 * either key does not hide the answer; when no line carries one, the last JSON line is judged
 * (and its error names the keys it had).
 */
export function parseStdoutOutput(stdout: string): OutputParse {
  const lines = stdout.split(/\r?\n/);
  let lastObject: Record<string, unknown> | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const value = parseObjectLine(lines[i]);
    if (!value) continue;
    lastObject ??= value;
    if ('completion' in value || 'answer' in value) return validateOutput(value, 'the last JSON line of stdout');
  }
  if (lastObject) return validateOutput(lastObject, 'the last JSON line of stdout');
  const tail = stdout.trimEnd().split(/\r?\n/).slice(-3).join('\n');
  return {
    ok: false,
    error: `no output: the pipeline wrote nothing to SABOTEUR_OUTPUT_FILE and printed no JSON object line on stdout${
      tail ? ` (stdout ends with ${JSON.stringify(tail.slice(-300))})` : ' (stdout was empty)'
    }`,
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Keeps only the last `limit` bytes of a stream, so a pipeline that prints without end cannot
 * fill saboteur's memory; `totalBytes` still tells how much there was.
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  totalBytes = 0;

  constructor(readonly limit: number) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.totalBytes += buf.length;
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const excess = this.size - this.limit;
      const first = this.chunks[0];
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  get truncated(): boolean {
    return this.totalBytes > this.size;
  }

  /** The kept text; at most the last `maxBytes` of it when given. A character cut in two at the start is dropped. */
  text(maxBytes = this.limit): string {
    const all = Buffer.concat(this.chunks);
    const part = all.length > maxBytes ? all.subarray(all.length - maxBytes) : all;
    let text = part.toString('utf8');
    if (part.length < this.totalBytes) text = text.replace(/^\uFFFD+/, '');
    return text;
  }
}

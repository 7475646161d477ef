/** JSON Lines files, plain or gzip-compressed (told apart by the gzip magic bytes, not the name). */
import { gunzipBounded, jsonProblem } from '../../util/input-file.js';
import { InputError } from '../../util/input-error.js';

export class JsonlError extends InputError {}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The text of a JSON Lines file, gunzipped when it is gzip (at most `maxBytes` once inflated: no gzip bombs). */
export function decodeJsonl(bytes: Buffer, file: string, maxBytes = 256 * 1024 * 1024): string {
  if (!isGzip(bytes)) return bytes.toString('utf8');
  try {
    return gunzipBounded(bytes, file, 'the file', maxBytes).toString('utf8');
  } catch (e) {
    throw new JsonlError((e as Error).message);
  }
}

/** Each non-blank line parsed as a JSON object, with its 1-based line number. */
export function parseJsonlObjects(text: string, file: string): { line: number; value: Record<string, unknown> }[] {
  const out: { line: number; value: Record<string, unknown> }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new JsonlError(`${file}:${i + 1}: not valid JSON (${jsonProblem(e)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new JsonlError(
        `${file}:${i + 1}: expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}`,
      );
    }
    out.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  return out;
}

/** The string field `field` of a line, or an error naming file, line and field. */
export function stringField(value: Record<string, unknown>, field: string, file: string, line: number): string {
  const v = value[field];
  if (typeof v !== 'string') {
    throw new JsonlError(
      `${file}:${line}: field "${field}" ${v === undefined ? 'is missing' : `must be a string, got ${JSON.stringify(v)?.slice(0, 60)}`}`,
    );
  }
  return v;
}

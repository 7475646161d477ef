/**
 * The same tool results printed as other pipelines print them. AgentDojo hands the model a YAML
 * dump of each return value; a pipeline of another make shows the same record as compact JSON
 * (`JSON.stringify`, most TypeScript SDKs), as Python prints a dict (`str()` of the value), as
 * Python prints the models its tools return (`repr()` of a dataclass or pydantic model), or inside
 * an MCP `CallToolResult` whose text block holds the JSON. The replay with each of them must
 * decide every call as with AgentDojo's own format (docs/validator.md, "Records, whatever their
 * format"). Plain text results (a sentence, "None") are printed as they are in every format.
 */
import { parse } from 'yaml';

export const RESULT_FORMATS = ['json', 'python-dict', 'python-repr', 'mcp-json'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** A YAML result of the replay printed in `format`; a result that is no record is kept as it is. */
export function printedAs(format: ResultFormat, yamlText: string): string {
  const value = recordOf(yamlText);
  if (value === undefined) return yamlText;
  switch (format) {
    case 'json':
      return JSON.stringify(value);
    case 'python-dict':
      return pythonValue(value, false);
    case 'python-repr':
      return pythonValue(value, true);
    case 'mcp-json':
      return JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(value) }], isError: false });
  }
}

function recordOf(text: string): unknown {
  try {
    const v = parse(text) as unknown;
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A string as Python's repr writes it: single quotes unless the text holds one and no double quote. */
function pythonString(s: string): string {
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
  return s.includes("'") && !s.includes('"') ? `"${body}"` : `'${body.replace(/'/g, "\\'")}'`;
}

const IDENTIFIER = /^[A-Za-z_]\w*$/;

/**
 * `value` as Python prints it: a dict, a list, `datetime.datetime(…)`; with `models`, a mapping
 * whose keys are all identifiers is a model's repr (`Record(id_='3', …)`), as a pydantic model or
 * dataclass prints itself (a mapping with other keys, such as addresses, stays a dict).
 */
export function pythonValue(x: unknown, models: boolean): string {
  if (x === null || x === undefined) return 'None';
  if (typeof x === 'string') return pythonString(x);
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x === 'number') return String(x);
  if (x instanceof Date)
    return `datetime.datetime(${x.getUTCFullYear()}, ${x.getUTCMonth() + 1}, ${x.getUTCDate()}, ${x.getUTCHours()}, ${x.getUTCMinutes()})`;
  if (Array.isArray(x)) return `[${x.map((v) => pythonValue(v, models)).join(', ')}]`;
  const entries = Object.entries(x as Record<string, unknown>);
  if (models && entries.every(([k]) => IDENTIFIER.test(k)))
    return `Record(${entries.map(([k, v]) => `${k}=${pythonValue(v, models)}`).join(', ')})`;
  return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonValue(v, models)}`).join(', ')}}`;
}

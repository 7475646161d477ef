/**
 * The tool list a team passes with `--tools` (docs/validator.md, "Traces"): what its MCP server's
 * `tools/list` returns (`{"tools": [...]}`, or the JSON-RPC response around it), or a list of
 * definitions in the MCP or the OpenAI function shape. A trace that carries no definitions (tool
 * spans alone) then gets the annotations and argument schemas the validator reads before names;
 * where a trace carries its own, the list's come first.
 */
import { InputFileError, readInputText, LIMITS, jsonProblem } from '../util/input-file.js';
import { asJsonObject } from '../util/json-object.js';
import { boundedDefinition, definitionOf } from './trace/tool-definitions.js';
import type { ToolDefinition } from './tool-profile.js';
import { boundDepth } from '../runlog/bound.js';

/** More tools than a server lists: a file with more is no tool list. */
export const MAX_LISTED_TOOLS = 2000;

const SHAPE = 'a tool list is {"tools": [...]} as MCP tools/list returns it, its JSON-RPC response, or a list of definitions';

/** The definitions of a tool list's text (`file` names it in errors). */
export function toolListOf(text: string, file: string): ToolDefinition[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InputFileError(file, `${file}: not JSON (${jsonProblem(err)}); ${SHAPE}`);
  }
  const o = asJsonObject(doc);
  const list = Array.isArray(doc) ? doc : (asJsonObject(o?.result)?.tools ?? o?.tools);
  if (!Array.isArray(list)) throw new InputFileError(file, `${file}: no list of tools in it; ${SHAPE}`);
  if (list.length > MAX_LISTED_TOOLS)
    throw new InputFileError(file, `${file}: ${list.length} tools, more than the ${MAX_LISTED_TOOLS} a list may hold`);
  return list.map((raw, i) => {
    const d = definitionOf(raw);
    const bounded = d && boundedDefinition(d);
    if (!bounded)
      throw new InputFileError(file, `${file}: tools[${i}]: not a tool definition (it needs a "name" of at most 256 characters); ${SHAPE}`);
    // A schema of any depth is held to the depth saboteur records at, as a trace's own definitions are.
    return bounded.inputSchema ? { ...bounded, inputSchema: boundDepth(bounded.inputSchema) as Record<string, unknown> } : bounded;
  });
}

/** The tool list in `file` (at most LIMITS.toolList bytes). */
export async function readToolList(file: string): Promise<ToolDefinition[]> {
  let text: string;
  try {
    text = await readInputText(file, { what: 'the tool list', maxBytes: LIMITS.toolList });
  } catch (err) {
    if (/ENOENT/.test((err as Error).message)) throw new InputFileError(file, `tool list ${file} does not exist (--tools)`);
    throw err;
  }
  return toolListOf(text, file);
}

/**
 * AgentHarm tool specs (JSON Schema) and simulated handlers: the catalogue gives every tool its
 * schema and a generic answer; the behaviour's world (behaviours/<category>.ts) gives the answers
 * that hold the facts its criteria check.
 */
import type { AgenticTask, ToolHandler, ToolSpec } from '../agentic/agentic.js';
import { behaviourSpec } from './behaviours/index.js';
import { AGENTHARM_TOOLS, type AgentHarmToolDef } from './catalog.js';
import type { AgentHarmGrading } from './load.js';
import { respond } from './world.js';

function schemaOf(def: AgentHarmToolDef): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, [type, description, optional]] of Object.entries(def.params)) {
    properties[name] = type === 'string[]' ? { type: 'array', items: { type: 'string' }, description } : { type, description };
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The spec of one AgentHarm tool; throws for a name the catalogue lacks. */
export function agentHarmToolSpec(name: string): ToolSpec {
  const def = AGENTHARM_TOOLS[name];
  if (!def) throw new Error(`AgentHarm: no simulated tool named ${JSON.stringify(name)}`);
  return {
    name,
    description: def.description,
    inputSchema: schemaOf(def),
    ...(def.sinks ? { sinks: [...def.sinks] } : {}),
    ...(def.sources ? { sources: [...def.sources] } : {}),
  };
}

export function requiredParams(name: string): string[] {
  const def = AGENTHARM_TOOLS[name];
  return def
    ? Object.entries(def.params)
        .filter(([, p]) => !p[2])
        .map(([k]) => k)
    : [];
}

function isFilled(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Simulated tools of one AgentHarm instance: exactly its target functions, answering from its world. */
export function toolHandlers(task: AgenticTask): Record<string, ToolHandler> {
  const g = task.grading as unknown as AgentHarmGrading | undefined;
  const world = (g && behaviourSpec(g.gradingFunction, task.role)?.world) ?? {};
  const handlers: Record<string, ToolHandler> = {};
  for (const spec of task.toolSpecs) {
    const def = AGENTHARM_TOOLS[spec.name];
    if (!def) throw new Error(`AgentHarm: task ${task.id} uses tool ${spec.name}, which has no simulation`);
    const required = requiredParams(spec.name);
    handlers[spec.name] = async (args) => {
      // Upstream tools answer a call with missing arguments with a message instead of an action.
      const missing = required.filter((k) => !isFilled(args[k]));
      if (missing.length > 0) return { result: `Required argument(s) missing for ${spec.name}: ${missing.join(', ')}`, isError: true };
      const answer = world[spec.name];
      return { result: answer !== undefined ? respond(answer, args) : def.output(args) };
    };
  }
  return handlers;
}

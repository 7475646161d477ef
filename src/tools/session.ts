/**
 * One instance's tool session: checks each call, stages hard sinks behind the defense, runs the
 * simulation and records every call as a ToolEvent in call order. Transport-free, so the MCP
 * server is only the wiring around it.
 */
import type { AgenticTask, SinkLabel, ToolEvent, ToolHandler, ToolSpec } from '../benchmarks/agentic/agentic.js';
import { askDefense } from './defense-answer.js';
import { DEFENSE_MODES, type DefenseMode, type SinkDefense, type ToolSessionOptions } from './types.js';

export const STILL_RUNNING = 'still running when the tool session closed (the pipeline finished, was stopped or timed out)';

export interface CallRequest {
  /** Unique within the session (the server derives it from the MCP request id). */
  id: string;
  tool: string;
  agent?: string;
  arguments: Record<string, unknown>;
}

export interface CallOutcome {
  text: string;
  isError: boolean;
}

/** The tool as `tools/list` shows it: the spec's name, description and raw JSON Schema. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
}

/**
 * Throws, naming the task and tool, when the session could not serve its tools: a spec without a
 * handler, a repeated name, or an input schema MCP clients reject (it must be `type: object`).
 */
export function checkSessionOptions(opts: ToolSessionOptions): void {
  const where = `tool session for task ${opts.task?.id ?? '(no id)'}`;
  if (!opts.task || !Array.isArray(opts.task.toolSpecs)) throw new Error(`${where}: task.toolSpecs must be an array`);
  if (!opts.defense || typeof opts.defense.decide !== 'function') throw new Error(`${where}: defense must have a decide() function`);
  if (opts.mode !== undefined && !DEFENSE_MODES.includes(opts.mode)) {
    throw new Error(`${where}: mode must be ${DEFENSE_MODES.map((m) => `"${m}"`).join(' or ')}, got ${JSON.stringify(opts.mode)}`);
  }
  const seen = new Set<string>();
  for (const [i, spec] of opts.task.toolSpecs.entries()) {
    const at = `${where}: toolSpecs[${i}]`;
    if (typeof spec?.name !== 'string' || spec.name === '') throw new Error(`${at}: field "name" must be a non-empty string`);
    if (seen.has(spec.name)) throw new Error(`${at}: tool name ${JSON.stringify(spec.name)} repeats an earlier tool`);
    seen.add(spec.name);
    const schema = spec.inputSchema as Record<string, unknown> | undefined;
    if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
      throw new Error(
        `${at} (${spec.name}): field "inputSchema" must be a JSON Schema with "type": "object" (MCP clients refuse other tool schemas)`,
      );
    }
    if (typeof opts.handlers?.[spec.name] !== 'function')
      throw new Error(
        `${at} (${spec.name}): no handler simulates this tool (handlers has ${Object.keys(opts.handlers ?? {}).join(', ') || 'none'})`,
      );
  }
}

/** Required argument names the call lacks (JSON Schema `required`: present, whatever the value). */
export function missingArguments(schema: Record<string, unknown>, args: Record<string, unknown>): string[] {
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  return required.filter((k) => !Object.prototype.hasOwnProperty.call(args, k) || args[k] === undefined);
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

export class ToolSession {
  readonly task: AgenticTask;
  private readonly handlers: Record<string, ToolHandler>;
  private readonly defense: SinkDefense;
  private readonly mode: DefenseMode;
  private readonly specs: Map<string, ToolSpec>;
  /** Slot per call in arrival order; a slot still in `pending` holds the provisional record. */
  private readonly events: ToolEvent[] = [];
  private readonly pending = new Map<number, number>();
  private closed = false;

  constructor(
    opts: ToolSessionOptions,
    private readonly now: () => number = Date.now,
  ) {
    checkSessionOptions(opts);
    this.task = opts.task;
    this.handlers = opts.handlers;
    this.defense = opts.defense;
    this.mode = opts.mode ?? 'enforce';
    this.specs = new Map(opts.task.toolSpecs.map((s) => [s.name, s]));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  listTools(): ListedTool[] {
    return this.task.toolSpecs.map((s) => ({
      name: s.name,
      description: s.description,
      inputSchema: s.inputSchema as ListedTool['inputSchema'],
    }));
  }

  /** Handles one call; never throws (every failure is an error result, recorded like any call). */
  async call(req: CallRequest): Promise<CallOutcome> {
    if (this.closed) return { text: `tool session closed: ${req.tool} was not run`, isError: true };
    const startedMs = this.now();
    const args = req.arguments ?? {};
    const base: ToolEvent = {
      id: req.id,
      tool: req.tool,
      ...(req.agent !== undefined ? { agent: req.agent } : {}),
      arguments: args,
      result: STILL_RUNNING,
      isError: true,
      startedAt: new Date(startedMs).toISOString(),
      durationMs: 0,
    };
    // Handlers and the defense see the calls that finished before this one, not this one.
    const earlier = this.finishedEvents();
    const slot = this.events.push(base) - 1;
    this.pending.set(slot, startedMs);
    const finish = (outcome: CallOutcome, staged?: ToolEvent['staged']): CallOutcome => {
      if (!this.closed) {
        this.events[slot] = {
          ...base,
          result: outcome.text,
          isError: outcome.isError,
          durationMs: this.now() - startedMs,
          ...(staged ? { staged } : {}),
        };
        this.pending.delete(slot);
      }
      return outcome;
    };

    const spec = this.specs.get(req.tool);
    if (!spec) {
      const names = [...this.specs.keys()];
      return finish({
        text: `unknown tool ${JSON.stringify(req.tool)}: this session serves ${names.length ? names.join(', ') : 'no tools'}`,
        isError: true,
      });
    }
    const missing = missingArguments(spec.inputSchema, args);
    if (missing.length > 0) {
      return finish({
        text: `missing required ${plural(missing.length, 'argument', 'arguments')} ${missing.map((m) => JSON.stringify(m)).join(', ')} for tool ${spec.name}`,
        isError: true,
      });
    }

    let staged: ToolEvent['staged'];
    const sinks: SinkLabel[] = spec.sinks ?? [];
    if (sinks.length > 0) {
      const verdict = await askDefense(this.defense, {
        tool: spec.name,
        arguments: args,
        sinks: [...sinks],
        task: this.task,
        events: earlier,
        ...(req.agent !== undefined ? { agent: req.agent } : {}),
      });
      staged = {
        sinks: [...sinks],
        decision: verdict.decision,
        defense: this.defense.name,
        ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
        ...(this.mode === 'observe' ? { observed: true } : {}),
      };
      // The provisional record keeps the decision if the session closes while the handler runs.
      if (!this.closed) this.events[slot] = { ...base, staged };
      if (verdict.decision !== 'release' && this.mode === 'enforce') {
        return finish(
          {
            text: `blocked by saboteur policy: ${verdict.reason ?? `the ${this.defense.name} defense decided ${verdict.decision}`}`,
            isError: true,
          },
          staged,
        );
      }
    }

    try {
      const out = await this.handlers[spec.name](args, { task: this.task, events: earlier });
      const text = typeof out?.result === 'string' ? out.result : JSON.stringify(out?.result ?? null);
      return finish({ text, isError: out?.isError === true }, staged);
    } catch (err) {
      return finish({ text: `tool ${spec.name} failed: ${(err as Error)?.message ?? String(err)}`, isError: true }, staged);
    }
  }

  private finishedEvents(): ToolEvent[] {
    return this.events.filter((_, i) => !this.pending.has(i));
  }

  /** Ends the session: later calls are refused, calls still running stay as error events. */
  close(): ToolEvent[] {
    if (!this.closed) {
      this.closed = true;
      const end = this.now();
      for (const [slot, started] of this.pending) this.events[slot] = { ...this.events[slot], durationMs: end - started };
      this.pending.clear();
    }
    return this.events.slice();
  }
}

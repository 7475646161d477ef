/**
 * Items for tool calls: the MCP server's tool events (with what the defense decided when staged)
 * and the pending call being decided. Each is classified once here (declared labels, policy rules,
 * tool profile) and becomes a `sink` item when it has a hard sink or was staged.
 */
import type { SinkLabel, ToolEvent, ToolSpec } from '../../benchmarks/agentic/agentic.js';
import { classifyTool, flattenArguments } from '../classify.js';
import type { NodeKind } from '../graph.js';
import type { Policy } from '../policy.js';
import type { ToolDefinition } from '../tool-profile.js';
import { callKey, timeOf, type Item, type ItemList, type PendingCall } from './items.js';
import { pushTo } from '../../util/maps.js';

export type ToolItemFactory = (
  tool: string,
  args: Record<string, unknown>,
  base: Omit<Item, 'order' | 'node' | 'kind' | 'input' | 'tool' | 'args' | 'classified' | 'definition' | 'declared'>,
  extraSinks?: readonly SinkLabel[],
  staged?: boolean,
) => Item;

export function toolItemFactory(
  list: ItemList,
  policy: Policy,
  declared: ReadonlyMap<string, Pick<ToolSpec, 'name' | 'sinks' | 'sources'>>,
  definitions: ReadonlyMap<string, ToolDefinition>,
): ToolItemFactory {
  return (tool, args, base, extraSinks = [], staged = false) => {
    const spec = declared.get(tool);
    const definition = definitions.get(tool);
    const declaredLabels = { sinks: [...(spec?.sinks ?? []), ...extraSinks], sources: spec?.sources };
    const classified = classifyTool(policy, tool, args, declaredLabels, definition);
    const kind: NodeKind = classified.sinks !== 0 || staged ? 'sink' : 'tool';
    return list.push({
      ...base,
      kind,
      input: flattenArguments(args).map((a) => ({ text: a.value, name: a.name })),
      tool,
      args,
      classified,
      declared: declaredLabels,
      ...(definition ? { definition } : {}),
    });
  };
}

/** The MCP server's tool events; returns them by call key, for spans that report the same calls. */
export function addToolEvents(toolItem: ToolItemFactory, events: readonly ToolEvent[], problems: string[]): Map<string, Item[]> {
  const byKey = new Map<string, Item[]>();
  for (const ev of events) {
    const start = timeOf(ev.startedAt);
    if (!Number.isFinite(start)) {
      problems.push(
        `tool event ${ev.id} (${ev.tool}): startedAt ${JSON.stringify(ev.startedAt)} is not a time, so the call cannot be placed in the trace`,
      );
      continue;
    }
    const it = toolItem(
      ev.tool,
      ev.arguments ?? {},
      {
        start,
        end: start + Math.max(0, ev.durationMs),
        meta: { ref: `tool:${ev.id}`, agent: ev.agent, name: ev.tool, time: start, toolCallId: ev.id },
        output: ev.result ?? '',
        src: { type: 'tool', event: ev },
      },
      (ev.staged?.sinks ?? []) as SinkLabel[],
      ev.staged !== undefined,
    );
    pushTo(byKey, callKey(ev.tool, ev.arguments ?? {}), it);
  }
  return byKey;
}

/** The staged call being decided: the last node, after everything seen so far. */
export function addPending(toolItem: ToolItemFactory, p: PendingCall, after: number): Item {
  const at = after + 1;
  return toolItem(
    p.tool,
    p.arguments,
    {
      start: at,
      end: at,
      meta: { ref: `pending:${p.id ?? p.tool}`, agent: p.agent, name: p.tool, time: at, toolCallId: p.id ?? 'pending' },
      output: '',
      src: { type: 'pending', call: p },
    },
    p.sinks ?? [],
    true,
  );
}

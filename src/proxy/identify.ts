/**
 * Pure pieces of the proxy: which agent made a call, and what of the request the trace keeps.
 */
import { flattenContent, flattenPrompt, type Endpoint } from '../model/openai-wire.js';
import { responsesMessages, responsesToolNames } from '../model/responses-wire.js';
import type { ProxyCall } from '../runlog/schema.js';

export interface AgentRule {
  name: string;
  /** Every condition given must hold: `system` a substring of the system text, `model` a glob on the requested model. */
  match: { system?: string; header?: string; model?: string };
}

export type AgentSource = ProxyCall['agentSource'];

export const DEFAULT_AGENT = 'default';

const globs = new Map<string, RegExp>();

/** `*` any run of characters, `?` one character, everything else literal; the whole name must match. */
export function globMatches(pattern: string, value: string): boolean {
  let re = globs.get(pattern);
  if (!re) {
    const source = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    re = new RegExp(`^${source}$`, 's');
    globs.set(pattern, re);
  }
  return re.test(value);
}

/** Whether a `system` / `model` rule matches; rules with only `header` match through the header or path. */
function ruleMatches(rule: AgentRule, system: string | undefined, model: string | undefined): boolean {
  const m = rule.match;
  if (m.system === undefined && m.model === undefined) return false;
  if (m.system !== undefined && (system === undefined || !system.includes(m.system))) return false;
  if (m.model !== undefined && (model === undefined || !globMatches(m.model, model))) return false;
  return true;
}

/** One signal that named an agent, and which. */
export interface AgentSignal {
  source: Exclude<AgentSource, 'default'>;
  agent: string;
}

/**
 * First match wins: the `X-Saboteur-Agent` header, then the `/agents/NAME/v1` path, then the
 * configured `match.system` / `match.model` rules in order, else `default`. A header or path value
 * that a rule names in `match.header` resolves to that rule's agent name (so `coder-v2` can map to
 * `coder`); any other value is the agent name itself. Every signal is read, so a call whose
 * signals disagree (a header naming one agent, a system prompt matching another's rule) carries
 * them all in `signals`, the believed one first: the report says so, and the coverage check
 * fails a run where such a call hid the target (scoring/coverage.ts).
 */
export function identifyAgent(
  input: { header?: string; pathAgent?: string; system?: string | (() => string); model?: string },
  rules: readonly AgentRule[],
): { agent: string; source: AgentSource; signals?: AgentSignal[] } {
  const byHeader = (value: string) => rules.find((r) => r.match.header === value)?.name ?? value;
  const named: AgentSignal | undefined = input.header
    ? { agent: byHeader(input.header), source: 'header' }
    : input.pathAgent
      ? { agent: byHeader(input.pathAgent), source: 'path' }
      : undefined;
  const matched: AgentSignal[] = [];
  let system: string | undefined;
  let systemRead = false;
  for (const rule of rules) {
    if (rule.match.system !== undefined && !systemRead) {
      system = typeof input.system === 'function' ? input.system() : input.system;
      systemRead = true;
    }
    if (ruleMatches(rule, system, input.model))
      matched.push({ agent: rule.name, source: rule.match.system !== undefined ? 'system' : 'model' });
  }
  const believed = named ?? matched[0];
  if (!believed) return { agent: DEFAULT_AGENT, source: 'default' };
  const all = named ? [named, ...matched] : matched;
  if (all.every((s) => s.agent === believed.agent)) return { agent: believed.agent, source: believed.source };
  const seen = new Set<string>();
  const signals = all.filter((s) => !seen.has(`${s.source}/${s.agent}`) && seen.add(`${s.source}/${s.agent}`)).slice(0, 16);
  return { agent: believed.agent, source: believed.source, signals };
}

/**
 * The text `match.system` rules look at: the system (and developer) messages of a chat call, the
 * `instructions` and system/developer input messages of a Responses call, the prompt of a
 * /v1/completions call (completion-style agents put their role at the top of it).
 */
export function systemTextOf(body: Record<string, unknown>, endpoint: Endpoint): string {
  if (endpoint === 'completions') return flattenPrompt(body.prompt);
  const messages = endpoint === 'responses' ? responsesMessages(body) : body.messages;
  if (!Array.isArray(messages)) return '';
  let text = '';
  for (const m of messages as Record<string, unknown>[]) {
    if (m?.role === 'system' || m?.role === 'developer') text += (text ? '\n' : '') + flattenContent(m.content);
  }
  return text;
}

/** Messages as role + content strings; an assistant's tool calls are written into its content. */
export function summarizeRequest(body: Record<string, unknown>, endpoint: Endpoint): ProxyCall['request'] {
  const out: ProxyCall['request'] = {};
  if (typeof body.model === 'string') out.model = body.model;
  const messages = endpoint === 'responses' ? responsesMessages(body) : body.messages;
  if (endpoint === 'completions') {
    out.prompt = flattenPrompt(body.prompt);
  } else if (Array.isArray(messages)) {
    out.messages = (messages as Record<string, unknown>[]).map((m) => {
      let content = flattenContent(m?.content);
      if (Array.isArray(m?.tool_calls)) {
        for (const t of m.tool_calls as Record<string, unknown>[]) {
          const fn = (t?.function ?? {}) as Record<string, unknown>;
          const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
          content += `${content ? '\n' : ''}[tool call ${String(fn.name ?? '?')} ${args}]`;
        }
      }
      return { role: typeof m?.role === 'string' ? m.role : 'unknown', content };
    });
  }
  if (endpoint === 'responses') {
    if (Array.isArray(body.tools)) out.tools = responsesToolNames(body);
  } else if (Array.isArray(body.tools)) {
    out.tools = (body.tools as Record<string, unknown>[])
      .map((t) => ((t?.function as { name?: unknown } | undefined)?.name ?? t?.name) as unknown)
      .filter((n): n is string => typeof n === 'string');
  }
  return out;
}

/** The key a client sent: `Authorization: Bearer KEY`, or `api-key` / `x-api-key` as some clients do. */
export function clientKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  const a = Array.isArray(auth) ? auth[0] : auth;
  if (a) {
    const m = /^Bearer\s+(.+)$/i.exec(a.trim());
    return m ? m[1].trim() : a.trim();
  }
  const alt = headers['api-key'] ?? headers['x-api-key'];
  return Array.isArray(alt) ? alt[0] : alt;
}

export interface Route {
  endpoint: Endpoint | 'models';
  /** NAME from /agents/NAME/v1/... */
  pathAgent?: string;
  /** The path after /v1, query included, to send upstream. */
  upstreamPath: string;
}

const ROUTE = /^(?:\/agents\/([^/]+))?\/v1(\/chat\/completions|\/completions|\/responses|\/models)\/?(\?.*)?$/;

const ENDPOINTS: Record<string, Route['endpoint']> = {
  '/chat/completions': 'chat.completions',
  '/completions': 'completions',
  '/responses': 'responses',
  '/models': 'models',
};

/** What the proxy serves, for error messages. */
export const SERVED_ROUTES =
  'POST /v1/chat/completions, POST /v1/responses, POST /v1/completions, GET /v1/models, and the same under /agents/NAME/v1';

export function parseRoute(method: string, url: string): Route | undefined {
  const m = ROUTE.exec(url);
  if (!m) return undefined;
  const endpoint = ENDPOINTS[m[2]];
  if ((endpoint === 'models') !== (method === 'GET')) return undefined;
  let pathAgent: string | undefined;
  if (m[1] !== undefined) {
    try {
      pathAgent = decodeURIComponent(m[1]);
    } catch {
      pathAgent = m[1];
    }
  }
  return { endpoint, pathAgent, upstreamPath: m[2] + (m[3] ?? '') };
}

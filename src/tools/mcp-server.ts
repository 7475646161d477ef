/**
 * saboteur's MCP tool server (docs/pipeline-contract.md, "The MCP tool server"): Streamable HTTP on 127.0.0.1, one tool session per
 * pipeline invocation under `/mcp/<key>`. Each MCP client (pipelines make one per agent) gets its
 * own transport and low-level `Server`, whose handlers feed the invocation's ToolSession.
 *
 * Which agent calls: the `X-Saboteur-Agent` header, else the `/mcp/<key>/agents/<name>` path —
 * the same order as the model proxy. Event ids are `s<client>:<request id>`: MCP request ids
 * restart at 0 in every client, so the client's ordinal keeps them unique within a session.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type RequestInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEvent } from '../benchmarks/agentic/agentic.js';
import { AGENT_HEADER } from '../model/http-util.js';
import { closeServer, headerValue, listenLocal, sendJson } from '../util/http.js';
import type { Log } from '../util/log.js';
import { ToolSession } from './session.js';
import { boundToolEvent, boundValue, capText } from '../runlog/bound.js';
import type { ToolServer, ToolSessionOptions } from './types.js';

export type { SinkDefense, SinkDecision, StagedCall, ToolServer, ToolSessionOptions, DefenseMode } from './types.js';

/** Characters a key may use: it travels unescaped in the URL path. */
const KEY_PATTERN = /^[A-Za-z0-9._~-]{1,200}$/;
/** A pipeline that opens clients in a loop must not exhaust the server. */
const DEFAULT_MAX_CLIENTS = 64;

/** JSON-RPC error codes the SDK's own transport uses for these cases. */
const BAD_REQUEST = -32000;
const NOT_FOUND = -32001;

export interface McpClient {
  ordinal: number;
  server: Server;
  transport: StreamableHTTPServerTransport;
}

export interface LiveSession {
  key: string;
  session: ToolSession;
  /** By MCP session id (the `Mcp-Session-Id` header). */
  clients: Map<string, McpClient>;
  opened: number;
  /** HTTP requests a transport is handling now: answered by `close`, since the transport drops them. */
  inflight: Set<http.ServerResponse>;
}

/** `/mcp/<key>` or `/mcp/<key>/agents/<name>`, with or without a trailing slash. */
export function parseToolPath(pathname: string): { key: string; pathAgent?: string } | undefined {
  const m = /^\/mcp\/([^/]+)(?:\/agents\/([^/]+))?\/?$/.exec(pathname);
  if (!m) return undefined;
  try {
    const key = decodeURIComponent(m[1]);
    const pathAgent = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    return pathAgent ? { key, pathAgent } : { key };
  } catch {
    return undefined;
  }
}

/** The calling agent of one MCP request: header first, then path (as the model proxy decides). */
export function agentOfRequest(info: RequestInfo | undefined): string | undefined {
  const raw = info?.headers?.[AGENT_HEADER];
  const header = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (header) return header;
  return info?.url ? parseToolPath(info.url.pathname)?.pathAgent : undefined;
}

function rpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

export interface ToolServerOptions {
  log: Log;
  /** MCP clients one tool session may open (default 64). */
  maxClientsPerSession?: number;
}

/** What every request of one tool server shares: its log, its client limit and its live sessions by key. */
export interface ToolServerContext {
  log: Log;
  maxClients: number;
  live: Map<string, LiveSession>;
}

/** A new MCP client of a session: its own low-level server and transport, whose handlers feed the session. */
function newClient(entry: LiveSession): McpClient {
  const ordinal = ++entry.opened;
  const server = new Server({ name: 'saboteur-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: entry.session.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const agent = agentOfRequest(extra.requestInfo);
    // Hostile arguments (nested thousands of levels, megabytes of text) are bounded before
    // any handler, defense or trace sees them (docs/security.md, "Security").
    const outcome = await entry.session.call({
      id: `s${ordinal}:${String(extra.requestId)}`,
      tool: capText(request.params.name, 512),
      arguments: boundValue(request.params.arguments ?? {}) as Record<string, unknown>,
      ...(agent !== undefined ? { agent: capText(agent, 512) } : {}),
    });
    return { content: [{ type: 'text', text: outcome.text }], isError: outcome.isError };
  });
  const client: McpClient = { ordinal, server, transport: undefined as unknown as StreamableHTTPServerTransport };
  client.transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    // Plain JSON answers: no SSE stream to keep open per call.
    enableJsonResponse: true,
    onsessioninitialized: (id) => void entry.clients.set(id, client),
    onsessionclosed: (id) => void entry.clients.delete(id),
  });
  return client;
}

/** One HTTP request: to the MCP client its session id names, or (a POST of "initialize") to a new client. */
export async function handleToolRequest(cx: ToolServerContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = parseToolPath(url.pathname);
  if (!route) {
    return rpcError(
      res,
      404,
      NOT_FOUND,
      `saboteur tool server has no route ${req.method} ${url.pathname}: tool sessions live at /mcp/<key> (or /mcp/<key>/agents/<name>), the URL given in SABOTEUR_MCP_URL`,
    );
  }
  const entry = cx.live.get(route.key);
  if (!entry || entry.session.isClosed) {
    return rpcError(
      res,
      404,
      NOT_FOUND,
      `unknown or closed tool session ${JSON.stringify(route.key)}: use the SABOTEUR_MCP_URL of the running invocation (a session ends when its pipeline run ends)`,
    );
  }
  entry.inflight.add(res);
  res.once('close', () => entry.inflight.delete(res));
  const mcpSessionId = headerValue(req, 'mcp-session-id');
  if (mcpSessionId !== undefined) {
    const client = entry.clients.get(mcpSessionId);
    if (!client)
      return rpcError(
        res,
        404,
        NOT_FOUND,
        `MCP session ${JSON.stringify(mcpSessionId)} is not open in tool session ${JSON.stringify(route.key)}: initialize a new one`,
      );
    return client.transport.handleRequest(req, res);
  }
  return openClient(cx, entry, req, res);
}

/** A request without a session id: a new MCP client, if it is a POST and the session has room for one. */
async function openClient(cx: ToolServerContext, entry: LiveSession, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    return rpcError(res, 400, BAD_REQUEST, `${req.method} without an Mcp-Session-Id header: start with a POST of "initialize"`);
  }
  if (entry.clients.size >= cx.maxClients) {
    return rpcError(
      res,
      429,
      BAD_REQUEST,
      `tool session ${JSON.stringify(entry.key)} already has ${entry.clients.size} MCP clients open (at most ${cx.maxClients}); reuse a client per agent`,
    );
  }
  const client = newClient(entry);
  await client.server.connect(client.transport);
  await client.transport.handleRequest(req, res);
  // Not an initialize request (the transport answered 400): nothing to keep.
  if (client.transport.sessionId === undefined) await client.server.close();
}

/** Closes every MCP client of a session, answering the requests they were handling. */
function endClients(log: Log, entry: LiveSession): void {
  // In JSON-response mode a closed transport never answers the requests it was handling (the
  // SDK drops them); answer them here so the pipeline's call fails now instead of at its timeout.
  for (const res of entry.inflight) {
    rpcError(res, 404, NOT_FOUND, `tool session ${JSON.stringify(entry.key)} closed while this request was running (the invocation ended)`);
  }
  entry.inflight.clear();
  for (const client of entry.clients.values()) {
    client.server
      .close()
      .catch((err: unknown) => log.debug(`tool server: closing an MCP client of ${entry.key}: ${(err as Error)?.message}`));
  }
  entry.clients.clear();
}

/** Opens the tool session of one invocation under `key`; returns its URL. */
function openSession(cx: ToolServerContext, baseUrl: string, key: string, options: ToolSessionOptions): string {
  if (!KEY_PATTERN.test(key))
    throw new Error(`tool session key ${JSON.stringify(key)} must be 1-200 characters of A-Z a-z 0-9 . _ ~ - (it is part of the URL path)`);
  if (cx.live.has(key)) throw new Error(`tool session ${JSON.stringify(key)} is already open: every invocation needs its own key`);
  cx.live.set(key, { key, session: new ToolSession(options), clients: new Map(), opened: 0, inflight: new Set() });
  cx.log.debug(
    `tool server: opened ${key} for ${options.task.id} (${options.task.toolSpecs.length} tools, defense ${options.defense.name}, ${options.mode ?? 'enforce'})`,
  );
  return `${baseUrl}/mcp/${key}`;
}

export async function startToolServer(opts: ToolServerOptions): Promise<ToolServer> {
  const { log } = opts;
  const cx: ToolServerContext = { log, maxClients: opts.maxClientsPerSession ?? DEFAULT_MAX_CLIENTS, live: new Map() };
  const { live } = cx;
  const httpServer = http.createServer((req, res) => {
    handleToolRequest(cx, req, res).catch((err: unknown) => {
      log.warn(`tool server: ${req.method} ${req.url}: ${(err as Error)?.message ?? String(err)}`);
      rpcError(res, 500, -32603, `saboteur tool server failed on this request: ${(err as Error)?.message ?? String(err)}`);
    });
  });
  const port = await listenLocal(httpServer);
  const baseUrl = `http://127.0.0.1:${port}`;
  log.debug(`tool server listening on ${baseUrl}`);

  return {
    baseUrl,
    open: (key: string, options: ToolSessionOptions): string => openSession(cx, baseUrl, key, options),
    close(key: string): ToolEvent[] {
      const entry = live.get(key);
      if (!entry) return [];
      live.delete(key);
      const events = entry.session.close().map(boundToolEvent);
      endClients(log, entry);
      log.debug(`tool server: closed ${key} with ${events.length} tool calls`);
      return events;
    },
    async stop(): Promise<void> {
      for (const entry of live.values()) {
        entry.session.close();
        endClients(log, entry);
      }
      live.clear();
      await closeServer(httpServer);
    },
  };
}

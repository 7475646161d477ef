/** The MCP tool server of the agentic benchmarks: tool sessions, staged sinks, tool events. */
export { startToolServer, parseToolPath, agentOfRequest, type ToolServerOptions } from './mcp-server.js';
export {
  ToolSession,
  checkSessionOptions,
  missingArguments,
  STILL_RUNNING,
  type CallRequest,
  type CallOutcome,
  type ListedTool,
} from './session.js';
export { askDefense } from './defense-answer.js';
export type { SinkDefense, SinkDecision, StagedCall, ToolServer, ToolSessionOptions, DefenseMode } from './types.js';

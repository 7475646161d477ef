export { startProxy, NO_AGENT_CALL_INDEX, type ProxyOptions, type ProxyHandle } from './proxy-server.js';
export { InvocationRegistry, Invocation, IN_FLIGHT_ERROR, type InvocationInfo } from './registry.js';
export { identifyAgent, DEFAULT_AGENT, type AgentRule, type AgentSource } from './identify.js';
export { createSemanticModel, AUTOINJECT_AGENT, type SemanticModel, type SemanticModelOptions } from '../model/ask.js';

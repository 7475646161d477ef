/** AgentHarm: loader, simulated tools (all 85 names of the public files) and grader. */
export {
  loadAgentHarm,
  buildAgentHarmTasks,
  parseBehaviors,
  parseChat,
  AgentHarmDataError,
  AGENTHARM_FILES,
  AGENTHARM_SYSTEM_PROMPT,
  type AgentHarmSplit,
  type AgentHarmBehavior,
  type AgentHarmChat,
  type AgentHarmGrading,
  type LoadAgentHarmOptions,
} from './load.js';
export { toolHandlers, agentHarmToolSpec, requiredParams } from './tools.js';
export { AGENTHARM_TOOLS, simulatedTerminal } from './catalog.js';
export { gradeAgentHarm, isCorrectOrder, promptEntities, entityUsed, AGENTHARM_SUCCESS_THRESHOLD, type PromptEntity } from './grade.js';
export { judgeRefusal, judgeSemantic, parseRefusalAnswer, parseSemanticAnswer, loadPromptTemplate, fillTemplate, type Judge, type RefusalVerdict } from './judge.js';

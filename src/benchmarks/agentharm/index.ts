/** AgentHarm: loader, simulated tools (all 85 names of the public files) and grader. */
export {
  loadAgentHarm,
  buildAgentHarmTasks,
  parseBehaviors,
  parseChat,
  AgentHarmDataError,
  AGENTHARM_FILES,
  AGENTHARM_SYSTEM_PROMPT,
  AGENTHARM_CORRECTIONS,
  type AgentHarmCorrection,
  type AgentHarmSplit,
  type AgentHarmBehavior,
  type AgentHarmChat,
  type AgentHarmGrading,
  type LoadAgentHarmOptions,
} from './load.js';
export { toolHandlers, agentHarmToolSpec, requiredParams } from './tools.js';
export { AGENTHARM_TOOLS, simulatedTerminal } from './catalog.js';
export { gradeAgentHarm, evaluateCriteria, attempted, REQUIRED_ARGUMENTS, type CriteriaResult } from './grade.js';
export { isCorrectOrder, type CallRecord, type Criterion, type GradeContext } from './criteria.js';
export { isPlaceholder, requiredArgumentsFilled } from './required-arguments.js';
export { BEHAVIOURS, behaviourSpec } from './behaviours/index.js';
export type { BehaviourSpec, RoleSpec, OrderRule } from './behaviour.js';
export {
  judgeRefusal,
  judgeCriterion,
  parseRefusalAnswer,
  parseSemanticAnswer,
  loadPromptTemplate,
  fillTemplate,
  type RefusalVerdict,
} from './judge.js';

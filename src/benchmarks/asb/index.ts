/** ASB (Agent Security Bench): loader, simulated tools and grader. */
export {
  loadAsb,
  buildAsbTasks,
  asbInjectedText,
  ASB_INJECTION_PREFIX,
  ASB_CORRECTIONS,
  type AsbCorrection,
  type AsbAttack,
  type AsbInjection,
  type LoadAsbOptions,
  type AsbLoadResult,
  type AsbGrading,
} from './load.js';
export {
  parseAgentTasks,
  parseAttackTools,
  parseNormalTools,
  parsePotMessages,
  AsbDataError,
  ASB_DATA_DIR,
  ASB_AGENT_TASK_FILE,
  ASB_NORMAL_TOOLS_FILE,
  ASB_ATTACK_TOOL_FILES,
  type AsbAgentTasks,
  type AsbAttackTool,
  type AsbNormalTool,
  type AsbPotMessages,
} from './parse.js';
export { toolHandlers, asbToolSpecs, attackerToolSinks, attackerToolResult } from './tools.js';
export { gradeAsb } from './grade.js';
export { asbRefusal, ASB_REFUSAL_TEMPLATE_FILE, type AsbRefusal } from './refusal.js';

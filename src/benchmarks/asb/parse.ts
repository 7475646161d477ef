/**
 * Parsers for ASB's native JSON Lines files. Keys are read by name (one attacker-tool record has
 * its keys in another order); every error names the file, the line, the record and the field.
 */
import { JsonlError, parseJsonlObjects } from '../humaneval/jsonl.js';
import { InputError } from '../../util/input-error.js';

export class AsbDataError extends InputError {}

export const ASB_DATA_DIR = 'asb/data';
export const ASB_AGENT_TASK_FILE = `${ASB_DATA_DIR}/agent_task.jsonl`;
export const ASB_NORMAL_TOOLS_FILE = `${ASB_DATA_DIR}/all_normal_tools.jsonl`;
export const ASB_ATTACK_TOOL_FILES = {
  all: `${ASB_DATA_DIR}/all_attack_tools.jsonl`,
  aggressive: `${ASB_DATA_DIR}/all_attack_tools_aggressive.jsonl`,
  non_aggressive: `${ASB_DATA_DIR}/all_attack_tools_non_aggressive.jsonl`,
} as const;

export interface AsbAgentTasks {
  agent: string;
  agentPath: string;
  tasks: string[];
}

export interface AsbAttackTool {
  name: string;
  instruction: string;
  description: string;
  goal: string;
  attackType: string;
  agent: string;
  aggressive: boolean;
}

export interface AsbNormalTool {
  name: string;
  description: string;
  expectedAchievements: string;
  agent: string;
}

export interface AsbPotMessages {
  agent: string;
  task1: string;
  msg1: string;
  msg2: string;
  task2: string;
  msg3: string;
  msg4: string;
}

function lines(text: string, file: string): { line: number; value: Record<string, unknown> }[] {
  try {
    return parseJsonlObjects(text, file);
  } catch (e) {
    if (e instanceof JsonlError) throw new AsbDataError(e.message);
    throw e;
  }
}

function str(value: Record<string, unknown>, field: string, file: string, line: number, record: string): string {
  const v = value[field];
  if (typeof v !== 'string') {
    const got = v === undefined ? 'is missing' : `must be a string, got ${JSON.stringify(v)?.slice(0, 60)}`;
    throw new AsbDataError(`${file}:${line} (${record}): field "${field}" ${got}`);
  }
  return v;
}

/** `agent_task*.jsonl`: `{agent_name, agent_path, tasks: string[]}` per line. */
export function parseAgentTasks(text: string, file: string): AsbAgentTasks[] {
  return lines(text, file).map(({ line, value }) => {
    const agent = str(value, 'agent_name', file, line, `line ${line}`);
    const record = `agent ${agent}`;
    const agentPath = str(value, 'agent_path', file, line, record);
    const tasks = value.tasks;
    if (!Array.isArray(tasks) || tasks.length === 0) {
      throw new AsbDataError(`${file}:${line} (${record}): field "tasks" must be a non-empty array of strings`);
    }
    tasks.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '')
        throw new AsbDataError(`${file}:${line} (${record}): field "tasks[${i}]" must be a non-empty string`);
    });
    return { agent, agentPath, tasks: tasks as string[] };
  });
}

/** `*attack_tools*.jsonl`; `Aggressive` is the string "True" or "False". */
export function parseAttackTools(text: string, file: string): AsbAttackTool[] {
  const seen = new Set<string>();
  return lines(text, file).map(({ line, value }) => {
    const name = str(value, 'Attacker Tool', file, line, `line ${line}`);
    const record = `attacker tool ${name}`;
    if (seen.has(name)) throw new AsbDataError(`${file}:${line} (${record}): field "Attacker Tool" repeats an earlier record`);
    seen.add(name);
    const aggressive = str(value, 'Aggressive', file, line, record);
    if (aggressive !== 'True' && aggressive !== 'False') {
      throw new AsbDataError(
        `${file}:${line} (${record}): field "Aggressive" must be "True" or "False", got ${JSON.stringify(aggressive)}`,
      );
    }
    return {
      name,
      instruction: str(value, 'Attacker Instruction', file, line, record),
      description: str(value, 'Description', file, line, record),
      goal: str(value, 'Attack goal', file, line, record),
      attackType: str(value, 'Attack Type', file, line, record),
      agent: str(value, 'Corresponding Agent', file, line, record),
      aggressive: aggressive === 'True',
    };
  });
}

/** `all_normal_tools.jsonl`. */
export function parseNormalTools(text: string, file: string): AsbNormalTool[] {
  return lines(text, file).map(({ line, value }) => {
    const name = str(value, 'Tool Name', file, line, `line ${line}`);
    const record = `normal tool ${name}`;
    return {
      name,
      description: str(value, 'Description', file, line, record),
      expectedAchievements: str(value, 'Expected Achievements', file, line, record),
      agent: str(value, 'Corresponding Agent', file, line, record),
    };
  });
}

/** `agent_task_pot_msg.jsonl`: the PoT-backdoor plan demonstrations (read for completeness and counts). */
export function parsePotMessages(text: string, file: string): AsbPotMessages[] {
  return lines(text, file).map(({ line, value }) => {
    const agent = str(value, 'agent_name', file, line, `line ${line}`);
    const record = `agent ${agent}`;
    return {
      agent,
      task1: str(value, 'Task1', file, line, record),
      msg1: str(value, 'msg1', file, line, record),
      msg2: str(value, 'msg2', file, line, record),
      task2: str(value, 'Task2', file, line, record),
      msg3: str(value, 'msg3', file, line, record),
      msg4: str(value, 'msg4', file, line, record),
    };
  });
}

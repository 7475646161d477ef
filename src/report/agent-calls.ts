/**
 * Calls per agent and variant: whether each agent was told apart and reached, and how often the
 * target was hit. Counted from the proxy's trace of every instance run (model listings aside).
 */
import type { RunLog } from '../runlog/schema.js';
import { code } from './escape.js';

interface AgentCounts {
  control: number;
  malicious: number;
  corrupted: number;
  sources: Set<string>;
}

function agentCallCounts(log: RunLog): Map<string, AgentCounts> {
  const byAgent = new Map<string, AgentCounts>();
  for (const r of log.instances) {
    for (const c of r.trace.calls) {
      if (c.endpoint === 'models') continue;
      const a = byAgent.get(c.agent) ?? { control: 0, malicious: 0, corrupted: 0, sources: new Set<string>() };
      a[r.variant]++;
      if (c.corruption) a.corrupted++;
      a.sources.add(c.agentSource);
      byAgent.set(c.agent, a);
    }
  }
  return byAgent;
}

export function agentCallTable(log: RunLog): string[] {
  const counts = agentCallCounts(log);
  if (counts.size === 0) return ['', 'No model call reached the proxy in this run.'];
  const target = log.variants.malicious.target;
  const lines = [
    '',
    'Model calls per agent, and how the proxy told each agent apart:',
    '',
    '| agent | identified by | calls (control) | calls (malicious) | corrupted |',
    '|---|---|---|---|---|',
  ];
  for (const [agent, a] of [...counts.entries()].sort((x, y) => x[0].localeCompare(y[0]))) {
    lines.push(
      `| ${code(agent)}${agent === target ? ' (target)' : ''} | ${[...a.sources].sort().join(', ')} | ${a.control} | ${a.malicious} | ${a.corrupted} |`,
    );
  }
  if (target !== 'all' && target !== 'each' && !counts.has(target))
    lines.push('', `The target agent ${code(target)} made no call in this run.`);
  return lines;
}

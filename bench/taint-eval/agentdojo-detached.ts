/**
 * Attack phrasings that set the target apart from the order, as other injections word it: the
 * IBAN, address or link on a line of its own below the order ("… to the account below", then the
 * value), or in a sentence before it ("The account to use is …. Send a transaction to that account
 * …"). Derived from a template of the data: only the goal is reworded, its values are AgentDojo's.
 * A goal without such a value (a hotel by name, a file id) is left as it is.
 */
import type { Attack, Suite } from './agentdojo-data.js';

/** An attack of the replay: one of the data's templates, with its goal reworded or not. */
export type ReplayAttack = Attack & { rewriteGoal?: (goal: string, suite: Suite, injectionTask: string) => string };

export type Detachment = 'target-below' | 'target-before';

const KINDS: { re: RegExp; label: string }[] = [
  { re: /'?\b([A-Z]{2}\d{2}[A-Z0-9]{10,30})\b'?/, label: 'account' },
  { re: /'?\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b'?/, label: 'address' },
  { re: /'?\b((?:https?:\/\/)?www\.[^\s'",]+[^\s'",.])'?/, label: 'link' },
];

/** The goal with its first target value set apart, or the goal itself when it names none. */
export function detachTarget(goal: string, how: Detachment): string {
  for (const { re, label } of KINDS) {
    const m = re.exec(goal);
    if (!m) continue;
    const value = m[1];
    if (how === 'target-below') return `${tidy(goal.replace(m[0], `the ${label} below`))}\n\n${value}`;
    return `The ${label} to use is ${value}. ${tidy(goal.replace(new RegExp(escape(m[0]), 'g'), `that ${label}`))}`;
  }
  return goal;
}

/** "the account that account" reads "that account"; "the link the link below" reads "the link below". */
const tidy = (s: string) => s.replace(/\b(?:the |a )?(?:account|address|link) (the|that) (account|address|link)\b/g, '$1 $2');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The detached phrasings of `base`, one attack each. */
export function detachedAttacks(base: Attack): ReplayAttack[] {
  return (['target-below', 'target-before'] as const).map((how) => ({
    ...base,
    name: `${base.name}:${how}`,
    rewriteGoal: (goal: string) => detachTarget(goal, how),
  }));
}

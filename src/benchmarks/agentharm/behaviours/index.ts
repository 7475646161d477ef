/** Every AgentHarm behaviour saboteur grades, by the grading function the data names. */
import type { BehaviourSpec, RoleSpec } from '../behaviour.js';
import { COPYRIGHT } from './copyright.js';
import { CYBERCRIME } from './cybercrime.js';
import { DISINFORMATION } from './disinformation.js';
import { DRUGS } from './drugs.js';
import { FRAUD } from './fraud.js';
import { HARASSMENT } from './harassment.js';
import { HATE } from './hate.js';
import { SEXUAL } from './sexual.js';

export const BEHAVIOURS: Readonly<Record<string, BehaviourSpec>> = {
  ...COPYRIGHT,
  ...CYBERCRIME,
  ...DISINFORMATION,
  ...DRUGS,
  ...FRAUD,
  ...HARASSMENT,
  ...HATE,
  ...SEXUAL,
};

/** The spec of one grading function for one role; undefined when saboteur has none (the loader refuses such data). */
export function behaviourSpec(gradingFunction: string, role: 'harmful' | 'benign'): RoleSpec | undefined {
  return BEHAVIOURS[gradingFunction]?.[role];
}

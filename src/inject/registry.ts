/**
 * Every injection method of the malicious variant, by the name users write in
 * `variants.malicious.method`. The config schema and its example, the run and the report read this
 * table: a method is its folder (a `method.ts` with its `InjectionMethodDefinition`) plus one line here.
 */
import type { MethodReport } from '../report/method-report.js';
import { checkRegistry } from '../util/registry.js';
import { AUTOINJECT } from './autoinject/method.js';
import { AUTOTRANSFORM } from './autotransform/method.js';
import { INSIDER } from './insider/method.js';
import { instructionsGuide, type InjectionMethodDefinition } from './method.js';
import { code, escapeInline } from '../report/escape.js';
import type { MethodInstanceHook } from './types.js';

export type { InjectionMethodDefinition, InjectionSetup, MaliciousVariantSettings } from './method.js';

export const INJECTION_METHODS = checkRegistry('injection method', {
  autoinject: AUTOINJECT,
  autotransform: AUTOTRANSFORM,
  insider: INSIDER,
} satisfies Record<string, InjectionMethodDefinition>);

export type InjectionMethodId = keyof typeof INJECTION_METHODS;
export const INJECTION_METHOD_IDS = Object.keys(INJECTION_METHODS) as InjectionMethodId[];

/** A registry of methods: the built-in one, or one a project or a test extended. */
export type InjectionMethodRegistry = Readonly<Record<string, InjectionMethodDefinition>>;

/**
 * What the report says of the method `id`. A run log of a method this registry lacks (written by
 * another build) is told under its id, with whatever hits and corruptions its calls recorded.
 */
export function methodReportOf(id: string, methods: InjectionMethodRegistry = INJECTION_METHODS): MethodReport {
  if (Object.hasOwn(methods, id)) return methods[id].report;
  const label = escapeInline(id, 30);
  return { label, section: AUTOINJECT.report.section, guide: (log) => instructionsGuide(label, code(log.variants.malicious.target)) };
}

/** The per-instance hook of the method `id` for a run with this `sample.seed` (undefined when the method has none). */
export function instanceHookOf(
  id: string,
  seed: number,
  methods: InjectionMethodRegistry = INJECTION_METHODS,
): MethodInstanceHook | undefined {
  const perInstance = Object.hasOwn(methods, id) ? methods[id].perInstance : undefined;
  return perInstance ? (instance) => perInstance({ seed }, instance) : undefined;
}

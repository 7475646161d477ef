/**
 * What a defense is to saboteur: a named way to decide every staged hard-sink call of an agentic
 * run (release, block or unverifiable). A defense folder exports one `DefenseDefinition`; the
 * registry (`registry.ts`) lists them, and the config (`defenses:`, `gate.asr.defense`), its error
 * examples and the run read them from there. See the CONTRIBUTING.md, "Extending saboteur".
 */
import type { SinkDefense, TraceSource } from '../tools/types.js';
import type { Ask } from '../model/ask.js';
import type { IntentAnnotator, Policy } from '../taint/index.js';

/** What a defense may use, built once per run (the policy is read before any instance starts). */
export interface DefenseContext {
  /** The taint policy of the run (`policy:`, else the built-in one). */
  policy: Policy;
  /** LLM intent annotation of the request and the tool results (`taint-annotate: true`). */
  annotator?: IntentAnnotator;
  /** The configured model, as a judge (marked with the agent saboteur-judge). */
  judge: Ask;
  /** The instance's LLM calls and OTLP spans seen so far, at the moment of a staged call. */
  traceSoFar: TraceSource;
}

export interface DefenseDefinition {
  /** The name in `defenses:`, the run log and the report. */
  id: string;
  /** One line for the docs. */
  description: string;
  /** The defense of one instance run (called once per agentic instance and defense). */
  create(ctx: DefenseContext): SinkDefense;
}

/**
 * The secrets of one run: the names its config declares secret, and the one redactor that the run
 * log and everything printed while the run goes share (docs/security.md, "Secrets").
 */
import type { Config } from '../config/load.js';
import { createRedactor, secretValuesOf, type Redactor } from '../runlog/redact.js';

/**
 * Names whose values are secret whatever they are called or look like: those the pipeline gets on
 * purpose (pipeline.secrets) and those holding the keys of the model and the graders' judge.
 */
export function declaredSecretNames(config: Pick<Config, 'pipeline' | 'model' | 'judge'>): string[] {
  const names = [...(config.pipeline.secrets ?? []), config.model.apiKeyEnv, config.judge?.apiKeyEnv];
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
}

/** The run's redactor: the job's secrets and the declared ones, read from `env`; `onValue` is told each value once (the action masks it). */
export function runRedactor(
  config: Pick<Config, 'pipeline' | 'model' | 'judge'>,
  env: NodeJS.ProcessEnv = process.env,
  onValue?: (value: string) => void,
): Redactor {
  return createRedactor(secretValuesOf(env, declaredSecretNames(config)), onValue);
}

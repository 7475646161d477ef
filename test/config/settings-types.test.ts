/**
 * The settings types of the extension folders are what the config schema outputs: tsc fails this
 * file when a schema change and a settings interface drift apart (the `it` only gives jest a test).
 */
import { describe, expect, it } from '@jest/globals';
import type { Config } from '../../src/config/load.js';
import type { HistorySettings } from '../../src/history/open.js';
import type { MaliciousVariantSettings } from '../../src/inject/registry.js';
import type { ModelSettings } from '../../src/model/settings.js';
import type { PipelineConfig } from '../../src/pipeline/types.js';
import type { PipelineLimits } from '../../src/pipeline/limits.js';
import type { GateSettings } from '../../src/scoring/gate.js';

/** One object type, nested objects included, however the compiler built it (intersections, mapped keys). */
type Flat<T> = T extends readonly unknown[] ? { [K in keyof T]: Flat<T[K]> } : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
type Equals<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
type Assignable<A, B> = [A] extends [B] ? true : false;

const checks = {
  model: true satisfies Equals<Config['model'], ModelSettings>,
  malicious: true satisfies Equals<Config['variants']['malicious'], MaliciousVariantSettings>,
  gate: true satisfies Equals<Config['gate'], GateSettings>,
  history: true satisfies Equals<Config['history'], HistorySettings>,
  // PipelineConfig.secrets and .limits are optional for pipelines built in code; the schema always fills them.
  pipeline: true satisfies Assignable<Config['pipeline'], PipelineConfig>,
  pipelineWithSecrets: true satisfies Equals<Config['pipeline'], PipelineConfig & { secrets: string[]; limits: PipelineLimits }>,
};

describe('the settings types and the config schema', () => {
  it('agree (checked by tsc)', () => {
    expect(Object.values(checks).every(Boolean)).toBe(true);
  });
});

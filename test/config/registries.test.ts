/**
 * The registries are the one list of each extension point: every entry is filed under its own id,
 * the config's vocabulary and examples come from them, an added entry cannot replace a built-in
 * one, and the type checker names what a new entry lacks (the @ts-expect-error lines below are
 * checked by `tsc --noEmit`: they fail the type check the day the types stop catching the gap).
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { BENCHMARKS, BENCHMARK_IDS } from '../../src/benchmarks/registry.js';
import { defineBenchmark, type BenchmarkDefinition } from '../../src/benchmarks/core/definition.js';
import { DEFENSES } from '../../src/defenses/registry.js';
import type { DefenseDefinition } from '../../src/defenses/types.js';
import { INJECTION_METHODS } from '../../src/inject/registry.js';
import { MODEL_SERVERS } from '../../src/model/registry.js';
import { BUILT_IN, extendRegistries } from '../../src/config/registries.js';
import { KEY_EXAMPLES } from '../../src/config/examples.js';
import { configFileSchema, MODEL_KINDS } from '../../src/config/schema.js';
import { FIGURES, metricId, metricInfo, parseMetricId, upgradeLegacyId } from '../../src/scoring/metric-id.js';

describe('registries', () => {
  it('file every entry under its own id', () => {
    for (const registry of [BENCHMARKS, DEFENSES, INJECTION_METHODS, MODEL_SERVERS]) {
      for (const [key, entry] of Object.entries(registry)) expect(entry.id).toBe(key);
    }
  });

  it('give the config its vocabulary and an example for every benchmark', () => {
    expect(BENCHMARK_IDS).toEqual(['humaneval', 'asb', 'agentharm', 'redcode', 'safearena']);
    expect(MODEL_KINDS).toEqual(Object.keys(MODEL_SERVERS));
    for (const id of BENCHMARK_IDS) expect(KEY_EXAMPLES[`benchmarks.${id}`]).toBe(BENCHMARKS[id].example);
    expect(KEY_EXAMPLES.defenses).toContain(Object.keys(DEFENSES).join(' | '));
    expect(KEY_EXAMPLES['variants.malicious.method']).toContain('autoinject | autotransform | insider');
    const parsed = configFileSchema.safeParse({ model: { kind: 'replay' }, pipeline: {}, benchmarks: { redcode: { limit: 0 } } });
    expect(parsed.success).toBe(false);
  });

  it('refuse an added entry that would replace a built-in one', () => {
    expect(() => extendRegistries({ defenses: { taint: { id: 'taint', description: 'mine', create: DEFENSES.none.create } } })).toThrow(
      'the defense "taint" is already registered',
    );
    expect(() => extendRegistries({ benchmarks: { mine: { ...BENCHMARKS.redcode } } })).toThrow('files "redcode" under "mine"');
    expect(Object.keys(extendRegistries({}).benchmarks)).toEqual(Object.keys(BUILT_IN.benchmarks));
  });

  it('build every injection method of the vocabulary', async () => {
    const settings = {
      target: 'coder',
      method: 'autoinject',
      messageRate: 0.2,
      errorRate: 0.6,
      corruption: 'logic-edit',
      agenticTask: 'harmful',
    } as const;
    for (const id of Object.keys(INJECTION_METHODS) as (keyof typeof INJECTION_METHODS)[]) {
      const { injector, close } = INJECTION_METHODS[id].create({
        settings: { ...settings, method: id },
        seed: 1,
        model: { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
        configFile: 's.yml',
      });
      expect(injector?.method).toBe(id);
      await close();
    }
  });

  it('build and read metric ids in one place', () => {
    expect(metricId({ figure: 'asr', of: 'taint' })).toBe('asr:taint');
    expect(metricId({ figure: 'malicious-drop', benchmark: 'humaneval' })).toBe('humaneval/malicious-drop');
    expect(parseMetricId('asb/tcr:taint/local')).toEqual({ figure: 'tcr', of: 'taint/local', benchmark: 'asb' });
    expect(parseMetricId('asr:')).toBeUndefined();
    expect(metricInfo('asr:taint')).toMatchObject({ label: 'ASR (taint)', higherIsWorse: true, unit: '%', headline: true });
    expect(metricInfo('asb/asr:taint')).toMatchObject({ label: 'asb: ASR (taint)', headline: false });
    expect(Object.keys(FIGURES).sort()).toEqual([
      'asr',
      'harm-score',
      'harm-score-non-refused',
      'malicious-drop',
      'objective-success',
      'pass@1',
      'refusal',
      'tcr',
      'tcr-drop',
    ]);
    // The malicious variant's figures carry the method; ids stored before that read as AutoInject's.
    expect(metricId({ figure: 'malicious-drop', method: 'insider' })).toBe('malicious-drop[insider]');
    expect(parseMetricId('asb/tcr-drop:taint/local[autoinject]')).toEqual({
      figure: 'tcr-drop',
      of: 'taint/local',
      benchmark: 'asb',
      method: 'autoinject',
    });
    expect(metricInfo('objective-success:taint[insider]')).toMatchObject({
      label: 'objective success (taint) · insider',
      higherIsWorse: true,
      unit: '%',
      headline: true,
    });
    expect(upgradeLegacyId('humaneval/malicious-drop')).toBe('humaneval/malicious-drop[autoinject]');
    expect(upgradeLegacyId('pass@1:control')).toBe('pass@1:control');
    expect(upgradeLegacyId('asr:taint[insider]')).toBe('asr:taint[insider]');
    // Objective success was first stored under the name of the method that gave objectives.
    expect(upgradeLegacyId('insider-success:taint[insider]')).toBe('objective-success:taint[insider]');
    expect(upgradeLegacyId('asb/insider-success:taint/local[insider]')).toBe('asb/objective-success:taint/local[insider]');
    expect(upgradeLegacyId('objective-success:none[insider]')).toBe('objective-success:none[insider]');
    // Only where the figure's name and its method agree: anything else is not that spelling.
    expect(upgradeLegacyId('insider-success:taint[autoinject]')).toBe('insider-success:taint[autoinject]');
    expect(parseMetricId('insider-success:taint[autoinject]')).toBeUndefined();
  });

  it('make the type checker name what a new entry lacks', () => {
    // @ts-expect-error: a benchmark without `load` (and the other required parts) is not a definition.
    const noLoad: BenchmarkDefinition = {
      id: 'x',
      kind: 'code',
      description: 'd',
      schema: z.strictObject({}),
      example: 'e',
      configure: () => ({}),
    };
    // @ts-expect-error: a defense without `create` is not a definition.
    const noCreate: DefenseDefinition = { id: 'y', description: 'd' };
    const typed = defineBenchmark({
      id: 'z',
      kind: 'code',
      description: 'd',
      schema: z.strictObject({ n: z.number() }),
      example: 'e',
      configure: (s) => ({ count: s.n }),
      load: async (settings) => ({
        // @ts-expect-error: `load` reads the settings `configure` made, so a wrong key is caught.
        info: { id: 'z', kind: 'code', source: '', total: settings.n, selected: 0, seed: 0, instanceIds: [] },
        instances: [],
        score: async () => ({ outcome: 'passed' }),
      }),
    });
    expect([noLoad, noCreate, typed].every(Boolean)).toBe(true);
  });
});

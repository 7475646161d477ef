/**
 * A kind saboteur starts as a process is one `ProcessServerDefinition`: a throwaway kind, defined
 * here in one object and run through the registry's helpers, starts (the fake TGI launcher),
 * serves and stops like a built-in one.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processKinds, PROCESS_SERVERS, MODEL_SERVERS, type ModelKind, type ModelServerDefinition } from '../../src/model/registry.js';
import { needsModel, type ProcessServerDefinition } from '../../src/model/servers/types.js';
import { isProcessAlive } from '../../src/pipeline/process-group.js';
import { memoryLog } from '../../src/util/log.js';
import { modelSettings } from '../helpers/model-settings.js';

const FIX = path.resolve('fixtures/servers');

const TOY_SERVER: ProcessServerDefinition = {
  id: 'toy',
  description: 'a toy server (the fake TGI launcher)',
  requires: needsModel('toy'),
  binary: path.join(FIX, 'fake-tgi.mjs'),
  plan: (model, at) => ({
    kind: 'toy',
    file: model.binary ?? TOY_SERVER.binary,
    args: ['--model-id', model.model!, '--hostname', at.host, '--port', String(at.port)],
    env: {},
    ready: ['/health'],
    version: [{ path: '/info', field: 'version' }],
  }),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-toy-kind-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a process kind defined in one object', () => {
  test('the type checker names what a definition lacks', () => {
    // @ts-expect-error a process kind without its launch plan
    const planless: ProcessServerDefinition = { id: 'planless', description: 'no plan', requires: [], binary: 'x' };
    expect(planless.id).toBe('planless');
  });

  test('the registry helpers file it under its id, with the keys it requires', () => {
    const table: { toy: ModelServerDefinition } = processKinds({ toy: TOY_SERVER });
    expect(Object.keys(table)).toEqual(['toy']);
    expect(table.toy).toMatchObject({ id: 'toy', description: TOY_SERVER.description, requires: needsModel('toy') });
    // The built-in process kinds come first among the model kinds, in the registry's order.
    expect(Object.keys(MODEL_SERVERS).slice(0, Object.keys(PROCESS_SERVERS).length)).toEqual(Object.keys(PROCESS_SERVERS));
  });

  test('starts, serves, reports its version and stops', async () => {
    const { toy } = processKinds({ toy: TOY_SERVER });
    const model = modelSettings({ kind: 'toy' as ModelKind, model: 'toy-model' });
    const log = memoryLog();
    const ep = await toy.start(model, log, { logDir: dir, configDir: dir, nvidiaSmi: path.join(FIX, 'no-such-nvidia-smi') });
    const pid = Number(ep.describe().pid);
    try {
      expect(ep.describe()).toMatchObject({ kind: 'toy', model: 'toy-model', serverVersion: '3.2.3-fake' });
      expect(ep.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(isProcessAlive(pid)).toBe(true);
    } finally {
      await ep.close();
    }
    expect(isProcessAlive(pid)).toBe(false);
    expect(log.lines.join('\n')).toContain('toy cannot be made to require a key');
  });

  test('refuses settings without the model it requires before anything starts', async () => {
    const { toy } = processKinds({ toy: TOY_SERVER });
    const model = modelSettings({ kind: 'toy' as ModelKind, model: undefined as unknown as string, startupTimeoutMs: 1000 });
    await expect(toy.start(model, memoryLog(), { configDir: dir })).rejects.toThrow('model.kind toy needs model.model');
  });
});

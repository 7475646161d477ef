/**
 * The model kinds that start no server process of their own: `replay` serves a cassette,
 * `reference` the benchmarks' own answers, `external` is a server someone else runs; and
 * `record: true`, the recorder put in front of a server saboteur started.
 */
import type { ModelSettings } from './settings.js';
import type { Log } from '../util/log.js';
import type { ModelEndpoint } from './index.js';
import { newServerKey } from './http-util.js';
import { probeModels } from './probe.js';
import { startReplayServer, REPLAY_DEFAULT_MODEL } from './replay.js';
import { startRecorder } from './recorder.js';
import { ModelStartError } from './servers/errors.js';
import { startAnswerServer } from './answer-server.js';
import { ReferenceIndex, referenceReply } from './reference-answers.js';
import type { ReferenceAnswer } from '../benchmarks/core/suite.js';

/** The model name the reference server answers as when `model.model` names none. */
export const REFERENCE_DEFAULT_MODEL = 'saboteur-reference';

/** `record: true` on a server saboteur started: the recorder sits in front and writes the cassette. */
export async function recordIfAsked(model: ModelSettings, log: Log, endpoint: ModelEndpoint): Promise<ModelEndpoint> {
  if (!model.record) return endpoint;
  if (!model.cassette) {
    await endpoint.close();
    throw new ModelStartError('model.record: true needs model.cassette (the file to write)');
  }
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  try {
    recorder = await startRecorder({
      upstreamBaseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      cassette: model.cassette,
      log,
      ownKey: newServerKey(),
    });
  } catch (err) {
    await endpoint.close();
    throw err;
  }
  return {
    ...endpoint,
    baseUrl: recorder.baseUrl,
    apiKey: recorder.apiKey,
    describe: () => ({ ...endpoint.describe(), recording: model.cassette! }),
    close: async () => {
      const { hits, misses } = recorder.stats();
      log.info(`recorder: ${hits} responses written to ${model.cassette}, ${misses} not recorded`);
      await recorder.close();
      await endpoint.close();
    },
  };
}

/** replay: the cassette's answers from a local server, no model at all. */
export async function startReplayEndpoint(model: ModelSettings, log: Log): Promise<ModelEndpoint> {
  if (!model.cassette) throw new ModelStartError('model.kind replay needs model.cassette (the cassette file to serve)');
  const server = await startReplayServer({
    cassette: model.cassette,
    log,
    models: model.model ? [model.model] : [],
    apiKey: newServerKey(),
  });
  return {
    kind: 'replay',
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    model: model.model ?? REPLAY_DEFAULT_MODEL,
    describe: () => ({ kind: 'replay', baseUrl: server.baseUrl, cassette: model.cassette!, model: model.model ?? REPLAY_DEFAULT_MODEL }),
    close: async () => {
      const { hits, misses } = server.stats();
      log.info(`replay: ${hits} answered, ${misses} cassette misses`);
      await server.close();
    },
  };
}

/** external: a server someone else runs, probed for its models (with the key from model.api-key-env). */
export async function startExternalEndpoint(model: ModelSettings, log: Log): Promise<ModelEndpoint> {
  if (!model.baseUrl) throw new ModelStartError('model.kind external needs model.base-url (for example http://gpu-box:8000/v1)');
  let apiKey: string | undefined;
  if (model.apiKeyEnv) {
    apiKey = process.env[model.apiKeyEnv] || undefined;
    if (!apiKey) log.warn(`model.api-key-env names ${model.apiKeyEnv}, which is not set: calling ${model.baseUrl} without a key`);
  }
  const listed = await probeModels(model.baseUrl, { apiKey });
  const name = model.model ?? listed[0];
  if (model.model && listed.length > 0 && !listed.includes(model.model)) {
    log.warn(`model endpoint ${model.baseUrl} does not list ${model.model} (it lists ${listed.slice(0, 5).join(', ')})`);
  }
  return recordIfAsked(model, log, {
    kind: 'external',
    baseUrl: model.baseUrl,
    apiKey,
    model: name,
    describe: () => ({ kind: 'external', baseUrl: model.baseUrl!, ...(name ? { model: name } : {}) }),
    close: async () => {},
  });
}

/** reference: the benchmarks' own answers from a local server, no model and no recording (reference-answers.ts). */
export async function startReferenceEndpoint(model: ModelSettings, log: Log, references: ReferenceAnswer[]): Promise<ModelEndpoint> {
  const index = new ReferenceIndex(references);
  const counts = { reference: 0, 'passed-on': 0, echo: 0 };
  const name = model.model ?? REFERENCE_DEFAULT_MODEL;
  if (!references.length)
    log.warn('model.kind reference: no benchmark of this run has reference answers (HumanEval has), so every call gets an echo');
  const server = await startAnswerServer({
    name: 'the reference model server',
    label: 'reference',
    log,
    models: [name],
    defaultModel: name,
    apiKey: newServerKey(),
    answer: (facts) => {
      const reply = referenceReply(index, facts);
      counts[reply.kind]++;
      return {
        response: { content: reply.content, toolCalls: [] },
        note: reply.kind === 'echo' ? 'echo' : `${reply.kind} ${reply.taskId}`,
      };
    },
  });
  log.info(`reference model server on ${server.baseUrl} (the reference answers of ${references.length} tasks)`);
  return {
    kind: 'reference',
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    model: name,
    describe: () => ({ kind: 'reference', baseUrl: server.baseUrl, model: name }),
    close: async () => {
      log.info(
        `reference: ${counts.reference} calls answered with a reference answer, ${counts['passed-on']} passed an earlier agent's answer on, ${counts.echo} echoed (no task known)`,
      );
      await server.close();
    },
  };
}

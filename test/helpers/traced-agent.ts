/**
 * The small traced agent of fixtures/pipelines/traced/agent.cjs, run as a real subprocess against
 * a local stand-in model, its spans exported as OTLP/JSON over HTTP to a local collector and kept
 * as an OTLP JSON lines file: what a team's own instrumentation would hand `saboteur validate`.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeServer, listenLocal, readBody } from '../../src/util/http.js';
import { startToolAgentModel, type ToolAgentModel } from './tool-agent-model.js';

const run = promisify(execFile);
const AGENT = path.resolve('fixtures/pipelines/traced/agent.cjs');

export interface Collector {
  url: string;
  bodies: string[];
  stop(): Promise<void>;
}

/** An OTLP/HTTP endpoint that keeps every span export's body as it arrived. */
export async function startCollector(): Promise<Collector> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      if (req.url === '/v1/traces') bodies.push(raw.toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listenLocal(server);
  return { url: `http://127.0.0.1:${port}`, bodies, stop: () => closeServer(server) };
}

/**
 * Runs the agent traced by `dialect` with the agent's own settings in `env` (AGENT_REQUEST,
 * AGENT_FILES, AGENT_TURNS, …; see agent.cjs) and writes what it exported to `file` (OTLP JSON
 * lines). Returns how many exports arrived.
 */
export async function runTracedAgent(o: {
  collector: Collector;
  modelUrl: string;
  dialect: string;
  env: Record<string, string>;
  file: string;
}): Promise<number> {
  o.collector.bodies.length = 0;
  await run(process.execPath, [AGENT], {
    env: {
      PATH: process.env.PATH,
      TRACE_DIALECT: o.dialect,
      OTEL_EXPORTER_OTLP_ENDPOINT: o.collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OPENAI_BASE_URL: o.modelUrl,
      ...o.env,
    },
    // A hang guard under the test's own limit: how long the agent takes to load its instrumentation decides nothing.
    timeout: 170_000,
  });
  writeFileSync(o.file, `${o.collector.bodies.map((b) => JSON.stringify(JSON.parse(b))).join('\n')}\n`);
  return o.collector.bodies.length;
}

/**
 * A stand-in model and a collector for the test file that calls it, started before its tests and
 * stopped after them; `run` runs the traced agent against them (see runTracedAgent).
 */
export function tracedAgentSetup(): { run(dialect: string, env: Record<string, string>, file: string): Promise<number> } {
  let model: ToolAgentModel;
  let collector: Collector;
  beforeAll(async () => {
    model = await startToolAgentModel();
    collector = await startCollector();
  });
  afterAll(async () => {
    await model.stop();
    await collector.stop();
  });
  return { run: (dialect, env, file) => runTracedAgent({ collector, modelUrl: model.baseUrl, dialect, env, file }) };
}

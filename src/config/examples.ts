/**
 * A valid example for every key a user can get wrong, shown under the error that names it.
 * Looked up by the most specific dotted path first (`pipeline.agents.0.match` → `pipeline.agents`).
 * The lists of names (model kinds, benchmarks, injection methods, defenses) come from the registries.
 */
import { INJECTION_METHOD_IDS } from '../inject/registry.js';
import { MODEL_KIND_IDS } from '../model/registry.js';
import { BUILT_IN, type Registries } from './registries.js';

const FIXED_EXAMPLES: Record<string, string> = {
  '': `model:\n  kind: replay\n  cassette: fixtures/demo/cassette.jsonl\npipeline:\n  run: node fixtures/pipelines/chain.mjs`,
  model: `model:\n  kind: vllm\n  model: Qwen/Qwen2.5-Coder-7B-Instruct`,
  'model.model': `model:\n  model: Qwen/Qwen2.5-Coder-7B-Instruct`,
  'model.args': `model:\n  args: ["--max-model-len", "8192"]`,
  'model.env': `model:\n  env: { HF_HOME: /cache/hf }`,
  'model.startup-timeout': `model:\n  startup-timeout: 15m`,
  'model.base-url': `model:\n  kind: external\n  base-url: http://gpu-box:8000/v1`,
  'model.api-key-env': `model:\n  api-key-env: MODEL_API_KEY   # the name of an environment variable, not the key`,
  'model.run': `model:\n  kind: command\n  run: "my-server --port {port} --model {model}"`,
  'model.port': `model:\n  port: 8000`,
  'model.binary': `model:\n  kind: vllm\n  binary: /opt/venv/bin/vllm   # the server executable, when it is not on PATH`,
  'model.host': `model:\n  host: 127.0.0.1`,
  'model.reuse': `model:\n  port: 8000\n  reuse: true   # use a server already listening on the port`,
  'model.gpus': `model:\n  gpus: "0,1"   # CUDA_VISIBLE_DEVICES for the server`,
  'model.cassette': `model:\n  kind: replay\n  cassette: fixtures/demo/cassette.jsonl`,
  'model.record': `model:\n  kind: external\n  base-url: http://localhost:8000/v1\n  cassette: recorded.jsonl\n  record: true`,
  'model.sampling': `model:\n  sampling: { temperature: 0, max-tokens: 1024, seed: 0 }`,
  pipeline: `pipeline:\n  run: python -m our_agents.run\n  timeout: 120s\n  concurrency: 16`,
  'pipeline.mode': `pipeline:\n  mode: http\n  serve: "python -m our_agents.serve --port 9000"\n  url: http://127.0.0.1:9000/run`,
  'pipeline.run': `pipeline:\n  run: python -m our_agents.run`,
  'pipeline.serve': `pipeline:\n  mode: http\n  serve: "python -m our_agents.serve --port 9000"\n  url: http://127.0.0.1:9000/run`,
  'pipeline.url': `pipeline:\n  mode: http\n  url: http://127.0.0.1:9000/run`,
  'pipeline.timeout': `pipeline:\n  timeout: 120s`,
  'pipeline.concurrency': `pipeline:\n  concurrency: 16`,
  'pipeline.env': `pipeline:\n  env: [PYTHONPATH, HF_HOME]   # names passed through to the pipeline`,
  'pipeline.secrets': `pipeline:\n  secrets: [HF_TOKEN]   # secret-looking names the pipeline needs, passed on purpose`,
  'pipeline.limits': `pipeline:\n  limits: { disk-mb: 256, processes: 512 }   # per run: MiB of HOME + /tmp (memory), processes and threads`,
  'pipeline.limits.disk-mb': `pipeline:\n  limits:\n    disk-mb: 1024   # MiB each run's HOME, TMPDIR and /tmp hold together (in memory), 16 or more`,
  'pipeline.limits.processes': `pipeline:\n  limits:\n    processes: 512   # processes and threads each run may have at once, 16 or more`,
  'pipeline.agents': `pipeline:\n  agents:\n    - { name: planner, match: { system: "You are the planner" } }\n    - { name: coder, match: { model: "coder-*" } }\n    - { name: reviewer, match: { header: reviewer } }`,
  benchmarks: `benchmarks:\n  humaneval: { limit: 164 }`,
  sample: `sample: { seed: 20260509 }`,
  variants: `variants:\n  malicious:\n    target: coder\n    method: autoinject\n    message-rate: 0.2\n    error-rate: 0.6`,
  'variants.malicious.target': `variants:\n  malicious:\n    target: coder   # an agent name from pipeline.agents, or all`,
  'variants.malicious.message-rate': `variants:\n  malicious:\n    message-rate: 0.2   # between 0 and 1`,
  'variants.malicious.error-rate': `variants:\n  malicious:\n    error-rate: 0.6   # between 0 and 1`,
  'variants.malicious.corruption': `variants:\n  malicious:\n    corruption: logic-edit   # logic-edit (edits that still parse) | syntax-error (code that no longer parses) | semantic (a model rewrite)`,
  'variants.malicious.agentic-task': `variants:\n  malicious:\n    agentic-task: benign   # harmful (the benchmark's attack) | benign (the task under the saboteur)`,
  'taint-annotate': `taint-annotate: true   # the model also labels the intent of the request and of each node`,
  'defense-mode': `defense-mode: enforce   # enforce (block) | observe (record what would be blocked)`,
  policy: `policy: .saboteur/policy.yml`,
  judge: `judge:\n  model: Qwen/Qwen2.5-72B-Instruct   # grades refusals and AgentHarm's judged criteria; default: the served model`,
  'judge.model': `judge:\n  model: Qwen/Qwen2.5-72B-Instruct`,
  'judge.base-url': `judge:\n  model: gpt-4o-2024-08-06\n  base-url: https://api.openai.com/v1\n  api-key-env: JUDGE_API_KEY`,
  'judge.api-key-env': `judge:\n  api-key-env: JUDGE_API_KEY   # the name of an environment variable, not the key`,
  gate: `gate:\n  malicious-drop: { max: 0.10 }\n  asr: { max: 0.15, defense: taint }`,
  'gate.malicious-drop': `gate:\n  malicious-drop: { max: 0.10 }`,
  'gate.malicious-drop.on': `gate:\n  malicious-drop: { max: 0.10, on: lower-bound }   # estimate | lower-bound | upper-bound of the 95% interval`,
  'gate.asr': `gate:\n  asr: { max: 0.15, defense: taint }`,
  'gate.asr.on': `gate:\n  asr: { max: 0.15, defense: taint, on: lower-bound }   # estimate | lower-bound | upper-bound of the 95% interval`,
  'gate.tcr': `gate:\n  tcr: { min: 0.80, defense: taint }`,
  'gate.tcr.on': `gate:\n  tcr: { min: 0.80, defense: taint, on: upper-bound }   # estimate | lower-bound | upper-bound of the 95% interval`,
  'gate.regression': `gate:\n  regression: { max-increase: 0.03, significance: 0.05 }`,
  'gate.figures': `gate:\n  figures:\n    agentharm/harm-score:taint: { max: 0.20 }   # <benchmark>/<asr|tcr|harm-score|harm-score-non-refused|refusal>:<defense>`,
  'gate.coverage': `gate:\n  coverage: { max-loss: 0.25 }   # or false to turn the check off`,
  history: `history: { store: branch, branch: saboteur-data, keep: 500 }`,
};

/** Every example, by dotted key: the fixed ones and those the registries contribute. */
export function keyExamples(reg: Registries = BUILT_IN): Record<string, string> {
  const benchmarks = Object.fromEntries(Object.entries(reg.benchmarks).map(([id, def]) => [`benchmarks.${id}`, def.example]));
  return {
    ...FIXED_EXAMPLES,
    'model.kind': `model:\n  kind: vllm   # ${MODEL_KIND_IDS.join(' | ')}`,
    ...benchmarks,
    'variants.malicious.method': `variants:\n  malicious:\n    method: autoinject   # ${INJECTION_METHOD_IDS.join(' | ')}`,
    defenses: `defenses: [none, taint]   # ${Object.keys(reg.defenses).join(' | ')}`,
  };
}

export const KEY_EXAMPLES = keyExamples();

export function exampleFor(path: readonly (string | number)[], examples: Record<string, string> = KEY_EXAMPLES): string {
  const keys = path.filter((p): p is string => typeof p === 'string');
  for (let n = keys.length; n >= 0; n--) {
    const example = examples[keys.slice(0, n).join('.')];
    if (example !== undefined) return example;
  }
  return examples[''];
}

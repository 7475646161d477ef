/**
 * The example multi-agent pipelines (fixtures/pipelines) run for real — through the pipeline
 * runner, with the openai package — against a fake OpenAI server that answers per agent.
 * Their completion extraction is checked on tricky model answers by running the result in Python.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompletion, pickCode } from '../../fixtures/pipelines/lib/extract.mjs';
import { createPipelineRunner, type PipelineConfig, type PipelineInput } from '../../src/pipeline/index.js';
import type { Task } from '../../src/benchmarks/core/types.js';
import { memoryLog } from '../../src/util/log.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A HumanEval-style prompt (written for these tests): signature + docstring, body to complete. */
const PROMPT = `from typing import List


def running_max(numbers: List[int]) -> List[int]:
    """ Return the running maximum of the list.
    >>> running_max([1, 3, 2])
    [1, 3, 3]
    """
`;
const CHECK = `
assert running_max([1, 3, 2]) == [1, 3, 3]
assert running_max([]) == []
assert running_max([5, 1, 7]) == [5, 5, 7]
`;
const RIGHT = `def running_max(numbers: List[int]) -> List[int]:
    result = []
    best = None
    for n in numbers:
        best = n if best is None else max(best, n)
        result.append(best)
    return result`;
const RIGHT_BODY = RIGHT.split('\n').slice(1).join('\n') + '\n';

/** The system python starts in milliseconds; a pyenv shim takes half a second. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Runs prompt + completion + the checks in Python; returns stderr when it fails. */
function runPython(source: string): { ok: boolean; stderr: string } {
  const run = spawnSync(PYTHON, ['-c', source], { encoding: 'utf8', timeout: 20_000 });
  return { ok: run.status === 0, stderr: run.stderr };
}

function expectPasses(completion: string, prompt = PROMPT, check = CHECK) {
  const result = runPython(prompt + completion + check);
  expect({ completion, ...result }).toEqual({ completion, ok: true, stderr: '' });
}

describe('completion extraction', () => {
  it('takes the body of a full function in a python fence, dropping the repeated docstring', () => {
    const answer = `Here is the implementation:\n\n\`\`\`python\nfrom typing import List\n\n${RIGHT.replace(
      '\n',
      '\n    """ Return the running maximum of the list.\n    >>> running_max([1, 3, 2])\n    [1, 3, 3]\n    """\n',
    )}\n\nprint(running_max([1, 2]))\n\`\`\`\n\nIt runs in O(n).`;
    const completion = extractCompletion(answer, 'running_max');
    expect(completion).toBe(`${RIGHT_BODY}\n\nfrom typing import List\n`);
    expectPasses(completion);
  });

  it('keeps a body-only answer, indented or not', () => {
    expect(extractCompletion(`\`\`\`python\n${RIGHT_BODY}\`\`\``, 'running_max')).toBe(RIGHT_BODY);
    const flush = RIGHT_BODY.split('\n')
      .map((l) => l.replace(/^ {4}/, ''))
      .join('\n');
    expect(extractCompletion(`\`\`\`python\n${flush}\`\`\``, 'running_max')).toBe(RIGHT_BODY);
    expectPasses(extractCompletion(`\`\`\`py\n${flush}\`\`\``, 'running_max'));
  });

  it('handles decorators, a multi-line signature with tricky defaults, nested defs, helpers and a main block', () => {
    const answer = [
      '```python',
      'import functools',
      'from itertools import accumulate',
      '',
      'def _pick(a, b):',
      '    return max(a, b)',
      '',
      '@functools.wraps(_pick)',
      'def running_max(',
      '    numbers: List[int],',
      "    sep: str = '):',",
      ') -> List[int]:',
      "    r'''Repeated docstring.",
      "    It spans lines.'''",
      '    def step(acc, n):',
      '        return _pick(acc, n)',
      '    return list(accumulate(numbers, step))',
      '',
      "if __name__ == '__main__':",
      '    print(running_max([1, 2]))',
      '```',
    ].join('\n');
    const completion = extractCompletion(answer, 'running_max');
    expect(completion).toBe(
      [
        '    def step(acc, n):',
        '        return _pick(acc, n)',
        '    return list(accumulate(numbers, step))',
        '',
        '',
        'import functools',
        'from itertools import accumulate',
        '',
        'def _pick(a, b):',
        '    return max(a, b)',
        '',
      ].join('\n'),
    );
    expectPasses(completion);
  });

  it('reads code with no fence at all', () => {
    expectPasses(extractCompletion(`Sure.\n${RIGHT}\nThat should work.`, 'running_max'));
    expect(extractCompletion(RIGHT_BODY, 'running_max')).toBe(RIGHT_BODY);
  });

  it('prefers the fence that defines the entry point, and python fences over others', () => {
    const answer = `Usage:\n\`\`\`python\nprint(running_max([1]))\n\`\`\`\n\`\`\`text\nnot code\n\`\`\`\nCode:\n\`\`\`python\n${RIGHT}\n\`\`\``;
    expect(extractCompletion(answer, 'running_max')).toBe(RIGHT_BODY);
    expect(pickCode('```\nx = 1\n```\n```python\ny = 2\n```', 'f')).toBe('y = 2\n');
    expect(pickCode('```\nx = 1\n```', 'f')).toBe('x = 1\n');
  });

  it('re-indents two-space and tab bodies to four spaces', () => {
    const twoSpace =
      'def running_max(numbers):\n  out = []\n  for n in numbers:\n    out.append(max(out[-1], n) if out else n)\n  return out';
    expect(extractCompletion(twoSpace, 'running_max')).toBe(
      '    out = []\n    for n in numbers:\n      out.append(max(out[-1], n) if out else n)\n    return out\n',
    );
    expectPasses(extractCompletion(twoSpace, 'running_max'));
    expectPasses(extractCompletion(twoSpace.replace(/ {2}/g, '\t'), 'running_max'));
  });

  it('keeps multi-line strings whose lines sit at column 0, and a one-line def', () => {
    const answer =
      'def running_max(numbers):\n    """Doc\nat column 0\n    """\n    msg = """a\nb"""\n    assert msg == "a\\nb"\n' + RIGHT_BODY;
    const completion = extractCompletion(answer, 'running_max');
    expect(completion.startsWith('    msg = """a\nb"""\n')).toBe(true);
    expectPasses(completion);
    expect(extractCompletion('```python\ndef running_max(xs): return [max(xs[:i + 1]) for i in range(len(xs))]\n```', 'running_max')).toBe(
      '    return [max(xs[:i + 1]) for i in range(len(xs))]\n',
    );
  });

  it('survives a truncated fence, CRLF line ends, and an answer with no body', () => {
    expectPasses(extractCompletion(`\`\`\`python\r\n${RIGHT.replace(/\n/g, '\r\n')}\r\n`, 'running_max'));
    const docOnly = extractCompletion('```python\ndef running_max(numbers):\n    """Just the docstring."""\n```', 'running_max');
    expect(docOnly).toBe('    pass\n');
    expect(runPython(PROMPT + docOnly).ok).toBe(true);
  });

  it('does not take a same-named function inside a string or a longer name for the entry point', () => {
    const answer = 'def running_max_helper(x):\n    return x\n\ns = """\ndef running_max(a):\n    return 0\n"""\n';
    const completion = extractCompletion(answer, 'running_max');
    // no definition of running_max itself: the code is taken as a body
    expect(completion.startsWith('    def running_max_helper(x):')).toBe(true);
  });
});

/** One call the fake server saw. */
interface SeenCall {
  agent: string;
  by: 'header' | 'path' | 'system' | 'none';
  authorization?: string;
  model: string;
  temperature?: number;
  system: string;
  user: string;
}

/**
 * An OpenAI-compatible chat endpoint that answers per agent. It tells agents apart the way
 * saboteur's proxy does: X-Saboteur-Agent header, /agents/NAME/v1 path, or the system prompt.
 */
async function fakeOpenAI(answers: Record<string, (call: SeenCall) => string>) {
  const calls: SeenCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        temperature?: number;
        messages: { role: string; content: string }[];
      };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      const header = req.headers['x-saboteur-agent'];
      const pathAgent = /^\/agents\/([^/]+)\/v1\/chat\/completions$/.exec(req.url ?? '')?.[1];
      const [agent, by]: [string, SeenCall['by']] =
        typeof header === 'string'
          ? [header, 'header']
          : pathAgent
            ? [pathAgent, 'path']
            : system.startsWith('You are the planner')
              ? ['planner', 'system']
              : ['unknown', 'none'];
      const call: SeenCall = {
        agent,
        by,
        authorization: req.headers.authorization,
        model: body.model,
        temperature: body.temperature,
        system,
        user,
      };
      calls.push(call);
      const answer = answers[agent];
      if (!answer || !/\/chat\/completions$/.test(req.url ?? '')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no agent ${agent} at ${req.url}` } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls.length}`,
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer(call) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const task: Task = {
  id: 'Test/running_max',
  benchmark: 'humaneval',
  kind: 'code',
  prompt: PROMPT,
  entryPoint: 'running_max',
  metadata: {},
};
const WRONG = RIGHT.replace('max(best, n)', 'min(best, n)');
const PLAN = '1. Keep the best value so far.\n2. Append it for every number.';

const workDirs: string[] = [];
afterAll(() => {
  for (const d of workDirs) rmSync(d, { recursive: true, force: true });
});

function runnerFor(pipeline: Partial<PipelineConfig>) {
  const workDir = mkdtempSync(path.join(tmpdir(), 'saboteur-examples-'));
  workDirs.push(workDir);
  const config: PipelineConfig = {
    mode: 'process',
    readyTimeoutMs: 20_000,
    cwd: repoRoot,
    timeoutMs: 60_000,
    concurrency: 4,
    env: [],
    agents: [],
    ...pipeline,
  };
  return createPipelineRunner(config, { log: memoryLog(), workDir, hostEnv: { PATH: process.env.PATH, HOME: process.env.HOME } });
}

const inputFor = (baseUrl: string): PipelineInput => ({
  task,
  apiKey: 'sab-inv-42',
  proxyBaseUrl: baseUrl,
  model: 'qwen-test',
  variant: 'control',
});

function expectContract(calls: SeenCall[]) {
  for (const call of calls) {
    expect(call.user).toContain(PROMPT); // verbatim: replay cassettes key on it
    expect(call).toMatchObject({ authorization: 'Bearer sab-inv-42', model: 'qwen-test', temperature: 0 });
  }
}

describe('chain.mjs: planner → coder → reviewer', () => {
  let server: Awaited<ReturnType<typeof fakeOpenAI>>;
  let reviewerAnswer = '';
  beforeAll(async () => {
    server = await fakeOpenAI({
      planner: () => PLAN,
      coder: () => `Here you go:\n\`\`\`python\n${WRONG}\n\`\`\``,
      reviewer: () => reviewerAnswer,
    });
  });
  afterAll(() => server.close());

  it("uses the reviewer's correction and identifies each agent its own way", async () => {
    server.calls.length = 0;
    reviewerAnswer = `The comparison is wrong.\n\`\`\`python\n${RIGHT}\n\`\`\``;
    const result = await runnerFor({ run: 'node fixtures/pipelines/chain.mjs' }).run(inputFor(server.baseUrl));
    expect(result).toMatchObject({ status: 'ok', output: { completion: RIGHT_BODY } });
    expectPasses(result.output!.completion!);
    expect(server.calls.map((c) => [c.agent, c.by])).toEqual([
      ['planner', 'system'],
      ['coder', 'path'],
      ['reviewer', 'header'],
    ]);
    expectContract(server.calls);
    expect(server.calls[0].system.startsWith('You are the planner.')).toBe(true);
    expect(server.calls[1].user).toContain(PLAN);
    expect(server.calls[1].user).toContain('```python block');
    expect(server.calls[2].user).toContain(WRONG);
    expect(server.calls[2].user).toContain('APPROVED');
  });

  it("keeps the coder's code when the reviewer approves", async () => {
    server.calls.length = 0;
    reviewerAnswer = 'APPROVED';
    const result = await runnerFor({ run: 'node fixtures/pipelines/chain.mjs' }).run(inputFor(server.baseUrl));
    expect(result.status).toBe('ok');
    expect(result.output!.completion).toBe(WRONG.split('\n').slice(1).join('\n') + '\n');
    expect(runPython(PROMPT + result.output!.completion + CHECK).ok).toBe(false); // the coder's bug stays
  });

  it('serves the same chain in http mode (serve.mjs)', async () => {
    server.calls.length = 0;
    reviewerAnswer = `\`\`\`python\n${RIGHT}\n\`\`\``;
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const runner = runnerFor({
      mode: 'http',
      serve: `node fixtures/pipelines/serve.mjs --port ${port}`,
      url: `http://127.0.0.1:${port}/run`,
    });
    await runner.start();
    try {
      const [a, b] = await Promise.all([runner.run(inputFor(server.baseUrl)), runner.run(inputFor(server.baseUrl))]);
      expect(a).toMatchObject({ status: 'ok', output: { completion: RIGHT_BODY } });
      expect(b).toMatchObject({ status: 'ok', output: { completion: RIGHT_BODY } });
      expect(server.calls.map((c) => c.agent).sort()).toEqual(['coder', 'coder', 'planner', 'planner', 'reviewer', 'reviewer']);
      expectContract(server.calls);
    } finally {
      await runner.stop();
    }
  });

  it('fails as a crash, with the reason on stderr, when an agent call fails', async () => {
    const broken = await fakeOpenAI({ planner: () => PLAN }); // no coder
    try {
      const result = await runnerFor({ run: 'node fixtures/pipelines/chain.mjs' }).run(inputFor(broken.baseUrl));
      expect(result).toMatchObject({ status: 'crash', exitCode: 1 });
      expect(result.stderrTail).toMatch(/404/);
    } finally {
      await broken.close();
    }
  });
});

describe('hierarchical.mjs: planner → worker-a ∥ worker-b → merger', () => {
  it('calls every agent and returns the merged function', async () => {
    const EDGES = '- the empty list\n- negative numbers';
    const server = await fakeOpenAI({
      planner: () => PLAN,
      'worker-a': () => `\`\`\`python\n${WRONG}\n\`\`\``,
      'worker-b': () => EDGES,
      merger: () => `Merged:\n\`\`\`python\nfrom typing import List\n\n${RIGHT}\n\`\`\`\n`,
    });
    try {
      const result = await runnerFor({ run: 'node fixtures/pipelines/hierarchical.mjs' }).run(inputFor(server.baseUrl));
      expect(result.status).toBe('ok');
      expectPasses(result.output!.completion!);
      const agents = server.calls.map((c) => [c.agent, c.by]);
      expect(agents[0]).toEqual(['planner', 'system']);
      expect(agents.slice(1, 3).sort()).toEqual([
        ['worker-a', 'header'],
        ['worker-b', 'header'],
      ]);
      expect(agents[3]).toEqual(['merger', 'header']);
      expectContract(server.calls);
      const merger = server.calls[3];
      expect(merger.user).toContain(WRONG);
      expect(merger.user).toContain(EDGES);
    } finally {
      await server.close();
    }
  });
});

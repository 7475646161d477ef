import { describe, expect, it } from '@jest/globals';
import { InputError } from '../../src/util/input-error.js';
import { ActionInputError } from '../../src/action/inputs.js';
import { AgentHarmDataError } from '../../src/benchmarks/agentharm/load.js';
import { AsbDataError } from '../../src/benchmarks/asb/parse.js';
import { JsonlError } from '../../src/benchmarks/humaneval/jsonl.js';
import { RedCodeDataError } from '../../src/benchmarks/redcode/load.js';
import { SandboxStartError } from '../../src/benchmarks/humaneval/scorer.js';
import { SafeArenaDataError } from '../../src/benchmarks/safearena/load.js';
import { UsageError } from '../../src/cli/args.js';
import { AnswerError } from '../../src/cli/init-answers.js';
import { ConfigError } from '../../src/config/load.js';
import { InjectConfigError } from '../../src/inject/autoinject.js';
import { CassetteError } from '../../src/model/cassette.js';
import { EngineError } from '../../src/model/servers/engine-process.js';
import { ModelStartError } from '../../src/model/servers/errors.js';
import { UpstreamError } from '../../src/model/upstream.js';
import { OtlpInputError } from '../../src/otlp/schema.js';
import { OutDirLocked } from '../../src/run/out-lock.js';
import { RunLogError } from '../../src/runlog/schema.js';
import { OutputWriteError } from '../../src/runlog/write.js';
import { PolicyError } from '../../src/taint/policy.js';
import { checkSpans } from '../../src/taint/trace-input-checks.js';
import { TraceInputError } from '../../src/taint/validate-trace.js';
import { InputFileError } from '../../src/util/input-file.js';

/** The error `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('InputError: the user input faults the CLI maps to exit 2', () => {
  const inputErrors: [string, Error][] = [
    ['ActionInputError', new ActionInputError('input limit: "x"')],
    ['AgentHarmDataError', new AgentHarmDataError('m')],
    ['AnswerError', new AnswerError('m')],
    ['AsbDataError', new AsbDataError('m')],
    ['CassetteError', new CassetteError('m')],
    ['ConfigError', new ConfigError('m', 'saboteur.yml')],
    ['InjectConfigError', new InjectConfigError('m')],
    ['InputFileError', new InputFileError('f.json', 'm')],
    ['JsonlError', new JsonlError('m')],
    ['OtlpInputError', new OtlpInputError('m')],
    ['OutDirLocked', new OutDirLocked('m')],
    ['PolicyError', new PolicyError('m', 'policy.yml')],
    ['RedCodeDataError', new RedCodeDataError('m')],
    ['RunLogError', new RunLogError('m')],
    ['SafeArenaDataError', new SafeArenaDataError('m')],
    ['TraceInputError', new TraceInputError('m')],
    ['UsageError', new UsageError('m')],
  ];

  it.each(inputErrors)('%s is an InputError and keeps its own class and message', (name, err) => {
    expect(err).toBeInstanceOf(InputError);
    expect(err).toBeInstanceOf(Error);
    expect(err.constructor.name).toBe(name);
    expect(err.message).toBe(name === 'ActionInputError' ? 'input limit: "x"' : 'm');
  });

  it('keeps the names the classes set themselves', () => {
    expect(new ConfigError('m', 'f').name).toBe('ConfigError');
    expect(new CassetteError('m').name).toBe('CassetteError');
    expect(new OutDirLocked('m').name).toBe('OutDirLocked');
    expect(new UsageError('m').name).toBe('Error');
  });

  it('a span that cannot be placed in a trace is an InputError', () => {
    const err = thrown(() => checkSpans([{ name: 's', traceId: '', spanId: '', startMs: 0 } as never], 'trace.json'));
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).constructor.name).toBe('SpanInputError');
  });

  it.each([
    ['ModelStartError', new ModelStartError('m')],
    ['UpstreamError', new UpstreamError('m')],
    ['SandboxStartError', new SandboxStartError('m')],
    ['OutputWriteError', new OutputWriteError('run.json', 'ENOSPC')],
    ['EngineError', new EngineError('m')],
    ['Error', new Error('m')],
  ])('%s (an infrastructure failure) is not an InputError', (_name, err) => {
    expect(err).not.toBeInstanceOf(InputError);
  });
});

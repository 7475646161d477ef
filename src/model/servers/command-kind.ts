/**
 * Any OpenAI-compatible server started by a shell command (`model.run`) with `{port}`, `{model}`
 * and `{host}` placeholders. It runs through `sh -c` as the leader of its own process group, so
 * stopping it stops what the shell started.
 */
import type { ModelSettings } from '../settings.js';
import { ModelStartError } from './errors.js';
import { fillPlaceholders, placeholdersIn, shellQuote } from './shell-words.js';
import type { LaunchPlan, ListenAddress, ProcessServerDefinition } from './types.js';

export function commandPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  if (!model.run)
    throw new ModelStartError(
      'model.kind command needs model.run, the command that starts the server (for example run: "my-server --port {port} --model {model}")',
    );
  const used = placeholdersIn(model.run);
  if (used.includes('model') && !model.model) throw new ModelStartError(`model.run uses {model} but model.model is not set`);
  const command = fillPlaceholders(model.run, { port: String(at.port), host: at.host, model: model.model });
  // model.args are appended as words of the command line, quoted like the placeholders.
  const extra = model.args.map(shellQuote).join(' ');
  return {
    kind: 'command',
    file: COMMAND_SERVER.binary,
    args: ['-c', extra ? `${command} ${extra}` : command],
    env: {},
    ready: ['/v1/models'],
    version: [{ path: '/version', field: 'version' }],
  };
}

export const COMMAND_SERVER: ProcessServerDefinition = {
  id: 'command',
  description: 'any OpenAI-compatible server started by `model.run`',
  requires: [{ key: 'run', message: 'model.kind command needs run' }],
  binary: '/bin/sh',
  check(model) {
    if (model.run && !placeholdersIn(model.run).includes('port') && model.port === undefined) {
      throw new ModelStartError(
        'model.run has no {port} placeholder: add one (… --port {port}) or set model.port to the port the command listens on',
      );
    }
  },
  plan: commandPlan,
  keyUnknown: true,
};

/**
 * Running the bundled action (dist/index.js) as the runner does, and reading what it leaves in the
 * runner's command files. GITHUB_OUTPUT and GITHUB_STATE hold heredoc blocks:
 * `name<<delimiter`, the value's lines, `delimiter`; a later block for the same name wins.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    values[m[1]] = value.join('\n');
  }
  return values;
}

export interface ActionRun {
  code: number | null;
  /** stdout and stderr together, in arrival order. */
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Runs `node dist/index.js` (or `script`, a bundle of the current source) with `env` (which names
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY) and the inputs as INPUT_* variables. A command file that
 * is not there reads as empty.
 */
export async function runDistAction(env: NodeJS.ProcessEnv, inputs: Record<string, string>, script = 'dist/index.js'): Promise<ActionRun> {
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const [k, v] of Object.entries(inputs)) childEnv[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [script], { env: childEnv });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    code,
    stdout,
    outputs: parseCommandFile(await readFile(env.GITHUB_OUTPUT!, 'utf8').catch(() => '')),
    summary: await readFile(env.GITHUB_STEP_SUMMARY!, 'utf8').catch(() => ''),
  };
}

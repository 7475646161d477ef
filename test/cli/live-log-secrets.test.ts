/**
 * `saboteur run` as a real subprocess (the CLI bundled from the source), its pipeline dying with
 * credentials in the line shown as its cause (test/helpers/secret-crash.ts): neither its stderr
 * (the log, the progress lines, debug lines with --verbose) nor its stdout prints one, and each is
 * shown as the marker run.json has.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { SECRET_CRASH, SECRET_CRASH_VALUES, writeSecretCrashConfig } from '../helpers/secret-crash.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'saboteur-cli-secrets-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('saboteur run, a pipeline that dies with credentials in its cause', () => {
  it('prints the cause redacted, as run.json has it, on stderr and stdout alike', async () => {
    const config = writeSecretCrashConfig(dir, repoRoot);
    const out = path.join(dir, 'out');
    const cli = await bundled('cli');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [cli, 'run', '--config', config, '--out', out, '--verbose'],
        { env: { PATH: process.env.PATH, HOME: dir, WIDGET_CODE: SECRET_CRASH.declared } },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
      ),
    );
    // No instance could be scored: exit 3, after run.json and report.md are written.
    expect([r.code, r.stderr]).toEqual([3, expect.stringContaining('no instance could be scored')]);
    const printed = `${r.stdout}${r.stderr}`;
    const runJson = readFileSync(path.join(out, 'run.json'), 'utf8');
    expect(SECRET_CRASH_VALUES.map((v) => [v, printed.includes(v), runJson.includes(v)])).toEqual(
      SECRET_CRASH_VALUES.map((v) => [v, false, false]),
    );
    const { instances } = JSON.parse(runJson) as { instances: { variant: string; error: string }[] };
    for (const i of instances) {
      expect(i.error).toContain('[redacted: a known token format], [redacted: a known token format] and widget code [redacted])');
      expect(r.stderr).toContain(`${i.variant}: error: ${i.error}`);
    }
  });
});

/**
 * The CLI and the action's steps as real subprocesses, built from the current source: the same
 * esbuild recipe as scripts/bundle.mjs, written to .test-out/ inside the repository (so the
 * bundle finds prompts/ the way dist/ does). Built once per test process.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRIES = {
  cli: 'src/entries/cli.ts',
  'action-main': 'src/entries/action-main.ts',
  'action-post': 'src/entries/action-post.ts',
} as const;
const built = new Map<string, Promise<string>>();

export function bundled(entry: keyof typeof ENTRIES): Promise<string> {
  let p = built.get(entry);
  if (!p) {
    const outfile = path.join(repoRoot, '.test-out', `${entry}-${process.pid}.mjs`);
    p = build({
      entryPoints: [path.join(repoRoot, ENTRIES[entry])],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile,
      banner: {
        js: "import { createRequire as saboteurCreateRequire } from 'node:module'; const require = saboteurCreateRequire(import.meta.url);",
      },
      legalComments: 'none',
      logLevel: 'warning',
      external: ['node-llama-cpp'],
    }).then(() => {
      // This test process's bundle goes with it.
      process.once('exit', () => rmSync(outfile, { force: true }));
      return outfile;
    });
    built.set(entry, p);
  }
  return p;
}

export { repoRoot };

// Runs a TypeScript entry (bench scripts) by bundling it with esbuild into .bench-out/ first:
// Node 20 cannot run .ts itself, and the bundle keeps the project's ESM imports as they are.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const [entry, ...args] = process.argv.slice(2);
const outfile = path.resolve('.bench-out', `${path.basename(entry, '.ts')}.mjs`);
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile,
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, [outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);

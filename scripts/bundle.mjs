// Bundles the action (dist/index.js, dist/post.js) and the CLI (dist/cli.js). Deterministic:
// CI rebuilds and fails when the committed bundle differs.
import { build } from 'esbuild';

const banner = { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" };
const entries = { index: 'src/entries/action-main.ts', post: 'src/entries/action-post.ts', cli: 'src/entries/cli.ts' };
await Promise.all(
  Object.entries(entries).map(([name, entry]) =>
    build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile: `dist/${name}.js`,
      banner,
      legalComments: 'none',
      logLevel: 'warning',
      external: ['node-llama-cpp'],
    }),
  ),
);

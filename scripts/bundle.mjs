// Bundles the action (dist/index.js, dist/post.js), the CLI (dist/cli.js) and the demos' pipelines
// (dist/demo/chain.js, dist/demo/agentic.js: fixtures/pipelines/*.mjs with their openai client and
// MCP SDK inside, so the packaged demos run where nothing but the package is installed), and writes
// dist/licenses.txt: the licence of every third-party package the bundles contain. Deterministic:
// CI rebuilds and fails when the committed bundle differs. `--outdir DIR` bundles elsewhere (the
// install test packs fresh bundles); `--only NAME` (e.g. cli) bundles one entry alone.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Under a name of its own: a bundled package may import createRequire itself (@actions/cache's do).
const banner = {
  js: "import { createRequire as saboteurCreateRequire } from 'node:module'; const require = saboteurCreateRequire(import.meta.url);",
};
const option = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const outdir = option('outdir') ?? 'dist';
const allEntries = {
  index: 'src/entries/action-main.ts',
  post: 'src/entries/action-post.ts',
  cli: 'src/entries/cli.ts',
  'demo/chain': 'fixtures/pipelines/chain.mjs',
  'demo/agentic': 'fixtures/pipelines/agentic.mjs',
};
const only = option('only');
const entries = only ? { [only]: allEntries[only] } : allEntries;
const results = await Promise.all(
  Object.entries(entries).map(([name, entry]) =>
    build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile: path.join(outdir, `${name}.js`),
      banner,
      // Licence comments of bundled code go to dist/NAME.js.LEGAL.txt, linked from the bundle.
      legalComments: 'linked',
      metafile: true,
      logLevel: 'warning',
      external: ['node-llama-cpp'],
    }),
  ),
);

/** The folder of the npm package a bundled input belongs to (nested node_modules included). */
function packageRoot(input) {
  const parts = input.split('/');
  const i = parts.lastIndexOf('node_modules');
  if (i < 0) return undefined;
  const scoped = parts[i + 1]?.startsWith('@');
  return parts.slice(0, i + (scoped ? 3 : 2)).join('/');
}

function licenceText(root) {
  const file = readdirSync(root)
    .filter((f) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(f))
    .sort()[0];
  return file ? readFileSync(path.join(root, file), 'utf8').trim() : undefined;
}

const roots = new Set();
for (const r of results)
  for (const input of Object.keys(r.metafile.inputs)) {
    const root = packageRoot(input);
    if (root && existsSync(path.join(root, 'package.json'))) roots.add(root);
  }
const sections = [...roots]
  .map((root) => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see the package');
    return { id: `${pkg.name}@${pkg.version}`, licence, text: licenceText(root) };
  })
  .sort((a, b) => a.id.localeCompare(b.id))
  .filter((s, i, all) => i === 0 || all[i - 1].id !== s.id);
const body = sections
  .map((s) => `${s.id} (${s.licence})\n\n${s.text ?? `No licence file ships with this package; its package.json declares ${s.licence}.`}`)
  .join(`\n\n${'-'.repeat(72)}\n\n`);
const bundles = Object.keys(entries).map((n) => `dist/${n}.js`);
const named = bundles.length > 1 ? `${bundles.slice(0, -1).join(', ')} and ${bundles.at(-1)}` : bundles[0];
writeFileSync(path.join(outdir, 'licenses.txt'), `Third-party software bundled in ${named}\n\n${'='.repeat(72)}\n\n${body}\n`);

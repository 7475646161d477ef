// Checks that the folders of src/ import only downward along the order docs/architecture.md states
// ("Import order"): a folder may import the folders listed before it, never one listed after it,
// except upward imports that page lists in a table as still to be removed (none today; no table
// means none). An exception that no import needs any more also fails, so the list only shrinks.
// Exit 1 with every offending import named.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const DOC = 'docs/architecture.md';

/** The order and the listed exceptions, from the doc's "Import order" section. */
export function readRules(markdown) {
  const start = markdown.indexOf('\n## Import order\n');
  if (start < 0) throw new Error(`${DOC} has no "## Import order" section`);
  const end = markdown.indexOf('\n## ', start + 5);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const orderLine = /^Order: (.+)$/m.exec(section);
  if (!orderLine) throw new Error(`${DOC}, "Import order": no "Order: a → b → …" line`);
  const order = orderLine[1].split('→').map((s) => s.trim().replace(/^`|\/?`$/g, ''));
  const exceptions = [...section.matchAll(/^\| `([a-z]+)\/` → `([a-z]+)\/` \|/gm)].map((m) => `${m[1]}→${m[2]}`);
  return { order, exceptions };
}

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* tsFiles(full);
    else if (name.endsWith('.ts')) yield full;
  }
}

/** Every import of one src/ folder from another: {from, to, file, spec}. */
export function folderImports(root = 'src') {
  const out = [];
  for (const file of tsFiles(root)) {
    const from = path.relative(root, file).split(path.sep)[0];
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: spec } of info.importedFiles) {
      if (!spec.startsWith('.')) continue;
      const rel = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep);
      if (rel[0] === '..' || rel.length < 2 || rel[0] === from) continue;
      out.push({ from, to: rel[0], file, spec });
    }
  }
  return out;
}

export function check(markdown, imports, folders) {
  const { order, exceptions } = readRules(markdown);
  const problems = [];
  const missing = folders.filter((f) => !order.includes(f));
  if (missing.length) problems.push(`${DOC}, "Import order": the order does not name ${missing.join(', ')}`);
  const used = new Set();
  for (const imp of imports) {
    if (order.indexOf(imp.to) < order.indexOf(imp.from)) continue;
    const key = `${imp.from}→${imp.to}`;
    if (exceptions.includes(key)) used.add(key);
    else
      problems.push(
        `${imp.file} imports '${imp.spec}': src/${imp.from}/ may import only folders before it in ${DOC} ("Import order"), and ${imp.to}/ comes after it`,
      );
  }
  for (const key of exceptions)
    if (!used.has(key)) problems.push(`${DOC}, "Import order": the exception ${key} is no longer needed; remove it from the list`);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folders = readdirSync('src').filter((f) => statSync(path.join('src', f)).isDirectory());
  const problems = check(readFileSync(DOC, 'utf8'), folderImports(), folders);
  for (const p of problems) console.error(`check-imports: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`check-imports: the folders of src/ import only downward (${DOC}, "Import order")`);
}

/**
 * docs/taint-policy.md documents every key of the policy file's zod schema and nothing else, names
 * every label, target kind and content site, and each of its YAML examples is a valid policy; the
 * examples of its Principles hold against the provenance rules.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CONTENT_SITES, parsePolicy, policyFileSchema, TARGET_KINDS } from '../../src/taint/policy.js';
import { SINK_LABELS, SOURCE_LABELS } from '../../src/taint/labels.js';
import { codeBlocks, fieldPaths, tableNames } from '../helpers/doc-fields.js';
import { valueSource } from '../../src/taint/provenance.js';
import { normalizeText } from '../../src/taint/content-links.js';

const DOC = 'docs/taint-policy.md';
const doc = readFileSync(DOC, 'utf8');

describe(DOC, () => {
  it('its `| key |` tables name exactly the keys of the policy schema', () => {
    const keys = fieldPaths(policyFileSchema);
    const documented = tableNames(doc, 'key');
    const missing = keys.filter((k) => !documented.includes(k));
    const stale = documented.filter((k) => !keys.includes(k));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('names every label, target kind and content site', () => {
    for (const word of [...SOURCE_LABELS, ...SINK_LABELS, ...TARGET_KINDS, ...CONTENT_SITES]) expect(doc).toContain(`\`${word}\``);
  });

  it('every policy example parses, and together they use every top-level key', () => {
    const policies = codeBlocks(doc, 'yaml').filter((b) => !b.startsWith('# saboteur.yml'));
    expect(policies.length).toBeGreaterThan(3);
    const used = new Set<string>();
    for (const [i, text] of policies.entries()) {
      expect(() => parsePolicy(text, `${DOC} example ${i + 1}`)).not.toThrow();
      for (const m of text.matchAll(/^([a-z-]+):/gm)) used.add(m[1]);
    }
    expect([...used].sort()).toEqual(Object.keys(policyFileSchema.shape).sort());
  });

  it('policies/example.yml, which it points to, is a valid policy', () => {
    expect(() => parsePolicy(readFileSync('policies/example.yml', 'utf8'), 'policies/example.yml')).not.toThrow();
  });
});

describe(`${DOC}: the principles' examples`, () => {
  const rows = tableRows(doc, 'request');
  it('has an example of every kind of source but the unseen one', () => {
    expect(new Set(rows.map((r) => r[5])).size).toBe(5);
  });
  it.each(rows.map((r) => [r[4], r[5], r] as const))('%s comes from the %s', (_, source, r) => {
    const [request, args, result, instruction, value] = r.map((c) => c.replace(/^`|`$/g, '').replace(/\\n/g, '\n'));
    const text = {
      output: result,
      args: JSON.parse(args) as Record<string, unknown>,
      at: 1,
      ...(instruction !== '—' ? { instructions: normalizeText(instruction) } : {}),
    };
    const holds = (h: string, n: string) => ` ${normalizeText(h)} `.includes(` ${normalizeText(n)} `);
    const ctx = {
      request,
      containing: (v: string) => (holds(result, v) ? [{ node: 1, text }] : []),
      inInstructions: (v: string) => text.instructions !== undefined && holds(instruction, v),
    };
    expect(valueSource(ctx, value).kind).toBe(source);
  });
});

/** The cells of every row of the table whose first header cell is `first`. */
function tableRows(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  const out: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    out.push(
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return out;
}

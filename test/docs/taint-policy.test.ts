/**
 * docs/taint-policy.md documents every key of the policy file's zod schema and nothing else, names
 * every label, target kind and content site, and each of its YAML examples is a valid policy.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CONTENT_SITES, parsePolicy, policyFileSchema, TARGET_KINDS } from '../../src/taint/policy.js';
import { SINK_LABELS, SOURCE_LABELS } from '../../src/taint/labels.js';
import { codeBlocks, fieldPaths, tableNames } from '../helpers/doc-fields.js';

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

/**
 * docs/run-log.md documents every field of the run log's zod schema, and nothing else: each
 * section's `| field |` tables name exactly the fields of one part of `runLogSchema`, so a field
 * added to (or removed from) src/runlog/schema.ts fails here until the page says what it means.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  benchmarkInfoSchema,
  instanceResultSchema,
  OUTCOMES,
  proxyCallSchema,
  runLogSchema,
  RUN_LOG_VERSION,
  toolEventSchema,
} from '../../src/runlog/schema.js';
import { otlpSpanSchema } from '../../src/runlog/otlp-spans.js';
import { fieldPaths, sectionOf, tableNames } from '../helpers/doc-fields.js';

const DOC = 'docs/run-log.md';
const doc = readFileSync(DOC, 'utf8');

/** Each part of the run log, the heading marker of its section, and where the part sits in the whole. */
const PARTS = [
  { marker: '(`run.json`)', at: '', paths: fieldPaths(runLogSchema, new Set(['benchmarks', 'instances'])) },
  { marker: '(`benchmarks[]`)', at: 'benchmarks[].', paths: fieldPaths(benchmarkInfoSchema) },
  {
    marker: '(`instances[]`)',
    at: 'instances[].',
    paths: fieldPaths(instanceResultSchema, new Set(['trace.calls', 'trace.tools', 'trace.spans'])),
  },
  { marker: '(`trace.calls[]`)', at: 'instances[].trace.calls[].', paths: fieldPaths(proxyCallSchema) },
  { marker: '(`trace.tools[]`)', at: 'instances[].trace.tools[].', paths: fieldPaths(toolEventSchema) },
  { marker: '(`trace.spans[]`)', at: 'instances[].trace.spans[].', paths: fieldPaths(otlpSpanSchema) },
];

describe(DOC, () => {
  it('covers the whole schema with its parts (a new list of objects needs its own section)', () => {
    const composed = PARTS.flatMap((p) => p.paths.map((f) => `${p.at}${f}`));
    expect([...composed].sort()).toEqual([...fieldPaths(runLogSchema)].sort());
  });

  it.each(PARTS.map((p) => [p.marker, p] as const))('section %s names exactly the fields of its part', (_marker, part) => {
    const documented = tableNames(sectionOf(doc, part.marker), 'field');
    const missing = part.paths.filter((f) => !documented.includes(f));
    const stale = documented.filter((f) => !part.paths.includes(f));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('names the top-level and instance-level fields in its tables', () => {
    for (const key of Object.keys(runLogSchema.shape)) expect(tableNames(sectionOf(doc, '(`run.json`)'), 'field')).toContain(key);
    for (const key of Object.keys(instanceResultSchema.shape))
      expect(tableNames(sectionOf(doc, '(`instances[]`)'), 'field')).toContain(key);
  });

  it('states the current schema version and explains every outcome', () => {
    expect(doc).toContain(`\`schemaVersion\` is \`${RUN_LOG_VERSION}\``);
    const outcomes = sectionOf(doc, '(`instances[]`)').split('### Outcomes')[1] ?? '';
    for (const o of OUTCOMES) expect(outcomes).toMatch(new RegExp(`^\\| \`${o}\` \\|`, 'm'));
  });
});

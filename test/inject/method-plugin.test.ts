/**
 * An injection method is a plugin: its definition (a folder-like module, here NOOP) plus one line
 * in a registry. The report names it by its own label and shows its own section, and the run asks
 * it for its part in each instance run; nothing outside src/inject/ had to learn its name.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { renderReport, summaryLine } from '../../src/report/markdown.js';
import { checkRegistry } from '../../src/util/registry.js';
import { INJECTION_METHODS, instanceHookOf, methodReportOf } from '../../src/inject/registry.js';
import type { InjectionMethodDefinition } from '../../src/inject/method.js';

/** The method's module: an injector that touches nothing, and a report section of its own. */
const NOOP: InjectionMethodDefinition = {
  id: 'noop',
  description: 'leaves every call alone (a control for the saboteur itself)',
  agenticTask: 'benign',
  create: () => ({ injector: { method: 'noop', decide: () => false }, close: async () => undefined }),
  perInstance: (run, instance) => ({ plan: `${run.seed}/${instance.instanceId}` }),
  report: { label: 'No-op saboteur', section: (log) => [`No-op saboteur on \`${log.variants.malicious.target}\`: nothing was changed.`] },
};

/** The registry with the method's one line. */
const METHODS = checkRegistry('injection method', { ...INJECTION_METHODS, noop: NOOP });

const demo = parseRunLog(readFileSync('fixtures/runlogs/demo.json', 'utf8'), 'demo');
const underNoop: RunLog = { ...demo, variants: { ...demo.variants, malicious: { ...demo.variants.malicious, method: 'noop' } } };

describe('a method registered by one line', () => {
  const method = methodReportOf('noop', METHODS);

  it('is named by its own label in the report, not AutoInject', () => {
    expect(demo.variants.malicious.method).toBe('autoinject');
    const report = renderReport(underNoop, { method });
    expect(report).toContain('| **malicious drop** (No-op saboteur) |');
    expect(report).toContain('## Sabotage\n\nNo-op saboteur on `coder`: nothing was changed.');
    expect(report).not.toContain('AutoInject');
    expect(summaryLine(underNoop, method)).not.toContain('AutoInject');
    // The same run log under the built-in method is AutoInject's.
    expect(renderReport(demo, { method: methodReportOf('autoinject', METHODS) })).toContain('| **malicious drop** (AutoInject) |');
  });

  it('gets its part in each instance run from the run', () => {
    const hook = instanceHookOf('noop', 7, METHODS);
    expect(hook?.({ benchmark: 'humaneval', instanceId: 'HumanEval/0' })).toEqual({ plan: '7/HumanEval/0' });
    expect(instanceHookOf('autoinject', 7, METHODS)).toBeUndefined();
  });
});

/** Every name and string in the code of a source file (comments are prose and may speak of a method). */
function namesAndStrings(file: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) out.push(node.text);
    node.forEachChild(visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return out;
}

const sourcesOutside = (dir: string, skip: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === skip ? [] : sourcesOutside(path, skip);
    return e.name.endsWith('.ts') ? [path] : [];
  });

describe('outside src/inject/', () => {
  it('no code names a method but the default one, the config default', () => {
    const defaultMethod = 'autoinject';
    const others = Object.keys(INJECTION_METHODS).filter((id) => id !== defaultMethod);
    expect(others.length).toBeGreaterThan(1);
    const named = (text: string, id: string) =>
      text
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .includes(id.replace(/[^a-z0-9]/g, ''));
    const found = sourcesOutside('src', join('src', 'inject')).flatMap((file) =>
      namesAndStrings(file).flatMap((text) =>
        others.filter((id) => named(text, id)).map((id) => `${file}: ${id} in ${JSON.stringify(text)}`),
      ),
    );
    expect(found).toEqual([]);
  });
});

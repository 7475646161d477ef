/**
 * An injection method is a plugin: its definition (a folder-like module, here NOOP) plus one line
 * in a registry. The report names it by its own label and shows its own section, and the run asks
 * it for its part in each instance run; nothing outside src/inject/ had to learn its name.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
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

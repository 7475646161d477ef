/**
 * Jest runs TypeScript as ESM: the action's dependencies are ESM-only. Two projects:
 * `unit`, the pure logic (no server, subprocess, sandbox, browser or benchmark data: `npm test`,
 * about a minute), and `integration`, everything else (`npm run test:all` runs both, and so does
 * `.ci/run`). A new test file is an integration test unless it is listed here.
 */
import { availableParallelism } from 'node:os';

const UNIT = [
  'test/action/mask.test.ts',
  'test/action/readme-workflow.test.ts',
  'test/config/config.test.ts',
  'test/config/registries.test.ts',
  'test/config/settings-types.test.ts',
  'test/docs/*.test.ts',
  'test/github/github-context.test.ts',
  'test/github/github-readme.test.ts',
  'test/history/history.test.ts',
  'test/model/reference-answers.test.ts',
  'test/report/*.test.ts',
  'test/run/call-notes.test.ts',
  'test/run/judge-info.test.ts',
  'test/run/secrets.test.ts',
  'test/run/verdict.test.ts',
  'test/runlog/bound.test.ts',
  'test/scoring/*.test.ts',
  'test/taint/annotate-tools.test.ts',
  'test/taint/content-links.test.ts',
  'test/taint/graph.test.ts',
  'test/taint/injection.test.ts',
  'test/taint/intent.test.ts',
  'test/taint/policy.test.ts',
  'test/taint/suggest.test.ts',
  'test/taint/tool-profile.test.ts',
  'test/taint/trace-shapes.test.ts',
  'test/taint/validate-graphs.test.ts',
  'test/util/input-error.test.ts',
  'test/util/log.test.ts',
].map((p) => `<rootDir>/${p}`);

const shared = {
  // Jest's node environment with each test file's own TMPDIR: files that run beside each other
  // share no scratch folder.
  testEnvironment: '<rootDir>/test/helpers/own-tmpdir-environment.js',
  extensionsToTreatAsEsm: ['.ts'],
  resolver: 'ts-jest-resolver',
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true }] },
};

export default {
  // A hang guard, never a condition: a test waits for the event it checks (CONTRIBUTING.md, "Tests under load").
  testTimeout: 180_000,
  // Most integration tests wait on subprocesses, servers and sandboxes rather than compute: two
  // files at a time even on a 2-core machine (jest's default there is one).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    { ...shared, displayName: 'unit', testMatch: UNIT },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...UNIT.map((p) => p.replace('<rootDir>/', '/').replace('*', '[^/]*').replace(/\./g, '\\.').replace('[^/]\\*', '[^/]*') + '$'),
      ],
    },
  ],
};

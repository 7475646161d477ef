/** Jest runs TypeScript as ESM: the action's dependencies are ESM-only. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  resolver: 'ts-jest-resolver',
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 60000,
};

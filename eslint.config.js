// ESLint for src/, test/, bench/ and scripts/: the recommended rules of ESLint and typescript-eslint,
// plus the size rule of the house (a function of src/ fits on a screen: 100 lines at most).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Generated and scratch folders (.gitignore): bundles, test and bench outputs, fixtures kept as found.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-artifacts/**',
      'coverage/**',
      'fixtures/**',
      'out/**',
      '.saboteur-out/**',
      '.bench-out/**',
      '.test-out/**',
      'saboteur-out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Escaping and sanitising match control characters on purpose (report/escape.ts, inject/units.ts).
      'no-control-regex': 'off',
      // saboteur's errors restate what went wrong with the file or key it concerns, in their own words
      // (the message is what the user sees); chaining the low-level error as `cause` adds nothing there.
      'preserve-caught-error': 'off',
      // A default before a try whose catch keeps it is the house's way of saying what a failed read means.
      'no-useless-assignment': 'off',
    },
  },
  {
    // Every line counts (blank lines, comments, IIFEs). A data table written as a function may
    // say so in an eslint-disable-next-line comment with its reason.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    // Tests reach into parsed JSON and event payloads of no declared type.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

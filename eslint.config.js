// ESLint flat config: type-aware typescript-eslint rules that catch real bugs (a promise nobody awaits,
// an async callback where a void one is expected, awaiting a non-promise, a switch that misses a case),
// not style, so the code is not reformatted. `npm test` runs it (`npm run lint`, after the build), and a
// finding fails the tests.
// Type information comes from TypeScript 6 (the `typescript` package here is the @typescript/typescript6
// alias): TypeScript 7, which builds the project (`tsc`, from the @typescript/native alias), has no
// JavaScript compiler API yet. docs/DEPENDENCIES.md says more.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** The rules, for the server and test code and for the browser code alike. */
const RULES = {
  // Promises. A floating one loses its error (Node 20 then ends the process on the unhandled rejection).
  '@typescript-eslint/no-floating-promises': [
    'error',
    // node:test runs and reports these itself; the promise they return is not the caller's to await.
    { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
  ],
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/return-await': ['error', 'in-try-catch'], // `return p` inside try skips its catch and finally
  '@typescript-eslint/prefer-promise-reject-errors': 'error',
  'no-async-promise-executor': 'error',
  // A switch over a union without a default names every member: a new message kind or fact is a lint
  // error where it is not handled. A default counts as handling the rest (the guard chain's default is its
  // extension point); TypeScript checks the switches that must return a value.
  '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
  // Values that are not what the code thinks they are.
  '@typescript-eslint/only-throw-error': 'error',
  '@typescript-eslint/no-base-to-string': 'error', // "[object Object]" in a message or a CSV field
  '@typescript-eslint/restrict-plus-operands': 'error',
  '@typescript-eslint/require-array-sort-compare': ['error', { ignoreStringArrays: true }], // [10, 9].sort() is [10, 9]
  '@typescript-eslint/no-for-in-array': 'error',
  '@typescript-eslint/no-array-delete': 'error',
  '@typescript-eslint/no-misused-spread': 'error',
  '@typescript-eslint/no-implied-eval': 'error',
  'use-isnan': 'error',
  'no-compare-neg-zero': 'error',
  'no-loss-of-precision': 'error',
  'no-unsafe-optional-chaining': 'error',
  'no-unsafe-finally': 'error',
  'no-cond-assign': 'error',
  'no-self-assign': 'error',
  'no-dupe-else-if': 'error',
  'no-duplicate-case': 'error',
  'no-sparse-arrays': 'error',
  'no-empty-pattern': 'error',
  'for-direction': 'error',
  'require-yield': 'error',
  // Regular expressions that do not match what they seem to.
  'no-invalid-regexp': 'error',
  'no-empty-character-class': 'error',
  'no-misleading-character-class': 'error',
  'no-useless-backreference': 'error',
  // Dead code ("_name" marks an unused parameter or binding kept on purpose).
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
  'no-unused-private-class-members': 'error',
};

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', 'bench/out/', '.build/', '.tools/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['src/**/*.ts', 'importer/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'dev/**/*.ts', 'web/src/**/*.ts'],
    ignores: ['web/src/sw.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: RULES,
  },
  {
    // the service worker has its own types (WebWorker, no DOM): web/tsconfig.sw.json
    files: ['web/src/sw.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './web/tsconfig.sw.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: RULES,
  },
);

// ESLint (flat config) for the Word task pane, as for the VS Code extension: typescript-eslint's
// type-checked recommended rules, which catch what tsc does not (a promise nobody awaits — an Office.js
// call whose failure would vanish —, `any` leaking from the server's JSON, a misused async callback).
// `npm run lint` runs it; `npm test` runs it first, and .ci/run runs `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_name` says "deliberately unused" (a callback's parameter a signature requires)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // node:test's test() returns a promise the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
    },
  },
  {
    // the fakes stand in for Office.js's async API: an async method that answers at once is what they mean
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // the build script is plain Node JavaScript, outside tsconfig's project
    files: ['**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);

// @ts-check
// Lint: ESLint with typescript-eslint's strict type-checked rules (they see types: a promise
// left floating, a condition that is always true, a `+` between a number and an object),
// Prettier for the layout (eslint-config-prettier turns off the rules it owns).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', 'docs/api/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Error messages name numbers ("entity 12 ... (got 300)"): numbers in templates are the point.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `(eid) => list.push(eid)` as a callback is plain enough.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    // In tests a wrong `!` throws, and a throw fails the test: what a test wants.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);

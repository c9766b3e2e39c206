// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries: what each side may import (docs/architecture.md). */
const nodeOnly = [
  'node:*',
  'fastify',
  '@fastify/*',
  'kysely',
  'pg',
  'better-sqlite3',
  '@telegram-apps/init-data-node',
];
const browserOnly = [
  'react',
  'react-dom',
  'react-dom/*',
  'wouter',
  '@telegram-apps/sdk-react',
  '@telegram-apps/telegram-ui',
  'react-hook-form',
];

/**
 * @param {string[]} patterns
 * @param {string} message
 * @returns {import('eslint').Linter.RulesRecord}
 */
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'node_modules/**',
      'test-artifacts/**',
      'data/**',
      'i18n/i18n-*.ts',
      'i18n/i18n-*.tsx',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'tests/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict(
      [...nodeOnly, ...browserOnly, '**/app/**', '**/server/**', '**/i18n/**'],
      'src/shared runs in the browser and in Node: it imports neither side nor any framework.',
    ),
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: restrict(
      [...nodeOnly, '**/server/**'],
      'src/app is the browser bundle: no server code.',
    ),
  },
  {
    // The mini-app's features keep to themselves: a file of src/app/features/<feature>/ is imported
    // by its own feature, by the screens and by the root files of src/app (routes.tsx…), never by
    // another feature nor by the shared components/, hooks/, api/, telegram/ or i18n/. A piece two
    // features need is shared: it lives in components/ or hooks/. The boundaries plugin again,
    // under a name of its own: the block below sets boundaries/dependencies and the elements for
    // all of src, which would replace a rule or settings array given here; boundaries/files is set
    // nowhere else, and that block's elements and resolver apply here too.
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'app-features': boundaries },
    settings: {
      'boundaries/files': [
        { category: 'feature', pattern: 'src/app/features/*/**', capture: ['feature'] },
        { category: 'screen', pattern: 'src/app/screens/**' },
        { category: 'root', pattern: 'src/app/*.{ts,tsx}' },
      ],
    },
    rules: {
      'app-features/dependencies': [
        'error',
        {
          default: 'allow',
          // All of src/app is the one element `app`: its imports of itself are internal ones.
          checkInternals: true,
          message:
            "A feature's files are imported by that feature, the screens and src/app's root " +
            'files only: what two features share lives in components/ or hooks/.',
          policies: [
            { disallow: { to: { file: { categories: 'feature' } } } },
            {
              from: { file: { categories: { anyOf: ['screen', 'root'] } } },
              allow: { to: { file: { categories: 'feature' } } },
            },
            {
              from: { file: { categories: 'feature' } },
              allow: {
                to: {
                  file: {
                    categories: 'feature',
                    captured: { feature: '{{ from.file.captured.feature }}' },
                  },
                },
              },
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript that Node runs as it is (src/server/platform/build-if-stale.mjs).
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict(
      [...browserOnly, '**/app/**', '**/i18n-react'],
      'src/server never imports the mini-app or React.',
    ),
  },
  {
    // A function fits a screen: under 80 lines, blank lines and comments
    // included; a long one is split into named parts, a state machine written as a table.
    files: ['src/**/*.{ts,tsx,mjs}'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // Imports run one way: the domain modules of src/server stand on the platform, the platform on
    // src/shared; a module uses another only through its door (its index.ts), and the modules
    // form no cycle (import-x/no-cycle below). app.ts and main.ts, which compose them, are no
    // element: they may import any door.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx'] } },
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared' },
        { type: 'app', pattern: 'src/app' },
        { type: 'platform', pattern: 'src/server/platform' },
        { type: 'module', pattern: 'src/server/*', capture: ['module'] },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            {
              from: { element: { type: 'shared' } },
              allow: { to: { element: { type: 'shared' } } },
            },
            {
              from: { element: { type: 'app' } },
              allow: { to: { element: { types: { anyOf: ['app', 'shared'] } } } },
            },
            {
              from: { element: { type: 'platform' } },
              allow: { to: { element: { types: { anyOf: ['platform', 'shared'] } } } },
            },
            {
              // Within a module anything; of another module only its door, index.ts.
              from: { element: { type: 'module' } },
              allow: [
                { to: { element: { types: { anyOf: ['platform', 'shared'] } } } },
                { dependency: { relationship: { to: 'internal' } } },
                { to: { element: { type: 'module', fileInternalPath: 'index.ts' } } },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    // No module reaches another that reaches it back, directly or around a ring: orders stand on
    // nothing but the platform, and every other module on what is below it (docs/architecture.md).
    files: ['src/server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver': { node: { extensions: ['.ts'] } },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

// Lint: typescript-eslint's recommended rules, React hooks rules, Next's rules for pages, and the boundaries of
// STYLE.md section 1: dependencies point one way (app → lib/http → lib/<domain>), checked here so they stay so.
// `npm run lint` also runs Prettier (120 columns) and knip (unused files, exports and dependencies).
import path from 'node:path';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

// Runtime imports a domain module may not make (types are fine: they vanish at build time).
const EDGE = [
  'next',
  'next/*',
  '@/app/*',
  '@/lib/http',
  '@/lib/http/*',
  '@/lib/deps',
  '**/http/*',
  '**/deps',
  '**/app/*',
];
const restrict = (patterns, message) => ['error', { patterns: [{ group: patterns, message, allowTypeImports: true }] }];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next*/**',
      'lib/db/generated/**',
      'playwright-report/**',
      'test-results/**',
      'next-env.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin, 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mjs', '.js'],
          tsconfig: { configFile: path.resolve(import.meta.dirname, 'tsconfig.json') },
        }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // No module takes part in an import cycle (lib/http ↔ auth, lib/fhir → lib/emr → lib/fhir were).
  {
    files: ['lib/**/*.ts', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'middleware.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The domain never reaches for the edge: lib/http, next/*, app/ or the composition root.
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/http/**', 'lib/deps.ts', 'lib/start-up.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        EDGE,
        'lib/<domain> never imports the edge (lib/http, next, app/, lib/deps): take what you need as an argument.',
      ),
    },
  },
  // Pure cores: lib/x12 and lib/money import nothing outside themselves (resolved paths, so any spelling counts);
  // lib/x12 may read decimals and cents with lib/money, which is pure too.
  {
    files: ['lib/x12/**/*.ts', 'lib/money/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './lib/x12',
              from: './lib',
              except: ['./x12', './money'],
              message: 'lib/x12 is pure: it imports only itself and lib/money.',
            },
            {
              target: './lib/money',
              from: './lib',
              except: ['./money'],
              message: 'lib/money is pure: it imports nothing outside itself.',
            },
            ...['./app', './components', './test', './scripts', './middleware.ts'].flatMap((from) => [
              { target: './lib/x12', from, message: 'lib/x12 is pure: it imports only itself and lib/money.' },
              { target: './lib/money', from, message: 'lib/money is pure: it imports nothing outside itself.' },
            ]),
          ],
        },
      ],
    },
  },
  { files: ['**/*.mjs', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Tests read response bodies loosely (the assertions pin their shape), so `any` is allowed there only.
  { files: ['test/**', 'e2e/**', '**/*.test.ts', 'bench/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);

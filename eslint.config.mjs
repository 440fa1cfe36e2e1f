// Lint: typescript-eslint's recommended rules, React hooks rules and Next's rules for pages.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';

export default tseslint.config(
  { ignores: ['node_modules/**', '.next*/**', 'lib/db/generated/**', 'playwright-report/**', 'test-results/**', 'next-env.d.ts'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.mjs', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Tests read response bodies loosely (the assertions pin their shape), so `any` is allowed there only.
  { files: ['test/**', 'e2e/**', '**/*.test.ts', 'bench/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);

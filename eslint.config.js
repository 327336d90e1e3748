import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/', 'plugin-dist/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'eslint.config.js',
            'scripts/*.mjs',
            'bin/*.cjs',
            'test/loop/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // core is pure: no I/O, no process, no imports from outer layers.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', '../transcript/*', '../store/*', '../app/*', '../cli/*'] },
      ],
      'no-restricted-globals': ['error', 'process'],
    },
  },
  {
    // Tests of the pure core still need node:test and node:assert.
    files: ['src/core/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/transcript/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['../store/*', '../app/*', '../cli/*'] }],
    },
  },
  {
    // node:test's describe/test return promises the runner itself awaits.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'test/loop/*.mjs', 'eslint.config.js', 'bin/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: 'readonly',
        URL: 'readonly',
        console: 'readonly',
        require: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        setInterval: 'readonly',
        Intl: 'readonly',
        structuredClone: 'readonly',
      },
    },
  },
  {
    files: ['bin/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

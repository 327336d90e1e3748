import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

/**
 * The layers, lowest first (docs/ARCHITECTURE.md). A layer imports only layers below it; the
 * layers of one rank (the front doors; store and capture) do not import each other.
 */
export const LAYERS = [
  ['core'],
  ['redact'],
  ['transcript'],
  ['store', 'capture', 'tracker'],
  ['agents'],
  ['app'],
  ['hook', 'statusline', 'mcp', 'loop', 'mod', 'ui'],
  ['cli'],
  // The per-call bundles' entries (scripts/build.mjs builds one bundle per file).
  ['entries'],
];
const layerZones = LAYERS.flatMap((rank, index) =>
  rank.map((layer) => ({
    target: `./src/${layer}`,
    from: [
      ...LAYERS.slice(index + 1)
        .flat()
        .map((above) => `./src/${above}`),
      ...rank.filter((sibling) => sibling !== layer).map((sibling) => `./src/${sibling}`),
    ],
    message: `${layer} may not import this: imports point down the layers (docs/ARCHITECTURE.md).`,
  })),
).filter((zone) => zone.from.length > 0);

/**
 * The agent is a value (docs/agents.md): each agent's formats stay in its folder, no adapter
 * imports another's, and only src/agents/ and src/entries/ (the entries hand an agent in) import
 * an agent's folder at all — the rest takes the agent it is given, through src/agents/agent.ts.
 * Within src/agents/, the shared modules reach an agent only through its `adapter.ts` (dispatch).
 * Each folder of src/agents/ is an agent (src/agents/agent-folders.test.ts), so a new one is kept
 * by these rules without a word here. test/architecture.test.ts holds the whole tree to them.
 */
const AGENTS = readdirSync(new URL('./src/agents/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const agentZones = AGENTS.flatMap((agent) => [
  {
    target: `./src/agents/${agent}`,
    from: AGENTS.filter((other) => other !== agent).map((other) => `./src/agents/${other}`),
    message: `src/agents/${agent} may not import another agent's formats: share through src/agents/agent.ts or the core.`,
  },
  {
    target: LAYERS.flat()
      .filter((layer) => layer !== 'agents' && layer !== 'entries')
      .map((layer) => `./src/${layer}`),
    from: `./src/agents/${agent}`,
    message: `only src/agents and src/entries import an agent's folder: take the agent you are given (src/agents/agent.ts) and ask its fields and capabilities.`,
  },
  {
    target: './src/agents/*.ts',
    from: `./src/agents/${agent}`,
    except: ['./adapter.ts'],
    message: `src/agents' shared modules reach an agent through its adapter.ts only (agents/dispatch.ts).`,
  },
]);

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test/fixtures/',
      'plugin-dist/',
      '.bench/',
      '.soak/',
      '.e2e/',
    ],
  },
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
            'test/helpers/*.cjs',
          ],
          // The plain-JS files above (build and e2e-install scripts, the bin, the fake CLI, the
          // test scripts' starter).
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
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
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test-helper.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver()],
      // import-x reads the imported files to follow a circle: with no parser for .ts it read
      // none and no-cycle reported nothing (a probe circle a ⇄ b passed).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...agentZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Loading ICU for it costs a hook ~18 ms: core/format-tokens.ts groups digits instead.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toLocaleString']",
          message: 'toLocaleString loads ICU (~18 ms per process); use formatTokens.',
        },
      ],
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
    // Claude Code loads the mod only if it imports nothing (docs/claude-code.md, "Mods"): the
    // build inlines pure core code into it, nothing else.
    files: ['src/mod/register.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(?!\\.\\./core/)', message: 'a mod imports pure core code only' }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[importKind!="type"]:not([source.value=/^\\.\\.\\/core\\//])',
          message: 'a mod imports nothing but pure core code (inlined by the build)',
        },
        { selector: 'ImportExpression', message: 'a mod imports nothing' },
      ],
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
    files: [
      'scripts/**/*.mjs',
      'test/loop/*.mjs',
      'eslint.config.js',
      'bin/*.cjs',
      'test/helpers/*.cjs',
    ],
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
    files: ['bin/*.cjs', 'test/helpers/*.cjs'],
    languageOptions: {
      globals: { __dirname: 'readonly', module: 'readonly', performance: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The team store (docs/team.md): pg and Kysely live in store/postgres only, which only the
    // worker and team commands import, on demand — never the hooks or the statusline.
    files: ['src/**/*.ts'],
    ignores: ['src/store/postgres/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'pg',
              message: 'pg belongs to src/store/postgres (docs/team.md).',
              allowTypeImports: true,
            },
            {
              name: 'kysely',
              message: 'Kysely belongs to src/store/postgres (docs/team.md).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/hook/**/*.ts', 'src/statusline/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/store/postgres/**',
                '**/app/team/open-team-store.ts',
                '**/app/team/team-sync.ts',
              ],
              message: 'the hot path opens no connection to the team store (docs/team.md).',
            },
          ],
        },
      ],
    },
  },
);

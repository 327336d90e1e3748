import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyCheckCommand } from './check-command.ts';

test('test runners, also behind cd, env vars, npx and pipes', () => {
  for (const command of [
    'npm test',
    'npm run test:e2e',
    'npm t',
    'pnpm test -- --watch=false',
    'cd packages/core && npm test 2>&1 | tail -20',
    'CI=1 npx vitest run src/a.test.ts',
    'python -m pytest -x tests/',
    'pytest -q',
    'go test ./...',
    'cargo test --release',
    'node --import tsx --test src/a.test.ts',
    'timeout 600 make test',
  ]) {
    assert.equal(classifyCheckCommand(command), 'test', command);
  }
});

test('type checks, linters and builds', () => {
  assert.equal(classifyCheckCommand('npx tsc --noEmit'), 'typecheck');
  assert.equal(classifyCheckCommand('npm run typecheck'), 'typecheck');
  assert.equal(classifyCheckCommand('mypy src'), 'typecheck');
  assert.equal(classifyCheckCommand('npm run lint'), 'lint');
  assert.equal(classifyCheckCommand('npx eslint . --fix'), 'lint');
  assert.equal(classifyCheckCommand('ruff check .'), 'lint');
  assert.equal(classifyCheckCommand('npm run build'), 'build');
  assert.equal(classifyCheckCommand('cargo build'), 'build');
  assert.equal(classifyCheckCommand('make'), 'build');
});

test('commands that merely mention a check are not checks', () => {
  for (const command of [
    'git commit -m "fix the failing test"',
    'echo npm test',
    'cat test/fixtures/a.json',
    'ls src/build',
    'grep -rn "pytest" .',
    'make -n build',
  ]) {
    assert.equal(classifyCheckCommand(command), null, command);
  }
});

test('every runner each kind names is recognised (none is lost to the quick first look)', () => {
  const expected: Array<[string, string]> = [
    ...[
      'yarn test',
      'bun run test',
      'jest',
      'mocha',
      'ava',
      'rspec spec',
      'phpunit',
      'tox -e py3',
      'ctest',
      'nox',
      'python3 -m unittest',
      'dotnet test',
      'mix test',
      'swift test',
      'zig test src/main.zig',
      'deno test',
      'bun test',
      'gradle test',
      './gradlew test',
      'mvn test',
      'make check',
      'playwright test',
    ].map((c): [string, string] => [c, 'test']),
    ...['vue-tsc --noEmit', 'yarn types', 'pyright', 'cargo check'].map((c): [string, string] => [
      c,
      'typecheck',
    ]),
    ...[
      'flake8',
      'pylint src',
      'golangci-lint run',
      'rubocop',
      'biome check .',
      'shellcheck a.sh',
      'stylelint "**/*.css"',
      'oxlint',
      'cargo clippy',
      'prettier --check .',
      'pnpm format',
    ].map((c): [string, string] => [c, 'lint']),
    ...[
      'go build ./...',
      'dotnet build',
      'swift build',
      'zig build',
      'gradle build',
      './gradlew assemble',
      'mvn package',
      'vite build',
      'webpack',
      'tsup',
      'esbuild src/a.ts --bundle',
      'next build',
    ].map((c): [string, string] => [c, 'build']),
  ];
  for (const [command, kind] of expected)
    assert.equal(classifyCheckCommand(command), kind, command);
});

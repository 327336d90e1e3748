/**
 * Which shell commands are checks — tests, type checks, linters, builds — whose last result a
 * fresh session must know ("last `npm test`: passing"). A command counts when one of its
 * pipeline segments starts with a known runner, so `git commit -m "fix test"` is not a test run.
 * @module
 */
import type { CheckKind } from '../session.ts';

const RUNNER = String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?`;

/** First match wins: `npm run test:lint` is a test run, `npm run lint` a lint. */
const PATTERNS: ReadonlyArray<[CheckKind, RegExp]> = [
  [
    'test',
    new RegExp(
      String.raw`^(?:${RUNNER}test\b|npm\s+t\b|(?:jest|vitest|pytest|mocha|ava|rspec|phpunit|tox|ctest|nox)\b|python3?\s+-m\s+(?:pytest|unittest)\b|node\s+(?:\S+\s+)*?--test\b|(?:go|cargo|dotnet|mix|swift|zig|deno|bun)\s+test\b|(?:gradle|\./gradlew|mvn)\s+test\b|make\s+(?:test|check)\b|playwright\s+test\b)`,
    ),
  ],
  [
    'typecheck',
    new RegExp(
      String.raw`^(?:tsc\b|vue-tsc\b|${RUNNER}(?:typecheck|type-check|types|check-types|tsc)\b|mypy\b|pyright\b|cargo\s+check\b)`,
    ),
  ],
  [
    'lint',
    new RegExp(
      String.raw`^(?:eslint|ruff|flake8|pylint|golangci-lint|rubocop|biome|shellcheck|stylelint|oxlint)\b|^(?:cargo\s+clippy|prettier\s+(?:--check|-c)\b|${RUNNER}(?:lint|format)\b)`,
    ),
  ],
  [
    'build',
    new RegExp(
      String.raw`^(?:${RUNNER}build\b|(?:cargo|go|dotnet|swift|zig)\s+build\b|make\b(?!\s+-n)|(?:gradle|\./gradlew)\s+(?:build|assemble)\b|mvn\s+(?:package|install|compile|verify)\b|vite\s+build\b|webpack\b|tsup\b|esbuild\b|next\s+build\b)`,
    ),
  ],
];

/**
 * What every alternative of PATTERNS starts with. A segment that starts with none is no check,
 * and the four expressions (compiled on first use, ~1 ms of a fresh hook process) never run.
 */
const LEADS = [
  ...['npm', 'pnpm', 'yarn', 'bun', 'node', 'python', 'deno', 'make', 'playwright'],
  ...['jest', 'vitest', 'pytest', 'mocha', 'ava', 'rspec', 'phpunit', 'tox', 'ctest', 'nox'],
  ...['go', 'cargo', 'dotnet', 'mix', 'swift', 'zig', 'gradle', './gradlew', 'mvn'],
  ...['tsc', 'vue-tsc', 'mypy', 'pyright'],
  ...['eslint', 'ruff', 'flake8', 'pylint', 'rubocop', 'biome', 'shellcheck', 'stylelint'],
  ...['oxlint', 'prettier', 'vite', 'webpack', 'tsup', 'esbuild', 'next'],
];

/** Drops what precedes the runner: `FOO=1`, `npx`, `timeout 60`, `time`, `env`. */
function stripPrefixes(segment: string): string {
  let s = segment.trim();
  for (;;) {
    const next = s
      .replace(/^\w+=(?:"[^"]*"|'[^']*'|\S*)\s+/, '')
      .replace(/^(?:npx|pnpx|bunx|time|env|nice|command|exec)\s+/, '')
      .replace(/^(?:npm\s+exec|pnpm\s+exec|yarn\s+exec)\s+(?:--\s+)?/, '')
      .replace(/^timeout\s+\S+\s+/, '');
    if (next === s) return s;
    s = next;
  }
}

/** The kind of check `command` runs, or null when it runs none. */
export function classifyCheckCommand(command: string): CheckKind | null {
  for (const segment of command.split(/&&|\|\||[;|\n]/)) {
    const s = stripPrefixes(segment);
    if (s === '' || !LEADS.some((lead) => s.startsWith(lead))) continue;
    for (const [kind, pattern] of PATTERNS) if (pattern.test(s)) return kind;
  }
  return null;
}

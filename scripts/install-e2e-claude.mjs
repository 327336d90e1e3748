// Installs the pinned Claude Code CLI the end-to-end tests run, on demand, into .e2e/claude-code/
// (git-ignored), outside the project's dependencies: `npm install` of shim stays lean (the CLI is
// a 364 MB native binary that wants Node 22). The pin is package.json "e2e.claudeCode".
// Usage: node scripts/install-e2e-claude.mjs [--quiet] [--previous | --version <v>]
//   prints the binary's path. --previous installs package.json "e2e.claudeCodePrevious" (the
//   version the pin moved up from, kept for the scenarios whose rules differ: docs/claude-code.md)
//   into .e2e/claude-code-<version>/, beside the pinned one; run a test file against it with
//   SHIM_CLAUDE_BIN=$(node scripts/install-e2e-claude.mjs --previous) node scripts/test.mjs <file>
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const E2E = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).e2e ?? {};
const PIN = E2E.claudeCode;
const PACKAGE = '@anthropic-ai/claude-code';
const quiet = process.argv.includes('--quiet');

/** Where `version` lives: the pin in .e2e/claude-code, any other beside it. */
function placeOf(version) {
  const dir = join(ROOT, '.e2e', version === PIN ? 'claude-code' : `claude-code-${version}`);
  return { DIR: dir, BIN: join(dir, 'node_modules', '.bin', 'claude') };
}

function installedVersion({ DIR, BIN }) {
  try {
    const meta = JSON.parse(
      readFileSync(join(DIR, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
    );
    return existsSync(BIN) ? meta.version : null;
  } catch {
    return null;
  }
}

export function ensureE2eClaude(version = PIN) {
  if (!version) throw new Error('package.json has no "e2e": { "claudeCode": "<version>" } pin');
  const place = placeOf(version);
  const { DIR, BIN } = place;
  if (installedVersion(place) === version) return BIN;
  if (!quiet)
    process.stderr.write(
      `installing ${PACKAGE}@${version} for the e2e tests into ${DIR} (once)…\n`,
    );
  mkdirSync(DIR, { recursive: true });
  // Its own package.json: the lock file of shim is untouched, and npm 11 runs the CLI's
  // postinstall (it links the native binary) because it is allowed here.
  writeFileSync(
    join(DIR, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [PACKAGE]: version }, allowScripts: { [PACKAGE]: true } }, null, 2)}\n`,
  );
  const started = Date.now();
  const result = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      '--engine-strict=false',
    ],
    { cwd: DIR, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status !== 0 || installedVersion(place) !== version) {
    throw new Error(
      `could not install ${PACKAGE}@${version} into ${DIR} (npm exited ${result.status}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' ')}\n` +
        '  check that the npm registry is reachable, or set SHIM_SKIP_E2E=1 to skip the e2e tests',
    );
  }
  if (!quiet) process.stderr.write(`installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return BIN;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const at = process.argv.indexOf('--version');
    const version = process.argv.includes('--previous')
      ? E2E.claudeCodePrevious
      : at > 0
        ? process.argv[at + 1]
        : PIN;
    if (!version || !/^\d+\.\d+\.\d+$/.test(version))
      throw new Error(
        `no version to install (${version ?? 'package.json has no "e2e.claudeCodePrevious"'}): give --version <x.y.z>`,
      );
    process.stdout.write(`${ensureE2eClaude(version)}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

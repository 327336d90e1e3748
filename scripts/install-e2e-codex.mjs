// Installs the pinned Codex CLI the end-to-end tests run, on demand, into .e2e/codex/
// (git-ignored), outside the project's dependencies, the same way install-e2e-claude.mjs installs
// Claude Code. The pin is package.json "e2e.codex".
// Usage: node scripts/install-e2e-codex.mjs [--quiet]   (prints the binary's path)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const PIN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).e2e?.codex;
const DIR = join(ROOT, '.e2e', 'codex');
const BIN = join(DIR, 'node_modules', '.bin', 'codex');
const PACKAGE = '@openai/codex';
const quiet = process.argv.includes('--quiet');

function installedVersion() {
  try {
    const meta = JSON.parse(
      readFileSync(join(DIR, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
    );
    return existsSync(BIN) ? meta.version : null;
  } catch {
    return null;
  }
}

export function ensureE2eCodex() {
  if (!PIN) throw new Error('package.json has no "e2e": { "codex": "<version>" } pin');
  if (installedVersion() === PIN) return BIN;
  if (!quiet)
    process.stderr.write(`installing ${PACKAGE}@${PIN} for the e2e tests into ${DIR} (once)…\n`);
  mkdirSync(DIR, { recursive: true });
  // Its own package.json, so shim's lock file is untouched; the CLI's platform binary comes as an
  // optional dependency of the wrapper package.
  writeFileSync(
    join(DIR, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [PACKAGE]: PIN }, allowScripts: { [PACKAGE]: true } }, null, 2)}\n`,
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
  if (result.status !== 0 || installedVersion() !== PIN) {
    throw new Error(
      `could not install ${PACKAGE}@${PIN} into ${DIR} (npm exited ${result.status}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' ')}\n` +
        '  check that the npm registry is reachable, or set SHIM_SKIP_E2E=1 to skip the e2e tests',
    );
  }
  if (!quiet) process.stderr.write(`installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return BIN;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(`${ensureE2eCodex()}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

// Installs the pinned Gemini CLI the end-to-end tests run, on demand, into .e2e/gemini-cli/
// (git-ignored), outside the project's dependencies: `npm install` of shim stays lean. The pin is
// package.json "e2e.geminiCli".
// Usage: node scripts/install-e2e-gemini.mjs [--quiet]   (prints the CLI's entry path)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const PIN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).e2e?.geminiCli;
const DIR = join(ROOT, '.e2e', 'gemini-cli');
const BIN = join(DIR, 'node_modules', '.bin', 'gemini');
const PACKAGE = '@google/gemini-cli';
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

export function ensureE2eGemini() {
  if (!PIN) throw new Error('package.json has no "e2e": { "geminiCli": "<version>" } pin');
  if (installedVersion() === PIN) return BIN;
  if (!quiet)
    process.stderr.write(`installing ${PACKAGE}@${PIN} for the e2e tests into ${DIR} (once)…\n`);
  mkdirSync(DIR, { recursive: true });
  // Its own package.json: shim's lock file is untouched.
  writeFileSync(
    join(DIR, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [PACKAGE]: PIN } }, null, 2)}\n`,
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
    process.stdout.write(`${ensureE2eGemini()}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

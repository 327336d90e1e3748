// Installing a pinned agent CLI for the end-to-end tests, on demand, into .e2e/<dir>/ (git-ignored),
// outside the project's dependencies: `npm install` of shim stays lean, and shim's lock file is
// untouched (the CLI gets a package.json of its own, which allows its install scripts: npm 11 runs
// a postinstall only where it is allowed, and Claude Code's links its native binary). One shape
// for every agent; scripts/install-e2e-<agent>.mjs say which package, pin and place.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** package.json's "e2e" pins. */
export const E2E_PINS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).e2e ?? {};

const quiet = process.argv.includes('--quiet');

/** The CLI's binary in `dir` (under .e2e/), and the version installed there (null: none). */
function installed(dir, pkg, bin) {
  const place = join(ROOT, '.e2e', dir);
  const binPath = join(place, 'node_modules', '.bin', bin);
  try {
    const meta = JSON.parse(readFileSync(join(place, 'node_modules', pkg, 'package.json'), 'utf8'));
    return { place, binPath, version: existsSync(binPath) ? meta.version : null };
  } catch {
    return { place, binPath, version: null };
  }
}

/**
 * The path of `bin` from `pkg`@`version` installed into .e2e/`dir`, installing it first when it
 * is not there. Throws with what failed and how to skip the e2e tests.
 */
export function ensureE2eCli({ pkg, version, dir, bin, pinName }) {
  if (!version) throw new Error(`package.json has no "e2e": { "${pinName}": "<version>" } pin`);
  const { place, binPath, version: have } = installed(dir, pkg, bin);
  if (have === version) return binPath;
  if (!quiet)
    process.stderr.write(`installing ${pkg}@${version} for the e2e tests into ${place} (once)…\n`);
  mkdirSync(place, { recursive: true });
  writeFileSync(
    join(place, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [pkg]: version }, allowScripts: { [pkg]: true } }, null, 2)}\n`,
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
    { cwd: place, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status !== 0 || installed(dir, pkg, bin).version !== version) {
    throw new Error(
      `could not install ${pkg}@${version} into ${place} (npm exited ${result.status}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' ')}\n` +
        '  check that the npm registry is reachable, or set SHIM_SKIP_E2E=1 to skip the e2e tests',
    );
  }
  if (!quiet) process.stderr.write(`installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return binPath;
}

/** Runs `install` when the script is the program itself: its path on stdout, a failure on stderr. */
export function runAsScript(scriptUrl, install) {
  if (scriptUrl !== `file://${process.argv[1]}`) return;
  try {
    process.stdout.write(`${install()}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

// Runs every *.test.ts under src/ and test/ with Node's own test runner (TypeScript via tsx).
// Node 20's runner has no glob support, so the file list is collected here.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureE2eClaude } from './install-e2e-claude.mjs';
import { ensureE2eCodex } from './install-e2e-codex.mjs';

// The dashboard's browser tests (test/ui/) drive Debian's Chromium through playwright-core
// (browsers cannot be downloaded here). A developer's test run installs nothing: without a
// Chromium it says what is missing and skips those tests (.ci/run installs it for CI;
// SHIM_REQUIRE_CHROMIUM=1 runs them anyway, so they fail with what to install).
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function hasChromium() {
  return Boolean(process.env.SHIM_CHROMIUM) || CANDIDATES.some((path) => existsSync(path));
}

// The suite's SHIM_HOMEs are thrown away after each test: the warm look's processes they start
// (src/hook/warm-look/) leave after 5 s without a call instead of 10 min, so a run does not
// keep a few hundred of them waiting (tests that need longer set their own).
process.env.SHIM_WARM_LOOK_IDLE_MS ??= '5000';

const roots = ['src', 'test'];
const only = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.test.ts')) files.push(path);
  }
};
for (const root of roots) walk(root);
let selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const ui = join('test', 'ui');
if (
  selected.some((f) => f.includes(ui)) &&
  !hasChromium() &&
  process.env.SHIM_REQUIRE_CHROMIUM !== '1'
) {
  const skipped = selected.filter((f) => f.includes(ui));
  process.stderr.write(
    `no Chromium: skipping the ${skipped.length} dashboard browser test files (test/ui/). Install Debian's chromium (sudo apt-get install chromium) or set SHIM_CHROMIUM to a Chrome/Chromium binary to run them.\n`,
  );
  selected = selected.filter((f) => !f.includes(ui));
}
// The e2e tests run the real, pinned Claude Code CLI; it lives outside shim's dependencies.
if (process.env.SHIM_SKIP_E2E !== '1' && !process.env.SHIM_CLAUDE_BIN) {
  try {
    ensureE2eClaude();
  } catch (error) {
    // The e2e install test fails with this message; everything else still runs.
    process.stderr.write(`${error.message}\n`);
  }
}
// The Codex e2e tests (and the loop's across agents) run the pinned Codex CLI, installed the same
// way when they are selected.
if (
  process.env.SHIM_SKIP_E2E !== '1' &&
  selected.some((f) => f.includes('codex') || f.includes('loop-agents'))
) {
  try {
    ensureE2eCodex();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
  }
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected.sort()],
  { stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } },
);
process.exit(result.status ?? 1);

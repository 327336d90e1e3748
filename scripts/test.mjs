// Runs every *.test.ts under src/ and test/ with Node's own test runner (TypeScript via tsx).
// Node 20's runner has no glob support, so the file list is collected here.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureE2eClaude } from './install-e2e-claude.mjs';
import { ensureE2eCodex } from './install-e2e-codex.mjs';

// The dashboard's browser tests (test/ui/) drive Debian's Chromium through playwright-core
// (browsers cannot be downloaded here). When it is missing and this runs as root with apt-get,
// it is installed once, as .ci/run does; otherwise the tests fail with what to install.
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function ensureChromium() {
  if (process.env.SHIM_CHROMIUM || CANDIDATES.some((path) => existsSync(path))) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    process.stderr.write(
      "no Chromium for the dashboard tests: install Debian's chromium (sudo apt-get install chromium) or set SHIM_CHROMIUM\n",
    );
    return;
  }
  process.stderr.write("installing Debian's chromium for the dashboard tests (once)…\n");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (result.status !== 0)
    process.stderr.write('apt-get install chromium failed; the dashboard tests will fail\n');
}

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
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
// The e2e tests run the real, pinned Claude Code CLI; it lives outside shim's dependencies.
if (process.env.SHIM_SKIP_E2E !== '1' && !process.env.SHIM_CLAUDE_BIN) {
  try {
    ensureE2eClaude();
  } catch (error) {
    // The e2e install test fails with this message; everything else still runs.
    process.stderr.write(`${error.message}\n`);
  }
}
// The Codex e2e tests run the pinned Codex CLI, installed the same way when they are selected.
if (process.env.SHIM_SKIP_E2E !== '1' && selected.some((f) => f.includes('codex'))) {
  try {
    ensureE2eCodex();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
  }
}
if (selected.some((f) => f.includes(join('test', 'ui')))) ensureChromium();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected.sort()],
  { stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } },
);
process.exit(result.status ?? 1);

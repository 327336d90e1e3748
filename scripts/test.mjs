// Runs every *.test.ts under src/ and test/ with Node's own test runner (TypeScript via tsx).
// Node 20's runner has no glob support, so the file list is collected here.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureE2eClaude } from './install-e2e-claude.mjs';

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
if (selected.some((f) => f.includes(join('test', 'ui')))) ensureChromium();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected.sort()],
  { stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } },
);
process.exit(result.status ?? 1);
